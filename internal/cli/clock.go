package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/pipeline"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// A counted run against a stored baseline under metric auto is also
// timed natively, the wall-time check (results.Results.Clock): stored
// with the baseline by update, judged by check against the history of
// the baseline's wall times (baseline.Clocked) with the clock's wide
// floor, a regression confirmed in a new process as a timed check's is.

// ClockPerBenchmark is the wall-time check's budget per benchmark
// against a stored baseline, within ab.MinClockBudget and
// ab.DefaultBudget (storedClockBudget). A count takes seconds per
// benchmark, so this is about the fifth of a count that the A/B mode
// gives its clock (ab.ClockShare); unlike a share of the count's time,
// it is the same in every run, which the history's timings must be to be
// comparable.
const ClockPerBenchmark = time.Second

// storedClockBudget is the wall-time check's budget for n benchmarks.
func storedClockBudget(n int) time.Duration {
	return min(max(time.Duration(n)*ClockPerBenchmark, ab.MinClockBudget), ab.DefaultBudget)
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
	var given pipeline.Measure
	if c.Given("budget") {
		given.Budget = c.Budget
	}
	if c.Given("samples") {
		given.Samples = c.Samples
	}
	m, _ := pipeline.MeasureLike(like, given, pipeline.Measure{Budget: storedClockBudget(n), Samples: c.MeasureSamples()})
	p.Budget, p.Samples = m.Budget, m.Samples
	return p
}

// timeBeside measures the wall-time check of cand, counted as p said,
// and records it as cand.Clock, when c's metric is auto and the run was
// counted; ref is the stored reference (nil: none, or update). It
// returns the plan it timed with (for a confirmation), or a note when
// the check would have nothing to be judged against (want: a check
// against ref), and the code's failure to run natively.
func timeBeside(ctx context.Context, e *env, c *config.Config, src source.Source, p source.Plan, ref, cand *results.Results, check bool) (source.Plan, string, error) {
	if !clocked(c, p.Count) {
		return source.Plan{}, "", nil
	}
	if check && (ref == nil || ref.Clock == nil) {
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
	if check {
		floor = fmt.Sprintf(" (floor ±%s)", human.Percent(c.TimeThreshold))
	}
	fmt.Fprintf(e.stderr, "wirebench: counted; now timing the benchmarks natively for %s, the wall-time check%s: what a count cannot see\n", pt.Budget, floor)
	timed, _, err := measure(ctx, src, pt)
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
// says), in one verdict (pipeline.WithClock). o is returned as it is when
// either has no wall times, or when they cannot be compared (with a note
// saying why).
func clockCheck(ctx context.Context, e *env, c *config.Config, o *pipeline.Outcome, base *baseline.Baseline, src source.Source, pt source.Plan) *pipeline.Outcome {
	cb, cand := base.Clocked(), o.Report.Candidate
	if cb == nil || cand == nil || cand.Clock == nil || o.Report.Result == nil {
		return o
	}
	opts := c.CompareOptions(false)
	opts.Threshold = c.TimeThreshold
	opts.ShiftFrom = countUnchanged(o.Report.Result)
	in := report.Input{BaselineSource: o.Report.BaselineSource, FailOn: o.Report.FailOn}
	if n := len(opts.ShiftFrom); n >= 3 {
		in.Notes = append(in.Notes, fmt.Sprintf("The machine's speed shift against the baseline's wall times was estimated from the %d benchmarks whose counted work did not change, so that a change that slows most benchmarks is not taken for a slower machine.", n))
	} else {
		in.Notes = append(in.Notes, fmt.Sprintf("Wall times were judged as measured, with no correction for the machine's speed: fewer than 3 benchmarks (%d) did the same counted work as the baseline's, too few to tell the machine's speed from the change's.", n))
	}
	t, err := pipeline.Against(cb, cand.Clock, opts, in)
	if err != nil {
		o.Report.Notes = append(o.Report.Notes, "The wall times could not be compared with the baseline's: "+err.Error()+".")
		return o
	}
	start := time.Now()
	t = confirm(ctx, e, t, cb, src, pt, opts)
	k := cand.Clock.Settings
	return pipeline.WithClock(o, t, compare.Clock{Budget: k.Budget, Elapsed: k.Elapsed + time.Since(start), Rounds: k.Rounds})
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
