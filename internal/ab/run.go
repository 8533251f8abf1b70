package ab

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// Outcome is what a run produced.
type Outcome struct {
	// Result is the comparison, Method compare.MethodPaired.
	Result *compare.Result
	// Head and Base are what each build measured in the main phase, as
	// results: one ns/op, B/op and allocs/op sample per visit.
	Head, Base *results.Results
	// AA are the A/A comparisons (the second base worker against the
	// base, every benchmark; after a confirmation, on all generations);
	// AAConfirmations and Confirmations are the comparisons re-measured
	// in fresh workers, judged on all their generations.
	AA, AAConfirmations, Confirmations []compare.Comparison
	// Rounds and ConfirmRounds are the rounds made (over all
	// generations), Generations and ConfirmGenerations the generations of
	// workers; Collections the times the workers were collected together.
	Rounds, ConfirmRounds, Generations, ConfirmGenerations, Collections int
	// InstanceNoise is the standard deviation of the offsets between
	// generations of workers (log scale, pooled over the run).
	InstanceNoise float64
	// Elapsed is the time of the whole run, workers' start-up included.
	Elapsed time.Duration
	// JudgedBase and JudgedHead are, on a counted comparison that
	// counted flagged benchmarks again, what its verdict before that
	// confirmation was judged on (Base and Head hold the confirmation's
	// processes too), and AgainBase and AgainHead the confirmation's
	// processes; nil without a confirmation. A shard of a job matrix
	// keeps them apart so the merge can judge the union as one run would
	// have (check.MergeAB).
	JudgedBase, JudgedHead, AgainBase, AgainHead *results.Results
	// ListedBase and ListedHead are, on a shard's counted comparison,
	// every benchmark each build listed (by key), the input of the
	// partition every shard computes alike.
	ListedBase, ListedHead []string
}

// run is one comparison under way: its options, the benchmarks both
// builds have and what they cost, the tasks that measure them, and the
// current generation of workers, which the phases replace as they go.
type run struct {
	opts  Options
	spawn Spawner
	rng   *rand.Rand
	start time.Time
	// spawned is how long the first generation took to start, the basis
	// of what the later ones are expected to cost.
	spawned time.Duration

	// gen is the current generation (nil while a new one starts) and ws
	// its workers: wBase, wHead and, with the A/A check, wBase2. aa is
	// set when the first generation had the A/A check's worker; garbage
	// is each worker's garbage since its last collection.
	gen     *Generation
	ws      []Worker
	aa      bool
	garbage []int64

	// base and head are the builds' handshakes, names the benchmarks both
	// have (missing and added: those only in the base, only in the head),
	// nsPerOp and bytesOp their estimated cost per operation, baseSize and
	// headSize their encoded sizes, and tasks what measures them, one per
	// name in the same order.
	base, head         worker.Hello
	names              []string
	missing, added     []string
	nsPerOp, bytesOp   []float64
	baseSize, headSize []int
	tasks              []task

	// spent and visited are, per task, the wall time its visits of the
	// first round took (blocks, round trips, the collections they set
	// off) and how many there were: the measured cost of a visit, which
	// the plan is redone from after that round (replanUntil, when not
	// zero, is the end of the time that plan is for; visits are timed
	// only while it is set).
	spent       []time.Duration
	visited     []int
	replanUntil time.Time
	planned     time.Duration // the plan's round

	gcs int // times every worker was collected
	// lastOut is when the last progress line was written, doing what
	// the last line of chatter said (written or not); outMu guards both
	// and the writing, since the heartbeat writes too.
	outMu   sync.Mutex
	lastOut time.Time
	doing   string
}

// Run compares the head build against the base build: it spawns a
// generation of workers and warms every benchmark up in each (set-up),
// measures rounds for the budget on several generations and judges the
// timings pair by pair, the A/A check the same way (measure), re-measures
// what was flagged in fresh generations (confirm), and compares the exact
// metrics and puts the result together (assemble).
func Run(ctx context.Context, spawn Spawner, opts Options) (*Outcome, error) {
	opts.defaults()
	if err := opts.Compare.Validate(); err != nil {
		return nil, err
	}
	r := newRun(spawn, opts)
	defer r.closeGeneration()
	defer r.heartbeat()()
	if err := r.setUp(ctx); err != nil {
		return nil, err
	}
	out := &Outcome{}
	main, v, err := r.measure(ctx, out)
	if err != nil {
		return nil, err
	}
	if err := r.confirm(ctx, main, &v, out); err != nil {
		return nil, err
	}
	if err := r.assemble(v, out); err != nil {
		return nil, err
	}
	return out, nil
}

