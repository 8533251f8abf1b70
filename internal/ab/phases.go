package ab

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
)

// verdicts is where a run's judgement of the timings stands: the
// comparisons of the head with the base, and the benchmarks the main
// phase flagged, as timing changes and in the A/A check. The confirmation
// re-measures those and the A/A check counts only flags of the main phase
// that held.
type verdicts struct {
	timing             []compare.Comparison
	changed, aaFlagged []string
}

// judgement is the verdicts on one measurement: the head against the
// base, the A/A check (nil without it), and the variance of the offsets
// between generations the head's comparisons were judged with, pooled
// over pooled comparisons.
type judgement struct {
	timing, aa []compare.Comparison
	inst       noise
	pooled     int
}

// judge compares the head (with both base workers, see series) and the
// second base worker (with the first) with the base on every generation
// of m. The offsets between generations are pooled over each kind of
// comparison apart: the head's reference is two processes of the base and
// the A/A check's one, so their offsets differ in size.
func (r *run) judge(m *measurement) judgement {
	heads := r.series(m, wHead)
	inst := instanceVariance(heads)
	j := judgement{timing: paired(heads, r.opts.Compare, inst), inst: inst, pooled: len(heads)}
	if r.aa {
		aas := r.series(m, wBase2)
		j.aa = paired(aas, r.opts.Compare, instanceVariance(aas))
	}
	return j
}

// measure is the main phase: it measures every benchmark for the budget
// on several generations of workers (the first the one warmed up), judges
// the timings and the A/A check, and records what each build measured. It
// fills in the main phase's part of out and returns the measurement, for
// the confirmation to add to, and the verdicts.
func (r *run) measure(ctx context.Context, out *Outcome) (*measurement, verdicts, error) {
	p := r.mainPhase()
	r.progressf(true, "main phase: %s of workers, each on fresh processes and fresh copies of the binaries", human.Plural(p.generations, "generation", "generations"))
	m, err := r.generations(ctx, p)
	if err != nil {
		return nil, verdicts{}, err
	}
	out.Rounds, out.Generations = m.rounds, p.generations
	j := r.judge(m)
	out.InstanceNoise = math.Sqrt(j.inst.variance)
	if p.generations > 1 {
		r.progressf(true, "offsets between generations of workers: ±%.2f%% (sd, pooled over %d comparisons)", 100*out.InstanceNoise, j.pooled)
	}
	out.AA = j.aa
	if r.aa {
		r.progressf(true, "A/A check: %s", aaSummary(out.AA))
	}
	out.Base = r.results(r.base, m, r.baseSize, wBase)
	out.Head = r.results(r.head, m, r.headSize, wHead)
	return m, verdicts{timing: j.timing, changed: flaggedNames(j.timing), aaFlagged: flaggedNames(j.aa)}, nil
}

// mainPhase sizes every benchmark's blocks and plans its visits per round
// for the budget, and describes the main phase: until the end of the
// budget, on Options.Generations generations (or as many as the budget
// affords), the first of them the current one.
func (r *run) mainPhase() phase {
	var parallel []string
	for i, name := range r.names {
		r.tasks = append(r.tasks, r.task(i))
		if r.parallel(name) {
			parallel = append(parallel, name)
		}
	}
	if len(parallel) > 0 {
		r.progressf(true, "%s RunParallel: blocks of %s, so that their goroutines meet as they do in a longer run", human.Plural(len(parallel), "benchmark calls", "benchmarks call"), r.opts.ParallelBlock)
	}
	deadline := r.start.Add(r.opts.Budget)
	r.plan(time.Until(deadline), r.opts.Reps)
	if r.opts.Reps == 0 && r.opts.Rounds == 0 {
		r.replanUntil = deadline
		r.spent, r.visited = make([]time.Duration, len(r.tasks)), make([]int, len(r.tasks))
	}
	g := r.opts.Generations
	if g <= 0 {
		g = generationsFor(time.Until(deadline), r.setupCost())
	}
	return phase{name: "main phase", deadline: deadline, generations: g, rounds: r.opts.Rounds, aa: r.aa}
}

