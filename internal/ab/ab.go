// Package ab is the same-runner A/B comparison: it runs the base and the
// head build of the suite on the same machine at the same time, alternating
// them in short blocks, and compares them pair by pair.
//
// On hosted CI runners which machine a job lands on moves timings by 10-30%,
// while the noise within one run is a few percent, so a stored baseline can
// only gate coarse timing changes. Here both builds run as worker processes
// (see internal/worker) driven by one orchestrator. Every round visits
// every benchmark in a freshly shuffled order; a visit is a block of about
// a millisecond of work in each worker — the base, the head and a second
// worker of the base build — adjacent in time, in an order rotated from
// visit to visit (the base before the head in every other one: ABBA).
// Noise on a shared machine is mostly common-mode (bursts, drift,
// neighbours), and a millisecond apart the workers see nearly the same
// machine, so the ratio of a pair cancels most of it.
//
// What pairing cannot cancel is an offset of a whole worker process: on
// the test machine a process (and the copy of the binary it runs) was a
// few percent faster or slower than another of the same build for its
// whole life. So the measurement is split into generations, each on fresh
// processes of fresh copies of both binaries, and the statistics treat a
// generation as the unit of replication: per benchmark, each generation's
// pseudo-median of the per-pair log ratios head/base (the one-sample
// Hodges–Lehmann estimate), combined over the generations as a
// random-effects model whose between-generation variance is pooled over
// the run; Holm across benchmarks; an effect floor (default 1%). With a
// single generation it is the Wilcoxon signed-rank test on the pairs.
//
// The second base worker is compared with the base exactly like the head,
// on every benchmark: the A/A check. If it flags anything, the machine was
// too noisy and the run does not fail on timings. Changes flagged in the
// main phase are re-measured in fresh generations and judged again on all
// generations; a regression that does not hold is reported, not enforced.
// Exact metrics (encoded size, allocations) come from both builds and are
// compared exactly.
package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
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

// Defaults of Options.
const (
	// DefaultBudget is the main phase of a run, warm-up included. See
	// docs/ab-mode.md for what it buys on the default suite.
	DefaultBudget = 4 * time.Minute
	// DefaultBlock is the work in one block.
	DefaultBlock = time.Millisecond
	// DefaultThreshold is the default effect floor: smaller changes are
	// never regressions however significant.
	DefaultThreshold = 0.01
	// DefaultGCBound is the garbage a worker may accumulate before all
	// workers are collected together. A collection with the default
	// suite's heap takes about 2 ms on the test machine; at 64 MiB it
	// comes every few dozen blocks of the most allocating benchmarks.
	DefaultGCBound = 64 << 20
	// DefaultPre is the untimed part before each block, as a fraction of
	// the block's iterations.
	DefaultPre = 0.25
)

// Options tune a run. The zero value of every field means its default.
type Options struct {
	// Budget is the time of the main phase, warm-up included.
	Budget time.Duration
	// ConfirmBudget bounds the confirmation of changes, which only runs
	// when there are some. Default Budget/2; negative disables the
	// confirmation (changes then stand as measured).
	ConfirmBudget time.Duration
	// Block is the work in one block. Default 1 ms.
	Block time.Duration
	// Pre is the untimed iterations run before every block, as a
	// fraction of the block's (blocks of fewer than 4 iterations have
	// none). Default DefaultPre; negative: none.
	Pre float64
	// Warmup is how long each benchmark runs in each worker before it is
	// measured. Default 30 ms.
	Warmup time.Duration
	// TargetRounds is the number of rounds the plan aims at (it decides
	// how many visits cheap benchmarks get per round). Default 50.
	TargetRounds int
	// MinRounds is the fewest rounds a run makes, budget or not.
	// Default 5.
	MinRounds int
	// MaxShare caps the time a benchmark gets per round. Default 40 ms.
	MaxShare time.Duration
	// MaxPairs ends the run when a benchmark has this many pairs.
	// Default 20000.
	MaxPairs int
	// GCBound is the garbage per worker that makes the orchestrator
	// collect every worker. Default DefaultGCBound.
	GCBound int64
	// Seed fixes the shuffles; 0 picks one.
	Seed uint64
	// Compare holds the floor (Threshold), Alpha, Confidence, Power, the
	// correction and the exact thresholds. Zero means compare.Defaults
	// with Threshold DefaultThreshold.
	Compare compare.Options
	// Why is the result's explanation of the method; "" gives a default.
	Why string
	// Progress receives progress lines; nil is silent.
	Progress io.Writer

	// Generations is the number of generations of workers the main phase
	// is split into, each on fresh processes of fresh copies of the
	// binaries; 0 chooses from the budget (2 to 16, spending at most about
	// 15% of it on starting and re-warming workers). ConfirmGenerations is
	// the same for the confirmation.
	Generations, ConfirmGenerations int
	// Rewarm is how long each benchmark runs in each worker of a later
	// generation before it is measured. Default 5 ms.
	Rewarm time.Duration

	// Rounds and Reps fix the number of rounds per generation and of
	// visits per task and round instead of planning them from the budget
	// (tests, exact reproductions). ConfirmRounds does the same for the
	// confirmation.
	Rounds, Reps, ConfirmRounds int
	// Overhead is the cost of one block beyond its work (round trip,
	// memory statistics), for planning. Default 150 µs.
	Overhead time.Duration
}

