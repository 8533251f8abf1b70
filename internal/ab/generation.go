package ab

import (
	"context"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/worker"
)

// Worker is one worker process: a worker.Client in production, a fake in
// tests.
type Worker interface {
	Handshake() worker.Hello
	Warmup(ctx context.Context, name string, d time.Duration) (bench.Sample, error)
	Run(ctx context.Context, name string, n, pre int) (bench.Sample, error)
	Size(ctx context.Context, name string) (int, error)
	GC(ctx context.Context) error
}

// Generation is one set of worker processes: the base, the head and, for
// the A/A check, a second worker of the base build.
type Generation struct {
	Base, Head Worker
	Base2      Worker // nil: no A/A check
	// Close ends the workers; nil means nothing to do.
	Close func() error
}

func (g *Generation) close() {
	if g != nil && g.Close != nil {
		g.Close()
	}
}

// Spawner starts a fresh generation of workers that hold the named
// benchmarks (nil: every benchmark of the selection), with a second base
// worker when aa is set. Each generation must be new processes of new
// copies of the binaries: measured on the test machine, a worker process
// is a few percent faster or slower than another process of the same
// build for its whole life, partly with the copy of the binary it runs
// (the physical pages its code landed in): between identical builds the
// estimate of one pair of processes varied with a standard deviation of
// about 1.3% while its own interval claimed ±0.5%, now and then by 5-9% on
// allocating benchmarks. Only new processes on new copies tell such an
// offset from a real change, so the main phase runs on several
// generations and the confirmation on fresh ones.
type Spawner func(ctx context.Context, names []string, aa bool) (*Generation, error)

// minGeneration is the shortest a generation of workers runs when the
// number of generations is chosen automatically: measured on the test
// machine, workers a second or two old still differ by ±2-4% between
// generations, workers that ran 10-20 s by about ±1.2%.
const minGeneration = 8 * time.Second

// generationsFor is the number of generations that fit available when each
// costs setup to start: 2 to 16, each at least minGeneration long, and at
// most about 15% of the time spent on starting them.
func generationsFor(available, setup time.Duration) int {
	n := min(int(0.15*float64(available)/float64(max(setup, time.Millisecond))), int(available/minGeneration))
	return min(16, max(2, n))
}

// generations measures tasks for the time until deadline on g generations
// of workers: the first is the current one unless freshFirst, each other
// one fresh (spawned with aa, then re-warmed). Every visit is tagged with
// its generation.
func (r *run) generations(ctx context.Context, spawn Spawner, cur **Generation, tasks []task, deadline time.Time, g int, fixed int, aa bool, phase string, freshFirst bool) ([][]visit, [][]int, int, error) {
	data := make([][]visit, len(tasks))
	gens := make([][]int, len(tasks))
	rounds := 0
	for k := range g {
		if k > 0 || freshFirst {
			(*cur).close()
			*cur = nil
			gen, err := spawn(ctx, nil, aa)
			if err != nil {
				return nil, nil, rounds, err
			}
			*cur = gen
			r.adopt(gen)
			if err := r.checkBase2(); err != nil {
				return nil, nil, rounds, err
			}
			if err := r.rewarm(ctx, tasks); err != nil {
				return nil, nil, rounds, err
			}
		}
		end := time.Now().Add(time.Until(deadline) / time.Duration(g-k))
		d, n, err := r.roundsUntil(ctx, tasks, end, fixed, data, fmt.Sprintf("%s, generation %d/%d", phase, k+1, g))
		if err != nil {
			return nil, nil, rounds, err
		}
		for i := range tasks {
			for len(gens[i]) < len(d[i]) {
				gens[i] = append(gens[i], k)
			}
		}
		data = d
		rounds += n
	}
	return data, gens, rounds, nil
}

// adopt makes r measure with generation g's workers.
func (r *run) adopt(g *Generation) {
	r.ws = []Worker{g.Base, g.Head}
	if g.Base2 != nil {
		r.ws = append(r.ws, g.Base2)
	}
	r.garbage = make([]int64, len(r.ws))
}

// checkBase2 checks that the second base worker has every benchmark.
func (r *run) checkBase2() error {
	if len(r.ws) <= wBase2 {
		return nil
	}
	if common, _, _ := intersect(r.names, r.ws[wBase2].Handshake().Benchmarks); len(common) != len(r.names) {
		return fmt.Errorf("the second base worker has %d of the %d benchmarks: it must be the base build with the same selection", len(common), len(r.names))
	}
	return nil
}

// rewarm runs every task's benchmark briefly in every worker of a new
// generation.
func (r *run) rewarm(ctx context.Context, tasks []task) error {
	for j, t := range tasks {
		for i := range r.ws {
			w := (i + j) % len(r.ws)
			if _, err := r.ws[w].Warmup(ctx, r.names[t.bench], r.opts.Rewarm); err != nil {
				return err
			}
		}
	}
	return r.collectAll(ctx)
}

// setupCost estimates what starting and re-warming a generation of
// workers for tasks costs, from what the first one took to start.
func (r *run) setupCost(tasks []task, spawned time.Duration) time.Duration {
	d := spawned
	for _, t := range tasks {
		d += time.Duration(len(r.ws)) * max(r.opts.Rewarm, time.Duration(2*r.nsPerOp[t.bench]))
	}
	return d
}