// confirm re-measures what the main phase flagged, timing changes and A/A
// flags, in fresh generations of workers, then judges every benchmark
// again on all the generations and reconciles the verdicts in v; it fills
// in the confirmation's part of out. The design stays that of the main
// phase, every benchmark: the conditions of a measurement (what runs
// between the blocks of a benchmark) change its result, so a
// re-measurement of just the flagged benchmarks would measure something
// else. With the confirmation disabled, flagged timings get a note.
func (r *run) confirm(ctx context.Context, main *measurement, v *verdicts, out *Outcome) error {
	if r.opts.ConfirmBudget <= 0 {
		noteNotRemeasured(v.timing)
		return nil
	}
	if len(v.changed)+len(v.aaFlagged) == 0 {
		return nil
	}
	r.progressf(true, "confirming %s and %s with more generations of fresh workers (up to %s)",
		human.Plural(len(v.changed), "timing change", "timing changes"), human.Plural(len(v.aaFlagged), "A/A flag", "A/A flags"), r.opts.ConfirmBudget)
	p := r.confirmPhase()
	c, err := r.generations(ctx, p)
	if err != nil {
		return fmt.Errorf("confirmation: %w", err)
	}
	out.ConfirmRounds, out.ConfirmGenerations = c.rounds, p.generations
	j := r.judge(main.join(c))
	out.Confirmations = only(j.timing, v.changed)
	v.timing = reconcile(v.timing, j.timing, p.generations)
	if r.aa {
		out.AAConfirmations = only(j.aa, v.aaFlagged)
		out.AA = j.aa
		r.progressf(true, "A/A re-measured: %s", aaSummary(out.AAConfirmations))
	}
	return nil
}

// confirmPhase describes the confirmation: for ConfirmBudget from now, on
// ConfirmGenerations fresh generations (or as many as that affords), with
// the main phase's tasks.
func (r *run) confirmPhase() phase {
	g := r.opts.ConfirmGenerations
	if g <= 0 {
		g = generationsFor(r.opts.ConfirmBudget, r.setupCost())
	}
	return phase{name: "confirmation", deadline: time.Now().Add(r.opts.ConfirmBudget), generations: g,
		rounds: r.opts.ConfirmRounds, freshFirst: true, aa: r.aa}
}

// noteNotRemeasured notes on every flagged timing that the confirmation,
// being disabled, did not re-measure it.
func noteNotRemeasured(cs []compare.Comparison) {
	for i := range cs {
		if flagged(cs[i]) {
			cs[i].Note = compare.JoinNote(cs[i].Note, "not re-measured (confirmation disabled)")
		}
	}
}

// assemble completes out: the exact comparison of sizes and allocations
// with the timing verdicts appended, the A/A check's outcome, the method
// and its explanation.
func (r *run) assemble(v verdicts, out *Outcome) error {
	res, err := exactComparison(out.Base, out.Head, r.opts.Compare)
	if err != nil {
		return err
	}
	res.Comparisons = append(res.Comparisons, v.timing...)
	res.Missing, res.New = r.missing, r.added
	res.Shift = sameRunnerShift(v.timing, r.opts.Compare.Confidence)
	res.Method = compare.MethodPaired
	res.Why = r.opts.Why
	if res.Why == "" {
		res.Why = "same-runner A/B: both builds ran on this machine at the same time, alternating in blocks of about " + r.opts.Block.String() + " over " + human.Plural(out.Rounds, "round", "rounds")
	}
	res.AA = aaCheck(out.AA, v.aaFlagged)
	out.Result = res
	out.Collections = r.gcs
	out.Elapsed = time.Since(r.start)
	r.progressf(true, "done in %s: %s", out.Elapsed.Round(100*time.Millisecond), verdictCounts(v.timing))
	return nil
}

// aaCheck is the A/A check's outcome from its final comparisons aa (nil:
// no check): noisy when a benchmark flagged in the main phase (first) is
// still flagged.
func aaCheck(aa []compare.Comparison, first []string) *compare.AACheck {
	if aa == nil {
		return nil
	}
	c := &compare.AACheck{Benchmarks: len(aa)}
	for _, x := range aa {
		if flagged(x) && slices.Contains(first, x.Name) {
			c.Flagged = append(c.Flagged, x.Name)
		}
	}
	c.Noisy = len(c.Flagged) > 0
	return c
}

// flagged reports whether a comparison came out as a change.
func flagged(c compare.Comparison) bool {
	return c.Verdict == compare.Regression || c.Verdict == compare.Improvement
}

// flaggedNames returns the names of the comparisons that came out as a
// change.
func flaggedNames(cs []compare.Comparison) []string {
	var names []string
	for _, c := range cs {
		if flagged(c) {
			names = append(names, c.Name)
		}
	}
	return names
}

// only returns the comparisons of the named benchmarks, in cs's order.
func only(cs []compare.Comparison, names []string) []compare.Comparison {
	var out []compare.Comparison
	for _, c := range cs {
		if slices.Contains(names, c.Name) {
			out = append(out, c)
		}
	}
	return out
}