func (o *Options) defaults() {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.ConfirmBudget == 0 {
		o.ConfirmBudget = o.Budget / 2
	}
	if o.Block <= 0 {
		o.Block = DefaultBlock
	}
	if o.Pre == 0 {
		o.Pre = DefaultPre
	}
	if o.Warmup <= 0 {
		o.Warmup = 30 * time.Millisecond
	}
	if o.Rewarm <= 0 {
		o.Rewarm = 5 * time.Millisecond
	}
	if o.TargetRounds <= 0 {
		o.TargetRounds = 50
	}
	if o.MinRounds <= 0 {
		o.MinRounds = 5
	}
	if o.MaxShare <= 0 {
		o.MaxShare = 40 * time.Millisecond
	}
	if o.MaxPairs <= 0 {
		o.MaxPairs = 20000
	}
	if o.GCBound <= 0 {
		o.GCBound = DefaultGCBound
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	if o.Compare == (compare.Options{}) {
		o.Compare = compare.Defaults()
		o.Compare.Threshold = DefaultThreshold
	}
	if o.Compare.Correction == "" {
		o.Compare.Correction = compare.Holm
	}
	if o.Compare.Normalize == "" {
		o.Compare.Normalize = compare.NormalizeNever
	}
	if o.Overhead <= 0 {
		o.Overhead = 150 * time.Microsecond
	}
}

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
}

// visit is the blocks of one step, by worker index.
type visit [3]bench.Sample

// run is one generation of workers being measured.
type run struct {
	opts    Options
	ws      []Worker // wBase, wHead and, with the A/A check, wBase2
	names   []string // the benchmarks both builds have
	nsPerOp []float64
	bytesOp []float64
	rng     *rand.Rand
	garbage []int64
	gcs     *int
	start   time.Time
	lastOut *time.Time
}

const (
	wBase = iota
	wHead
	wBase2
)