// newRun returns a run that starts now, its shuffles seeded from
// opts.Seed.
func newRun(spawn Spawner, opts Options) *run {
	return &run{opts: opts, spawn: spawn, start: time.Now(), rng: rand.New(rand.NewPCG(opts.Seed, 0x61622d6d6f6465))}
}

// closeGeneration ends the current generation's workers, if any.
func (r *run) closeGeneration() { r.gen.close() }

// setUp starts the first generation of workers (with the A/A check's
// worker if the spawner gives one), finds the benchmarks both builds
// have, warms them up in every worker, estimating their cost, and asks
// both builds for the encoded sizes.
func (r *run) setUp(ctx context.Context) error {
	gen, err := r.spawn(ctx, nil, true)
	if err != nil {
		return err
	}
	r.spawned = time.Since(r.start)
	r.adopt(gen)
	r.base, r.head = gen.Base.Handshake(), gen.Head.Handshake()
	if r.base.Suite != r.head.Suite {
		return fmt.Errorf("the base build runs suite %q and the head build suite %q: compare builds of the same suite", r.base.Suite, r.head.Suite)
	}
	r.names, r.missing, r.added = program.Intersect(r.base.Benchmarks, r.head.Benchmarks)
	if len(r.names) == 0 {
		return fmt.Errorf("the base build (%s) and the head build (%d) have no benchmark in common", human.Plural(len(r.base.Benchmarks), "benchmark", "benchmarks"), len(r.head.Benchmarks))
	}
	if err := r.checkBase2(); err != nil {
		return err
	}
	r.aa = len(r.ws) > wBase2
	r.opts.warmups(len(r.names), len(r.ws))
	r.progressf(true, "%s in common (%d only in the base, %d only in the head); budget %s, blocks of %s, floor ±%s; A/A check: %s",
		human.Plural(len(r.names), "benchmark", "benchmarks"), len(r.missing), len(r.added), r.opts.Budget, r.opts.Block, human.Percent(r.opts.Compare.Threshold), onOff(r.aa))
	if err := r.warmup(ctx); err != nil {
		return err
	}
	r.baseSize, r.headSize, err = r.sizes(ctx)
	return err
}

// warmup runs every benchmark in every worker (rotating which goes
// first) and, unless they are known already, estimates its time and
// garbage per operation from the base and the head.
func (r *run) warmup(ctx context.Context) error {
	estimate := r.nsPerOp == nil
	if estimate {
		r.nsPerOp = make([]float64, len(r.names))
		r.bytesOp = make([]float64, len(r.names))
	}
	for i, name := range r.names {
		got := make([]bench.Sample, len(r.ws))
		for j := range r.ws {
			w := (i + j) % len(r.ws)
			s, err := r.ws[w].Warmup(ctx, name, r.opts.Warmup)
			if err != nil {
				return err
			}
			got[w] = s
		}
		if estimate {
			b, h := got[wBase].NsPerOp(), got[wHead].NsPerOp()
			r.nsPerOp[i] = math.Sqrt(max(b, 1) * max(h, 1))
			r.bytesOp[i] = max(float64(got[wBase].Bytes)/float64(max(got[wBase].Iterations, 1)), float64(got[wHead].Bytes)/float64(max(got[wHead].Iterations, 1)))
		}
		r.chatterf(false, "warming up: %d/%d benchmarks", i+1, len(r.names))
	}
	if err := r.collectAll(ctx); err != nil {
		return err
	}
	r.chatterf(true, "warmed up %d benchmarks in %d workers (%s elapsed)", len(r.names), len(r.ws), time.Since(r.start).Round(100*time.Millisecond))
	return nil
}

// sizes asks both builds for every benchmark's encoded size.
func (r *run) sizes(ctx context.Context) (base, head []int, err error) {
	base, head = make([]int, len(r.names)), make([]int, len(r.names))
	for i, name := range r.names {
		if base[i], err = r.ws[wBase].Size(ctx, name); err != nil {
			return nil, nil, err
		}
		if head[i], err = r.ws[wHead].Size(ctx, name); err != nil {
			return nil, nil, err
		}
	}
	return base, head, nil
}
