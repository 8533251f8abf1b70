package check_test

import (
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// A candidate whose message grew from 26 to 32 bytes fails against the
// stored baseline: sizes are exact, so one run is enough to judge them.
func ExampleAgainst() {
	run := func(size float64) *results.Results {
		r := results.New("default", results.Env{Machine: "m", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		b := results.Benchmark{Name: "BenchmarkSerialize/codec=raw/dataset=small"}
		for range 10 {
			b.Add(results.UnitNsPerOp, 100)
		}
		b.Add(results.UnitBytesPerMsg, size)
		r.Benchmarks = append(r.Benchmarks, b)
		return r
	}
	o, err := check.Against(baseline.New(run(26), ""), run(32), compare.Defaults(), outcome.Report{BaselineSource: "baseline.json"})
	if err != nil {
		fmt.Println(err)
		return
	}
	regressions, _ := o.Counts()
	fmt.Println(o.Verdict, regressions, "regression")
	// Output: fail 1 regression
}