// Run compares the head build against the base build: it spawns a
// generation of workers, warms every benchmark up in each, measures rounds
// for the budget, judges the timings pair by pair (and the A/A check the
// same way), and re-measures what was flagged in a fresh generation.
func Run(ctx context.Context, spawn Spawner, opts Options) (*Outcome, error) {
	opts.defaults()
	if err := opts.Compare.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	var gcs int
	var lastOut time.Time
	rng := rand.New(rand.NewPCG(opts.Seed, 0x61622d6d6f6465))
	newRun := func(g *Generation) *run {
		r := &run{opts: opts, ws: []Worker{g.Base, g.Head}, rng: rng, gcs: &gcs, start: start, lastOut: &lastOut}
		if g.Base2 != nil {
			r.ws = append(r.ws, g.Base2)
		}
		r.garbage = make([]int64, len(r.ws))
		return r
	}

	gen, err := spawn(ctx, nil, true)
	if err != nil {
		return nil, err
	}
	spawned := time.Since(start)
	defer func() { gen.close() }()
	r := newRun(gen)
	hb, hh := gen.Base.Handshake(), gen.Head.Handshake()
	if hb.Suite != hh.Suite {
		return nil, fmt.Errorf("the base build runs suite %q and the head build suite %q: compare builds of the same suite", hb.Suite, hh.Suite)
	}
	var missing, added []string
	r.names, missing, added = intersect(hb.Benchmarks, hh.Benchmarks)
	if len(r.names) == 0 {
		return nil, fmt.Errorf("the base build (%d benchmarks) and the head build (%d) have no benchmark in common", len(hb.Benchmarks), len(hh.Benchmarks))
	}
	if err := r.checkBase2(); err != nil {
		return nil, err
	}
	r.progressf(true, "%d benchmarks in common (%d only in the base, %d only in the head); budget %s, blocks of %s, floor ±%s; A/A check: %s",
		len(r.names), len(missing), len(added), opts.Budget, opts.Block, pctText(opts.Compare.Threshold), onOff(len(r.ws) > wBase2))
	if err := r.warmup(ctx); err != nil {
		return nil, err
	}
	baseSize, headSize, err := r.sizes(ctx)
	if err != nil {
		return nil, err
	}

	// The main phase, on several generations of workers.
	var tasks []task
	for i := range r.names {
		tasks = append(tasks, r.task(i))
	}
	deadline := start.Add(opts.Budget)
	r.plan(tasks, time.Until(deadline), opts.Reps)
	g := opts.Generations
	if g <= 0 {
		g = generationsFor(time.Until(deadline), r.setupCost(tasks, spawned))
	}
	r.progressf(true, "main phase: %s of workers, each on fresh processes and fresh copies of the binaries", plural(g, "generation", "generations"))
	aa := len(r.ws) > wBase2
	data, gens, rounds, err := r.generations(ctx, spawn, &gen, tasks, deadline, g, opts.Rounds, aa, "main phase", false)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Rounds: rounds, Generations: g}
	heads, aas := r.series(tasks, data, gens, wHead), []series(nil)
	if aa {
		aas = r.series(tasks, data, gens, wBase2)
	}
	inst := instanceVariance(append(slices.Clone(heads), aas...))
	out.InstanceNoise = math.Sqrt(inst.variance)
	if g > 1 {
		r.progressf(true, "offsets between generations of workers: ±%.2f%% (sd, pooled over %d comparisons)", 100*out.InstanceNoise, len(heads)+len(aas))
	}
	timing := paired(heads, opts.Compare, inst)
	if aa {
		out.AA = paired(aas, opts.Compare, inst)
		r.progressf(true, "A/A check: %s", aaSummary(out.AA))
	}
	out.Base = r.results(hb, data, baseSize, wBase)
	out.Head = r.results(hh, data, headSize, wHead)

	// Confirmation in fresh generations.
	var regs, aaFlags []string
	for _, c := range timing {
		if flagged(c) {
			regs = append(regs, c.Name)
		}
	}
	for _, c := range out.AA {
		if flagged(c) {
			aaFlags = append(aaFlags, c.Name)
		}
	}
	if len(regs)+len(aaFlags) > 0 && opts.ConfirmBudget > 0 {
		// More generations of the same design, every benchmark: the
		// conditions of a measurement (what runs between the blocks of a
		// benchmark) change its result, so a re-measurement of just the
		// flagged benchmarks would measure something else.
		r.progressf(true, "confirming %s and %s with more generations of fresh workers (up to %s)",
			plural(len(regs), "timing change", "timing changes"), plural(len(aaFlags), "A/A flag", "A/A flags"), opts.ConfirmBudget)
		cg := opts.ConfirmGenerations
		if cg <= 0 {
			cg = generationsFor(opts.ConfirmBudget, r.setupCost(tasks, spawned))
		}
		cdeadline := time.Now().Add(opts.ConfirmBudget)
		cdata, cgens, crounds, err := r.generations(ctx, spawn, &gen, tasks, cdeadline, cg, opts.ConfirmRounds, aa, "confirmation", true)
		if err != nil {
			return nil, fmt.Errorf("confirmation: %w", err)
		}
		out.ConfirmRounds, out.ConfirmGenerations = crounds, cg
		// Judge again on all the generations: the confirmation's join the
		// main phase's for the benchmarks re-measured.
		all, allGens := slices.Clone(data), slices.Clone(gens)
		for i := range tasks {
			all[i] = append(slices.Clone(all[i]), cdata[i]...)
			ag := slices.Clone(allGens[i])
			for _, x := range cgens[i] {
				ag = append(ag, g+x)
			}
			allGens[i] = ag
		}
		heads, aas = r.series(tasks, all, allGens, wHead), nil
		if aa {
			aas = r.series(tasks, all, allGens, wBase2)
		}
		inst = instanceVariance(append(slices.Clone(heads), aas...))
		final := paired(heads, opts.Compare, inst)
		for _, c := range final {
			if slices.Contains(regs, c.Name) {
				out.Confirmations = append(out.Confirmations, c)
			}
		}
		timing = reconcile(timing, final, cg)
		if aa {
			finalAA := paired(aas, opts.Compare, inst)
			for _, c := range finalAA {
				if slices.Contains(aaFlags, c.Name) {
					out.AAConfirmations = append(out.AAConfirmations, c)
				}
			}
			out.AA = finalAA
			r.progressf(true, "A/A re-measured: %s", aaSummary(out.AAConfirmations))
		}
	} else if len(regs) > 0 {
		for i := range timing {
			if flagged(timing[i]) {
				timing[i].Note = joinNote(timing[i].Note, "not re-measured (confirmation disabled)")
			}
		}
	}
	var aaCheck *compare.AACheck
	if out.AA != nil {
		aaCheck = &compare.AACheck{Benchmarks: len(out.AA)}
		for _, c := range out.AA {
			if flagged(c) && slices.Contains(aaFlags, c.Name) {
				aaCheck.Flagged = append(aaCheck.Flagged, c.Name)
			}
		}
		aaCheck.Noisy = len(aaCheck.Flagged) > 0
	}

	res, err := exactComparison(out.Base, out.Head, opts.Compare)
	if err != nil {
		return nil, err
	}
	res.Comparisons = append(res.Comparisons, timing...)
	res.Missing, res.New = missing, added
	res.Shift = sameRunnerShift(timing, opts.Compare.Confidence)
	res.Method = compare.MethodPaired
	res.Why = opts.Why
	if res.Why == "" {
		res.Why = "same-runner A/B: both builds ran on this machine at the same time, alternating in blocks of about " + opts.Block.String() + " over " + plural(rounds, "round", "rounds")
	}
	res.AA = aaCheck
	out.Result = res
	out.Collections = gcs
	out.Elapsed = time.Since(start)
	r.progressf(true, "done in %s: %s", out.Elapsed.Round(100*time.Millisecond), verdictCounts(timing))
	return out, nil
}

