package ab

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/program"
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

// ParallelWorker is a Worker that knows which of its benchmarks call
// RunParallel (program.Worker does): those are measured in blocks of
// Options.ParallelBlock.
type ParallelWorker interface {
	Worker
	Parallel(name string) bool
}

// Generation is one set of worker processes: the base, the head and, for
// the A/A check, a second worker of the base build.
type Generation struct {
	Base, Head Worker
	Base2      Worker // nil: no A/A check
	// Close ends the workers; nil means nothing to do.
	Close func() error
}

// close ends g's workers; a nil g or Close does nothing.
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

// minGenerationRounds is the fewest rounds a generation makes: two, so
// that a task with one visit a round has its base block first once and
// its head block first once in every generation (schedule), whose
// estimate is one replicate of the comparison.
const minGenerationRounds = 2

// generationsFor is the number of generations that fit available when each
// costs setup to start: 2 to 16, each at least minGeneration long, and at
// most about 15% of the time spent on starting them.
func generationsFor(available, setup time.Duration) int {
	n := min(int(0.15*float64(available)/float64(max(setup, time.Millisecond))), int(available/minGeneration))
	return min(16, max(2, n))
}

// phase describes one measurement phase: its name in progress lines, the
// time it ends, how many generations of workers it runs on, the fixed
// number of rounds per generation (0: rounds until the generation's share
// of the time is up), whether its first generation is fresh too (else the
// current one goes on), and whether its generations are spawned with the
// A/A check's second base worker.
type phase struct {
	name        string
	deadline    time.Time
	generations int
	rounds      int
	freshFirst  bool
	aa          bool
}

// measurement is what a phase measured: per task, its visits and the
// generation (from 0) of each, and the rounds and generations made.
type measurement struct {
	visits              [][]visit
	gens                [][]int
	rounds, generations int
}

// generations measures the run's tasks in phase p: on p.generations
// generations of workers, the first the current one unless p.freshFirst,
// each other one fresh (spawned, checked and re-warmed), each until its
// share of the time left to p.deadline is up (or for p.rounds rounds).
// Every visit is tagged with its generation.
func (r *run) generations(ctx context.Context, p phase) (*measurement, error) {
	m := &measurement{visits: make([][]visit, len(r.tasks)), gens: make([][]int, len(r.tasks)), generations: p.generations}
	for k := range p.generations {
		if k > 0 || p.freshFirst {
			if err := r.respawn(ctx, p.aa); err != nil {
				return nil, err
			}
		}
		end := time.Now().Add(time.Until(p.deadline) / time.Duration(p.generations-k))
		// The phase's MinRounds, spread over its generations.
		least := max(minGenerationRounds, (r.opts.MinRounds-m.rounds+p.generations-k-1)/(p.generations-k))
		n, err := r.roundsUntil(ctx, end, p.rounds, least, m.visits, fmt.Sprintf("%s, generation %d/%d", p.name, k+1, p.generations))
		if err != nil {
			return nil, err
		}
		m.tag(k)
		m.rounds += n
	}
	return m, nil
}

// tag marks the visits not yet tagged as generation k's.
func (m *measurement) tag(k int) {
	for i := range m.visits {
		for len(m.gens[i]) < len(m.visits[i]) {
			m.gens[i] = append(m.gens[i], k)
		}
	}
}

// join returns m followed by c, c's generations numbered after m's: all
// the generations a confirmation judges on. Neither is changed.
func (m *measurement) join(c *measurement) *measurement {
	j := &measurement{visits: slices.Clone(m.visits), gens: slices.Clone(m.gens),
		rounds: m.rounds + c.rounds, generations: m.generations + c.generations}
	for i := range j.visits {
		j.visits[i] = append(slices.Clone(j.visits[i]), c.visits[i]...)
		g := slices.Clone(j.gens[i])
		for _, x := range c.gens[i] {
			g = append(g, m.generations+x)
		}
		j.gens[i] = g
	}
	return j
}

// respawn replaces the current generation by a fresh one (with the A/A
// check's worker when aa), checks it and re-warms every task in it.
// It says what that start-up cost: ending the old workers, starting the
// new ones, re-warming (on the default suite 0.1-0.2 s, 1.9-2.7 s and
// 5.0-7.2 s: the re-warm is about one pass over the large benchmarks'
// blocks, a round's worth).
func (r *run) respawn(ctx context.Context, aa bool) error {
	t0 := time.Now()
	r.gen.close()
	r.gen = nil
	t1 := time.Now()
	gen, err := r.spawn(ctx, nil, aa)
	if err != nil {
		return err
	}
	t2 := time.Now()
	r.adopt(gen)
	if err := r.checkBase2(); err != nil {
		return err
	}
	if err := r.rewarm(ctx); err != nil {
		return err
	}
	t3 := time.Now()
	r.chatterf(true, "new generation in %s: old workers ended in %s, new ones started in %s, re-warmed in %s",
		t3.Sub(t0).Round(10*time.Millisecond), t1.Sub(t0).Round(10*time.Millisecond), t2.Sub(t1).Round(10*time.Millisecond), t3.Sub(t2).Round(10*time.Millisecond))
	return nil
}

// adopt makes g the current generation: r measures with its workers, whose
// garbage counts start at zero.
func (r *run) adopt(g *Generation) {
	r.gen = g
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
	if common, _, _ := program.Intersect(r.names, r.ws[wBase2].Handshake().Benchmarks); len(common) != len(r.names) {
		return fmt.Errorf("the second base worker has %d of the %d benchmarks: it must be the base build with the same selection", len(common), len(r.names))
	}
	return nil
}

// rewarm runs every task's benchmark briefly in every worker of a new
// generation (rotating which goes first), then collects them all.
func (r *run) rewarm(ctx context.Context) error {
	for j, t := range r.tasks {
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
// workers for the tasks costs, from what the first one took to start.
func (r *run) setupCost() time.Duration {
	d := r.spawned
	for _, t := range r.tasks {
		d += time.Duration(len(r.ws)) * max(r.opts.Rewarm, time.Duration(2*r.nsPerOp[t.bench]))
	}
	return d
}
