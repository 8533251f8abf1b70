package count

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/stats"
	"github.com/wirebench/wirebench/internal/worker"
)

// counter runs the parts of a program counted (program.Counter): under
// callgrind, each process's dumps in a directory of its own under dir,
// which the sandbox's user owns.
type counter struct {
	valgrind callgrind.Valgrind
	options  callgrind.Options
	dir      string
	sandbox  *sandbox.Sandbox
	mu       sync.Mutex
	started  int
}

// Wrap returns cmd run by callgrind and the file its dumps go to.
func (c *counter) Wrap(cmd worker.Command, label string) (worker.Command, string, error) {
	c.mu.Lock()
	c.started++
	n := c.started
	c.mu.Unlock()
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(label))
	dir := filepath.Join(c.dir, fmt.Sprintf("%03d-%s", n, safe))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cmd, "", fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	if err := c.sandbox.Own(dir); err != nil {
		return cmd, "", fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	out := filepath.Join(dir, "callgrind.out")
	cmd.Args = c.options.Args(out, cmd.Path, cmd.Args)
	cmd.Path = c.valgrind.Path
	cmd.Env = callgrind.Env(cmd.Env)
	return cmd, out, nil
}

// processCounts is what one process counted: per benchmark, its value of
// every unit.
type processCounts map[string]map[string]float64

// countProcess counts every benchmark of p in one fresh process of b
// under callgrind, in an order drawn from rng.
func (r *run) countProcess(ctx context.Context, side, label string, b Build, p *plan, rng *rand.Rand) (processCounts, error) {
	w, err := program.Start(ctx, side, label, b.Program, b.Env, program.StartOptions{Stderr: r.o.Stderr, Sandbox: r.o.Sandbox, Counter: r.counter}, r.lists)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	if err := w.Countable(); err != nil {
		return nil, err
	}
	r.noteWay(side, w.CountWay())
	out := processCounts{}
	order := rng.Perm(len(p.names))
	for k, i := range order {
		name := p.names[i]
		nextCostly := k+1 < len(order) && r.costly(p, p.names[order[k+1]])
		v, err := r.countBenchmark(ctx, w, name, p, nextCostly)
		if err != nil {
			return nil, err
		}
		out[name] = v
		r.countedOne()
	}
	return out, nil
}

// countBenchmark counts one benchmark in worker w: Blocks counted blocks
// (one for a benchmark whose single operation fills a block), the first
// after an uncounted block of the same size and the others after one
// uncounted operation (none for a worker whose blocks warm themselves
// up), each reduced to counts per operation; their median per unit is
// the process's value.
//
// Instrumentation stays on after a block unless what comes next is
// costly (its uncounted operation, run instrumented, would cost as much
// as counting it): switching it on and off re-translates all the code the
// process runs, which measured here took half the time of counting the
// suite's medium and large datasets.
func (r *run) countBenchmark(ctx context.Context, w *program.Worker, name string, p *plan, nextCostly bool) (map[string]float64, error) {
	n := p.iterations[name]
	blocks := r.o.Blocks
	if n == 1 {
		blocks = 1
	}
	per := map[string][]float64{}
	for k := range blocks {
		pre := 1
		switch {
		case p.warmed:
			pre = 0
		case k == 0:
			pre = n
		}
		var v map[string]float64
		var err error
		if p.difference {
			v, err = differenceBlock(ctx, w, name, n, pre, p.nsPerOp[name])
		} else {
			keep := !nextCostly
			if k+1 < blocks {
				keep = !r.costly(p, name)
			}
			v, err = plainBlock(ctx, w, name, n, pre, p.nsPerOp[name], keep)
		}
		if err != nil {
			return nil, err
		}
		for u, x := range v {
			per[u] = append(per[u], x)
		}
	}
	out := map[string]float64{}
	for u, xs := range per {
		out[u], _ = stats.Median(xs)
	}
	return out, nil
}

// timeout bounds a counted request that runs iters iterations of a
// benchmark costing ns per operation natively.
func timeout(ns float64, iters int) time.Duration {
	return worker.DefaultTimeout + time.Duration(countSlowdown*ns*float64(iters))
}

// plainBlock is one counted block of n iterations after pre uncounted
// ones: its counts over n; keep leaves instrumentation on after it.
func plainBlock(ctx context.Context, w *program.Worker, name string, n, pre int, ns float64, keep bool) (map[string]float64, error) {
	s, c, err := w.Count(ctx, name, n, pre, timeout(ns, n+pre), keep)
	if err != nil {
		return nil, err
	}
	v := map[string]float64{results.UnitInstructionsPerOp: float64(c.Ir) / float64(n)}
	if c.CacheSim {
		v[results.UnitEstCyclesPerOp] = c.EstCycles() / float64(n)
	}
	return withSample(v, s), nil
}

// differenceBlock counts a benchmark whose blocks include its own setup
// (a go test benchmark function, run whole with -test.benchtime=Nx): a
// block of n iterations and one of 2n, whose difference over n is the
// count of n operations alone. The allocations and the units the
// benchmark reported are the testing package's, per operation, from the
// larger block.
func differenceBlock(ctx context.Context, w *program.Worker, name string, n, pre int, ns float64) (map[string]float64, error) {
	_, c1, err := w.Count(ctx, name, n, pre, timeout(ns, n+pre), false)
	if err != nil {
		return nil, err
	}
	s2, c2, err := w.Count(ctx, name, 2*n, 0, timeout(ns, 2*n), false)
	if err != nil {
		return nil, err
	}
	v := map[string]float64{results.UnitInstructionsPerOp: math.Max(0, float64(c2.Ir)-float64(c1.Ir)) / float64(n)}
	if c1.CacheSim && c2.CacheSim {
		v[results.UnitEstCyclesPerOp] = math.Max(0, c2.EstCycles()-c1.EstCycles()) / float64(n)
	}
	return withSample(v, s2), nil
}

// withSample adds to a block's counts v what its sample s says per
// operation: allocations, and the units the benchmark reported.
func withSample(v map[string]float64, s bench.Sample) map[string]float64 {
	v[results.UnitAllocsPerOp], v[results.UnitBytesPerOp] = s.AllocsPerOp(), s.BytesPerOp()
	for u, x := range s.Metrics {
		v[u] = x
	}
	return v
}