// flagged reports whether an A/A comparison came out as a change.
func flagged(c compare.Comparison) bool {
	return c.Verdict == compare.Regression || c.Verdict == compare.Improvement
}

func onOff(b bool) string {
	if b {
		return "every benchmark, against a second base worker"
	}
	return "off"
}

// adopt makes r measure with generation g's workers.
func (r *run) adopt(g *Generation) {
	r.ws = []Worker{g.Base, g.Head}
	if g.Base2 != nil {
		r.ws = append(r.ws, g.Base2)
	}
	r.garbage = make([]int64, len(r.ws))
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

// task sizes benchmark i's blocks.
func (r *run) task(i int) task {
	n := blockIterations(r.opts.Block, r.nsPerOp[i], r.bytesOp[i], r.opts.GCBound)
	pre := 0
	if n >= 4 && r.opts.Pre > 0 {
		pre = int(math.Round(float64(n) * r.opts.Pre))
	}
	return task{bench: i, n: n, pre: pre}
}

// intersect returns the names in both lists (in head's order), those only
// in base, and those only in head.
func intersect(base, head []string) (common, onlyBase, onlyHead []string) {
	inBase := make(map[string]bool, len(base))
	for _, n := range base {
		inBase[n] = true
	}
	inHead := make(map[string]bool, len(head))
	for _, n := range head {
		inHead[n] = true
		if inBase[n] {
			common = append(common, n)
		} else {
			onlyHead = append(onlyHead, n)
		}
	}
	for _, n := range base {
		if !inHead[n] {
			onlyBase = append(onlyBase, n)
		}
	}
	return common, onlyBase, onlyHead
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
		r.progressf(false, "warming up: %d/%d benchmarks", i+1, len(r.names))
	}
	if err := r.collectAll(ctx); err != nil {
		return err
	}
	r.progressf(true, "warmed up %d benchmarks in %d workers (%s elapsed)", len(r.names), len(r.ws), time.Since(r.start).Round(100*time.Millisecond))
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

// plan sets every task's pairs per round for the time available.
func (r *run) plan(tasks []task, available time.Duration, fixed int) {
	if fixed > 0 {
		for i := range tasks {
			tasks[i].reps = fixed
		}
		return
	}
	k := time.Duration(len(r.ws))
	cost := make([]time.Duration, len(tasks))
	for i, t := range tasks {
		cost[i] = k * (time.Duration(float64(t.n+t.pre)*r.nsPerOp[t.bench]) + r.opts.Overhead)
	}
	reps := planReps(cost, available, r.opts.TargetRounds, k*(r.opts.Block+r.opts.Overhead), r.opts.MaxShare)
	var round time.Duration
	lo, hi := math.MaxInt, 0
	for i := range tasks {
		tasks[i].reps = reps[i]
		round += time.Duration(reps[i]) * cost[i]
		lo, hi = min(lo, reps[i]), max(hi, reps[i])
	}
	rounds := int(available / max(round, 1))
	r.progressf(true, "plan: rounds of about %s (%d to %d visits a benchmark), about %d rounds in %s",
		round.Round(time.Millisecond), lo, hi, rounds, available.Round(time.Second))
	if rounds < r.opts.MinRounds && r.opts.Rounds == 0 {
		r.progressf(true, "the budget fits fewer than %d rounds: the run will take longer (about %s)", r.opts.MinRounds, (time.Duration(r.opts.MinRounds) * round).Round(time.Second))
	}
}

// roundsUntil runs rounds of tasks until the deadline (never fewer than
// MinRounds), until fixed rounds when fixed > 0, or until some task would
// pass MaxPairs, appending the visits to data.
func (r *run) roundsUntil(ctx context.Context, tasks []task, deadline time.Time, fixed int, data [][]visit, phase string) ([][]visit, int, error) {
	var last time.Duration
	k := 0
	for ; ; k++ {
		if fixed > 0 {
			if k == fixed {
				break
			}
		} else if k >= r.opts.MinRounds {
			if time.Now().Add(last).After(deadline) || r.full(tasks, data) {
				break
			}
		}
		t0 := time.Now()
		for _, st := range schedule(tasks, k, len(r.ws), r.rng) {
			if err := ctx.Err(); err != nil {
				return nil, k, err
			}
			v, err := r.visit(ctx, tasks[st.task], st.order)
			if err != nil {
				return nil, k, err
			}
			data[st.task] = append(data[st.task], v)
		}
		last = time.Since(t0)
		r.progressf(false, "%s: round %d, %s elapsed", phase, k+1, time.Since(r.start).Round(time.Second))
	}
	r.progressf(true, "%s: %s (%s elapsed)", phase, plural(k, "round", "rounds"), time.Since(r.start).Round(100*time.Millisecond))
	return data, k, nil
}

// full reports whether another round would give some task more than
// MaxPairs visits.
func (r *run) full(tasks []task, data [][]visit) bool {
	for i, t := range tasks {
		if len(data[i])+t.reps > r.opts.MaxPairs {
			return true
		}
	}
	return false
}

// visit measures one block of a task in every worker, in order,
// collecting every worker first if one's garbage would pass the bound.
func (r *run) visit(ctx context.Context, t task, order []int) (visit, error) {
	predicted := int64(r.bytesOp[t.bench] * float64(t.n+t.pre))
	for _, w := range order {
		if r.garbage[w]+predicted > r.opts.GCBound {
			if err := r.collectAll(ctx); err != nil {
				return visit{}, err
			}
			break
		}
	}
	name := r.names[t.bench]
	var v visit
	for _, w := range order {
		s, err := r.ws[w].Run(ctx, name, t.n, t.pre)
		if err != nil {
			return visit{}, err
		}
		if s.Collected {
			r.garbage[w] = 0
		}
		r.garbage[w] += int64(float64(s.Bytes) * float64(t.n+t.pre) / float64(t.n))
		v[w] = s
	}
	return v, nil
}

// collectAll collects every worker at the same point of the interleaving,
// so the builds' heaps are treated alike.
func (r *run) collectAll(ctx context.Context) error {
	for i, w := range r.ws {
		if err := w.GC(ctx); err != nil {
			return err
		}
		r.garbage[i] = 0
	}
	*r.gcs++
	return nil
}

// series is the paired timings of tasks: worker other against the base,
// visit by visit, with the generation of each visit.
func (r *run) series(tasks []task, data [][]visit, gens [][]int, other int) []series {
	ss := make([]series, len(tasks))
	for i, t := range tasks {
		s := series{name: r.names[t.bench], base: make([]float64, len(data[i])), other: make([]float64, len(data[i])), gen: gens[i]}
		s.base, s.other, s.gen = s.base[:0], s.other[:0], nil
		for j, v := range data[i] {
			if v[other].Iterations == 0 {
				continue // a visit of a generation without that worker
			}
			s.base, s.other = append(s.base, v[wBase].NsPerOp()), append(s.other, v[other].NsPerOp())
			if gens != nil {
				s.gen = append(s.gen, gens[i][j])
			}
		}
		ss[i] = s
	}
	return ss
}

// results turns one worker's blocks of the main phase into results: per
// benchmark one sample of each metric per visit, the encoded size for
// serialize benchmarks. Task i measured benchmark i.
func (r *run) results(h worker.Hello, data [][]visit, sizes []int, w int) *results.Results {
	res := results.New(h.Suite, h.Env)
	res.Settings = results.Settings{Budget: r.opts.Budget, Seed: r.opts.Seed, Source: "wirebench ab", Elapsed: time.Since(r.start)}
	for i, name := range r.names {
		codec, dataset, op := results.NameParts(name)
		b := results.Benchmark{Name: name, Codec: codec, Dataset: dataset, Op: op}
		for _, v := range data[i] {
			b.Iterations = append(b.Iterations, int64(v[w].Iterations))
			b.Add(results.UnitNsPerOp, v[w].NsPerOp())
		}
		for _, v := range data[i] {
			b.Add(results.UnitBytesPerOp, v[w].BytesPerOp())
		}
		for _, v := range data[i] {
			b.Add(results.UnitAllocsPerOp, v[w].AllocsPerOp())
		}
		if op == "serialize" {
			b.Add(results.UnitBytesPerMsg, float64(sizes[i]))
		}
		res.Settings.Rounds = max(res.Settings.Rounds, len(data[i]))
		if len(b.Iterations) > 0 {
			res.Benchmarks = append(res.Benchmarks, b)
		}
	}
	return res
}

// dominantShare is the share of blocks that must agree for an allocation
// metric to count as deterministic. A block right after a collection can
// allocate a few objects more (pools refill), so not every block agrees.
const dominantShare = 0.9

// maxNoisyAllocSamples bounds the samples of an allocation metric that
// varies, compared by compare's unpaired test.
const maxNoisyAllocSamples = 500

// exactComparison compares the metrics that need no test: the encoded
// size, and the allocations per operation of every benchmark, each side's
// value being the one (nearly) every block agreed on. Allocation metrics
// that really vary are left to compare's unpaired test, on a thinned
// sample.
func exactComparison(base, head *results.Results, opts compare.Options) (*compare.Result, error) {
	bv, hv := results.New(base.Suite, base.Env), results.New(head.Suite, head.Env)
	for _, hb := range head.Benchmarks {
		bb := base.Lookup(hb.Name)
		if bb == nil {
			continue
		}
		x := results.Benchmark{Name: hb.Name, Codec: hb.Codec, Dataset: hb.Dataset, Op: hb.Op}
		y := x
		for _, unit := range []string{results.UnitBytesPerOp, results.UnitAllocsPerOp} {
			b, h := bb.Metric(unit), hb.Metric(unit)
			if len(b) == 0 || len(h) == 0 {
				continue
			}
			db, okb := dominant(b)
			dh, okh := dominant(h)
			if okb && okh {
				x.Metrics = append(x.Metrics, results.Metric{Unit: unit, Values: []float64{db}})
				y.Metrics = append(y.Metrics, results.Metric{Unit: unit, Values: []float64{dh}})
				continue
			}
			x.Metrics = append(x.Metrics, results.Metric{Unit: unit, Values: thin(b, maxNoisyAllocSamples)})
			y.Metrics = append(y.Metrics, results.Metric{Unit: unit, Values: thin(h, maxNoisyAllocSamples)})
		}
		if v := bb.Metric(results.UnitBytesPerMsg); len(v) > 0 {
			x.Metrics = append(x.Metrics, results.Metric{Unit: results.UnitBytesPerMsg, Values: v[:1]})
		}
		if v := hb.Metric(results.UnitBytesPerMsg); len(v) > 0 {
			y.Metrics = append(y.Metrics, results.Metric{Unit: results.UnitBytesPerMsg, Values: v[:1]})
		}
		bv.Benchmarks = append(bv.Benchmarks, x)
		hv.Benchmarks = append(hv.Benchmarks, y)
	}
	o := opts
	o.Normalize = compare.NormalizeNever
	res, err := compare.Compare(bv, hv, o)
	if err != nil {
		return nil, fmt.Errorf("compare the exact metrics: %w", err)
	}
	res.Options = opts
	return res, nil
}

// dominant returns the most frequent value of v and whether at least
// dominantShare of the values are that one.
func dominant(v []float64) (float64, bool) {
	count := map[float64]int{}
	best, bestN := 0.0, 0
	for _, x := range v {
		count[x]++
		if c := count[x]; c > bestN || (c == bestN && x < best) {
			best, bestN = x, c
		}
	}
	return best, float64(bestN) >= dominantShare*float64(len(v))
}

// thin returns at most k values of v, evenly spaced.
func thin(v []float64, k int) []float64 {
	if len(v) <= k {
		return slices.Clone(v)
	}
	out := make([]float64, k)
	for i := range out {
		out[i] = v[i*len(v)/k]
	}
	return out
}

// sameRunnerShift is the geometric mean of the timing ratios, for
// reference only: both builds ran on one machine, so there is no machine
// difference to separate from the change.
func sameRunnerShift(cs []compare.Comparison, confidence float64) *compare.Shift {
	var ratios []float64
	for _, c := range cs {
		if c.Ratio > 0 && !math.IsInf(c.Ratio, 0) {
			ratios = append(ratios, c.Ratio)
		}
	}
	if len(ratios) == 0 {
		return nil
	}
	s := &compare.Shift{N: len(ratios), Estimate: ratios[0], Lo: math.NaN(), Hi: math.NaN(),
		Reason: "same-runner A/B: both builds ran on this machine at the same time, so there is no machine difference to separate"}
	if len(ratios) >= 2 {
		if g, err := stats.GeoMean(ratios, confidence); err == nil {
			s.Estimate, s.Lo, s.Hi = g.Estimate, g.Lo, g.Hi
		}
	}
	return s
}

func (r *run) progressf(always bool, format string, args ...any) {
	if r.opts.Progress == nil {
		return
	}
	if !always && time.Since(*r.lastOut) < 2*time.Second {
		return
	}
	*r.lastOut = time.Now()
	fmt.Fprintf(r.opts.Progress, "wirebench: ab: "+format+"\n", args...)
}

// aaSummary describes the A/A check's outcome in one line: what was
// flagged, and the largest change.
func aaSummary(cs []compare.Comparison) string {
	var names []string
	var top *compare.Comparison
	for i, c := range cs {
		if flagged(c) {
			names = append(names, fmt.Sprintf("%s %+.2f%%", strings.TrimPrefix(c.Name, "Benchmark"), 100*(c.Ratio-1)))
		}
		if !math.IsNaN(c.Ratio) && (top == nil || math.Abs(math.Log(c.Ratio)) > math.Abs(math.Log(top.Ratio))) {
			top = &cs[i]
		}
	}
	s := fmt.Sprintf("%d benchmarks, nothing flagged", len(cs))
	if len(names) > 0 {
		s = fmt.Sprintf("%d benchmarks, FLAGGED %s", len(cs), strings.Join(names, ", "))
	}
	if top != nil {
		s += fmt.Sprintf(" (largest change %+.2f%%, %s)", 100*(top.Ratio-1), strings.TrimPrefix(top.Name, "Benchmark"))
	}
	return s
}

func verdictCounts(cs []compare.Comparison) string {
	n := map[compare.Verdict]int{}
	unconfirmed := 0
	for _, c := range cs {
		n[c.Verdict]++
		if c.Unconfirmed {
			unconfirmed++
		}
	}
	s := fmt.Sprintf("%d timing regressions (%d unconfirmed), %d improvements, %d unchanged, %d inconclusive",
		n[compare.Regression], unconfirmed, n[compare.Improvement], n[compare.Unchanged], n[compare.Inconclusive])
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ErrSetup marks a failure to set the comparison up (no Go toolchain, a
// tree that is not a wirebench module, a build that fails): the caller can
// fall back to the stored baseline.
var ErrSetup = errors.New("cannot set up the same-runner A/B comparison")
