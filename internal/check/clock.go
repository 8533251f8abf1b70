package check

import (
	"context"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// The wall-time check: a counted run under metric auto is also timed
// natively, what a count cannot see (caches, the kernel, waiting). In the
// same-runner A/B mode both builds are timed against each other after
// their count (clockAB); against a stored baseline the candidate is
// timed after its count (TimeBeside), stored with the baseline by
// update and judged by check against the history of the baseline's wall
// times (baseline.Clocked) with the clock's wide floor, a regression
// confirmed in a new process as a timed check's is (clockCheck).

// The wall-time check's budget beside a count, by what it is judged
// against: the same-runner A/B mode gives it a share of the count's time
// (pairedClockBudget), a stored-baseline check a time per benchmark
// (storedClockBudget), which, unlike a share of the count's time, is the
// same in every run, as the history's timings must be to be comparable.
// Both lie within MinClockBudget and ab.DefaultBudget.
const (
	// ClockShare is the share of the count's time the A/B mode's
	// wall-time check is given: the job is meant to cost at most about a
	// quarter more than counting alone (the timed phase's start-up and,
	// when it flags something, its confirmation come on top).
	ClockShare = 0.2
	// ClockPerBenchmark is the stored-baseline check's budget per
	// benchmark: a count takes seconds per benchmark, so about the
	// fifth of a count that the A/B mode gives its clock.
	ClockPerBenchmark = time.Second
	// MinClockBudget is the least either is given: below it a module's
	// warm-up in three workers and two generations leaves few rounds.
	// At 20 s the check cost msgpack's 12 benchmarks +46% over their
	// 43 s count (docs/lab/counted-clock.md, "Cost").
	MinClockBudget = 10 * time.Second
)

// pairedClockBudget is the budget of the A/B mode's wall-time check
// beside a count that took counting.
func pairedClockBudget(counting time.Duration) time.Duration {
	return min(max(time.Duration(ClockShare*float64(counting)).Round(100*time.Millisecond), MinClockBudget), ab.DefaultBudget)
}

// storedClockBudget is the stored-baseline wall-time check's budget for
// n benchmarks.
func storedClockBudget(n int) time.Duration {
	return min(max(time.Duration(n)*ClockPerBenchmark, MinClockBudget), ab.DefaultBudget)
}

// clockPlan is how the wall-time check beside a count made as p measures:
// natively, with the budget given, else the stored reference's wall-time
// check's (ref.Clock) and its samples, so that its timings are comparable
// with the history's, else storedClockBudget of the candidate's n
// benchmarks.
func clockPlan(c *config.Config, p source.Plan, ref *results.Results, n int) source.Plan {
	p.Count = nil
	var like *results.Results
	if ref != nil {
		like = ref.Clock
	}
	if p.Known != nil {
		// The native build is not the counted one: its hashes are the
		// stored wall times'.
		p.Known = knownHashes(c, like)
	}
	// Only what was given: update's default budget is a timed run's.
	var given Harness
	if c.Given("budget") {
		given.Budget = c.Budget
	}
	if c.Given("samples") {
		given.Samples = c.Samples
	}
	m, _ := MeasureLike(like, given, Harness{Budget: storedClockBudget(n), Samples: c.MeasureSamples()})
	p.Budget, p.Samples = m.Budget, m.Samples
	return p
}

// TimeBeside measures the wall-time check of cand, counted as p said,
// and records it as cand.Clock, when c's metric is auto and the run was
// counted; ref is the stored reference (nil: none, or update), judged
// says cand is to be judged against it (a check, not an update). It
// returns the plan it timed with (for a confirmation), or a note when
// the check would have nothing to be judged against, and the code's
// failure to run natively.
func TimeBeside(ctx context.Context, h Host, c *config.Config, src source.Source, p source.Plan, ref, cand *results.Results, judged bool) (source.Plan, string, error) {
	if !clocked(c, p.Count) {
		return source.Plan{}, "", nil
	}
	if judged && (ref == nil || ref.Clock == nil) {
		if ref == nil {
			return source.Plan{}, "", nil
		}
		return source.Plan{}, "Wall time was not checked: the baseline holds no wall times (it was stored before wirebench timed beside its counts, or with an explicit counted metric); the next `update` with metric auto stores them.", nil
	}
	if len(cand.Benchmarks) == 0 && len(cand.Unmeasured) > 0 {
		return source.Plan{}, "", nil // every package the baseline's: nothing to time
	}
	pt := clockPlan(c, p, ref, len(cand.Benchmarks))
	floor := ", stored with the count"
	if judged {
		floor = fmt.Sprintf(" (floor ±%s)", human.Percent(c.TimeThreshold))
	}
	fmt.Fprintf(h.Progress(), "wirebench: counted; now timing the benchmarks natively for %s, the wall-time check%s: what a count cannot see\n", pt.Budget, floor)
	timed, _, err := Measure(ctx, src, pt)
	if err != nil {
		return source.Plan{}, "", fmt.Errorf("the wall-time check beside the count: %w", err)
	}
	timed.Env = cand.Env // one run: its history entry is the count's
	cand.Clock = timed
	return pt, "", nil
}

// clockCheck joins the wall-time check of o's candidate to o, the
// counted comparison with base: the candidate's wall times compared with
// the baseline's (baseline.Clocked) against the time-threshold floor,
// their regressions confirmed in a new process (confirm, timed as pt
// says), in one verdict (joinClock). o is returned as it is when either
// has no wall times, or when they cannot be compared (with a note saying
// why).
func clockCheck(ctx context.Context, h Host, c *config.Config, o *outcome.Outcome, base *baseline.Baseline, src source.Source, pt source.Plan) *outcome.Outcome {
	cb, cand := base.Clocked(), o.Report.Candidate
	if cb == nil || cand == nil || cand.Clock == nil || o.Report.Result == nil {
		return o
	}
	opts := c.CompareOptions(false)
	opts.Threshold = c.TimeThreshold
	opts.ShiftFrom = countUnchanged(o.Report.Result)
	in := outcome.Report{BaselineSource: o.Report.BaselineSource, FailOn: o.Report.FailOn}
	if n := len(opts.ShiftFrom); n >= 3 {
		in.Notes = append(in.Notes, fmt.Sprintf("The machine's speed shift against the baseline's wall times was estimated from the %d benchmarks whose counted work did not change, so that a change that slows most benchmarks is not taken for a slower machine.", n))
	} else {
		in.Notes = append(in.Notes, fmt.Sprintf("Wall times were judged as measured, with no correction for the machine's speed: fewer than 3 benchmarks (%d) did the same counted work as the baseline's, too few to tell the machine's speed from the change's.", n))
	}
	t, err := Against(cb, cand.Clock, opts, in)
	if err != nil {
		o.Report.Notes = append(o.Report.Notes, "The wall times could not be compared with the baseline's: "+err.Error()+".")
		return o
	}
	start := time.Now()
	t = confirm(ctx, h, t, cb, src, pt, opts)
	k := cand.Clock.Settings
	return joinClock(o, t, compare.Clock{Budget: k.Budget, Elapsed: k.Elapsed + time.Since(start), Rounds: k.Rounds})
}

// countUnchanged are the benchmarks (by key) whose counted work r found
// unchanged: what the wall-time check estimates the machine's speed
// shift from (compare.Options.ShiftFrom).
func countUnchanged(r *compare.Result) map[string]bool {
	unit := r.Options.CountedUnit
	if unit == "" {
		unit = results.UnitInstructionsPerOp
	}
	out := map[string]bool{}
	for _, c := range r.Comparisons {
		if c.Unit == unit && c.Verdict == compare.Unchanged {
			out[c.Name] = true
		}
	}
	return out
}

// joinClock joins the wall-time check of a counted stored-baseline
// comparison to it: counted is the comparison of the counts (Against,
// confirmed), timed that of the candidate's wall times
// (results.Results.Clock) against the baseline's (baseline.Clocked),
// confirmed as a timed check's are. Their comparisons join
// (compare.WithClock); the history gate, speed shift and speed-shift
// notes of timings are the timed comparison's, and so are the notes it
// added (a confirmation's: give its Against an input without the run's
// notes, or they are said twice). k says what the clock was given and took.
// The verdict is judged anew: a confirmed wall-time regression beyond the
// clock's floor fails the run even when the count did not move.
func joinClock(counted, timed *outcome.Outcome, k compare.Clock) *outcome.Outcome {
	if counted.Report.Result == nil || timed.Report.Result == nil {
		return counted
	}
	k.History = true
	t := timed.Report.Result
	res := compare.WithClock(counted.Report.Result, t, k)
	res.Gate, res.Shift, res.ShardShifts = t.Gate, t.Shift, t.ShardShifts
	in := counted.Report
	in.Result = res
	in.Notes = append(in.Notes, timed.Report.Notes...)
	out := judged(in)
	out.Confirmed = counted.Confirmed
	return out
}

// joinPairedClock joins a wall-time check to a counted same-runner
// comparison (compare.WithClock): counted is the count's outcome
// (countPair), timed ab.Run's on the same two builds, judged against the
// clock's own floor; budget is what the timed run was given. The timed
// run's A/A check becomes the result's (it holds back timings only, see
// compare.Result.Enforced).
func joinPairedClock(counted, timed *ab.Outcome, budget time.Duration) *ab.Outcome {
	res := compare.WithClock(counted.Result, timed.Result, compare.Clock{
		Budget: budget, Elapsed: timed.Elapsed,
		Rounds: timed.Rounds + timed.ConfirmRounds, Generations: timed.Generations + timed.ConfirmGenerations,
	})
	res.AA = timed.Result.AA
	res.Gate = nil // a stored baseline's timing gate: the clock's timings are paired
	counted.AA, counted.AAConfirmations = timed.AA, timed.AAConfirmations
	counted.Confirmations = append(counted.Confirmations, timed.Confirmations...)
	counted.Elapsed += timed.Elapsed
	return counted
}
