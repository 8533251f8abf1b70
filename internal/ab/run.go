package ab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
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
}

// ErrSetup marks a failure to set the comparison up (no Go toolchain, a
// tree that is not a wirebench module, a build that fails): the caller can
// fall back to the stored baseline.
var ErrSetup = errors.New("cannot set up the same-runner A/B comparison")

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
