package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/heartbeat"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/load"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
)

// oneOptions say how timeOne measures one build's workers.
type oneOptions struct {
	// Samples is the number of rounds; Budget the time they should take,
	// warm-up included.
	Samples int
	Budget  time.Duration
	// Warmup is each benchmark's warm-up; default 30 ms.
	Warmup time.Duration
	// Seed fixes the shuffles; 0 picks one.
	Seed uint64
	// Env is the workers' environment (secrets are dropped); nil the
	// process's. Stderr receives their diagnostics.
	Env    []string
	Stderr io.Writer
	// Sandbox runs the workers as its unprivileged user; nil as is.
	Sandbox *sandbox.Sandbox
	// Progress receives progress lines; nil is silent. Verbose adds a
	// line per round.
	Progress io.Writer
	Verbose  bool
}

// errNoneSelected is returned by timeOne when the workers list no
// benchmark for the selection.
var errNoneSelected = errors.New("no benchmark matches the selection")

// timeOne times the benchmarks of one program the way bench.Runner
// measures the embedded suite in its own process, for a stored-baseline
// comparison when there is no base to run beside it: each benchmark warms
// up, then Samples rounds visit every benchmark once in a freshly
// shuffled order, one block per visit, the blocks sized so the rounds fit
// the budget. The result is one sample of every metric per round.
func timeOne(ctx context.Context, p program.Program, o oneOptions) (*results.Results, error) {
	if o.Samples < 2 {
		o.Samples = 2
	}
	if o.Warmup <= 0 {
		o.Warmup = 30 * time.Millisecond
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	start := time.Now()
	// The machine's other work while this runs (results.Settings.OtherCPUs);
	// none recorded where it cannot be read.
	before, loadErr := load.Take()
	w, err := program.Start(ctx, "", "run", p, o.Env, program.StartOptions{Stderr: o.Stderr, Sandbox: o.Sandbox}, program.NewLists())
	if err != nil {
		return nil, err
	}
	defer w.Close()
	h := w.Handshake()
	names := h.Benchmarks
	if len(names) == 0 {
		return nil, errNoneSelected
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	fmt.Fprintf(progress, "wirebench: measuring %s × %d samples, budget %s\n", human.Plural(len(names), "benchmark", "benchmarks"), o.Samples, o.Budget)
	est := make([]float64, len(names))
	for i, n := range names {
		s, err := w.Warmup(ctx, n, o.Warmup)
		if err != nil {
			return nil, err
		}
		est[i] = s.NsPerOp()
	}
	fmt.Fprintf(progress, "wirebench: warmed up %s in %s\n", human.Plural(len(names), "benchmark", "benchmarks"), time.Since(start).Round(time.Millisecond))
	said := time.Now()
	samples := make([][]bench.Sample, len(names))
	rng := rand.New(rand.NewPCG(o.Seed, 0x736f6c6f))
	for k := range o.Samples {
		roundStart := time.Now()
		left := o.Budget - time.Since(start)
		t := bench.WaterLevel(est, float64(left)/float64(o.Samples-k))
		t = min(max(t, float64(time.Millisecond)), float64(time.Second))
		for _, i := range rng.Perm(len(names)) {
			n := max(1, int(t/max(est[i], 1)))
			s, err := w.Run(ctx, names[i], n, 0)
			if err != nil {
				return nil, err
			}
			samples[i] = append(samples[i], s)
			est[i] = s.NsPerOp()
		}
		// Every round with -v; otherwise a line whenever the next round
		// would end more than heartbeat.Every after the last one, so that
		// a CI log does not look hung.
		round := time.Since(roundStart)
		if o.Verbose || time.Since(said)+round >= heartbeat.Every {
			fmt.Fprintf(progress, "wirebench: round %d/%d, %s elapsed\n", k+1, o.Samples, time.Since(start).Round(100*time.Millisecond))
			said = time.Now()
		}
	}
	res := results.New(h.Suite, h.Env)
	res.Settings = results.Settings{Samples: o.Samples, Budget: o.Budget, Seed: o.Seed, Source: "go test", Elapsed: time.Since(start), Rounds: o.Samples}
	// The worker's own time counts as this process's once it has exited
	// and been waited for (its parts' Close waits).
	w.Close()
	if after, err := load.Take(); err == nil && loadErr == nil {
		res.Settings.OtherCPUs = before.Other(after)
	}
	for i, key := range names {
		b := sampleResults(key, samples[i])
		b.Parallel = w.Parallel(key)
		res.Benchmarks = append(res.Benchmarks, b)
	}
	return res, nil
}

// sampleResults is one benchmark's samples as results: ns/op, B/op,
// allocs/op and the units it reported, one value per sample.
func sampleResults(key string, ss []bench.Sample) results.Benchmark {
	pkg, name := results.SplitKey(key)
	codec, dataset, op := results.NameParts(name)
	b := results.Benchmark{Pkg: pkg, Name: name, Codec: codec, Dataset: dataset, Op: op}
	units := map[string]bool{}
	for _, s := range ss {
		b.Iterations = append(b.Iterations, int64(s.Iterations))
		b.Add(results.UnitNsPerOp, s.NsPerOp())
		for u := range s.Metrics {
			units[u] = true
		}
	}
	for _, s := range ss {
		b.Add(results.UnitBytesPerOp, s.BytesPerOp())
	}
	for _, s := range ss {
		b.Add(results.UnitAllocsPerOp, s.AllocsPerOp())
	}
	for _, u := range slices.Sorted(maps.Keys(units)) {
		for _, s := range ss {
			if v, ok := s.Metrics[u]; ok {
				b.Add(u, v)
			}
		}
	}
	return b
}
