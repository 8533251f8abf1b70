// Package baselinetest builds baselines with a history of replicate runs,
// for the tests of the packages that judge and confirm against them (as
// net/http/httptest serves the tests of HTTP code).
package baselinetest

import (
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/results"
)

// Runs is the number of replicate runs in a History baseline.
const Runs = 8

// History returns a baseline refreshed with Runs replicate runs of the
// benchmarks names (machine "m", commit "c", one run an hour), and a
// function that makes one more run whose first benchmark is slower by the
// factor slow. Benchmark i of run k sits at 100*(i+1) ns/op times
// 1+jitter(k, i), its 10 samples within ±0.1% of that: jitter is how much
// the benchmark moves between runs.
func History(names []string, jitter func(run, bench int) float64) (*baseline.Baseline, func(slow float64) *results.Results) {
	mk := func(k int, slow float64) *results.Results {
		r := results.New("default", results.Env{Machine: "m", Commit: "c", Time: time.Date(2026, 1, 1, k, 0, 0, 0, time.UTC)})
		for i, name := range names {
			b := results.Benchmark{Name: name}
			level := 100 * float64(i+1) * (1 + jitter(k, i))
			if i == 0 {
				level *= slow
			}
			for j := range 10 {
				b.Add(results.UnitNsPerOp, level*(1+0.001*float64(j%3-1)))
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	var b *baseline.Baseline
	for k := range Runs {
		b = baseline.Refresh(b, mk(k, 1), "", 50)
	}
	return b, func(slow float64) *results.Results { return mk(Runs+1, slow) }
}
