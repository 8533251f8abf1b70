package ab

import (
	"fmt"
	"math"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// countBlind is what makes code slower without more counted work: what
// a wall-time change the count did not share is put down to.
const countBlind = "a change counting cannot see: caches and memory, the kernel, waiting (sleep, locks, other threads), or code that acts differently under Valgrind"

// WithClock joins a wall-time check to a counted comparison: counted is
// Count's outcome, timed Run's on the same two builds, judged against the
// clock's own floor (timed.Result.Options.Threshold); budget is what the
// timed run was given. The timed run's ns/op comparisons join the
// counted ones, each saying what the count of its benchmark showed, so
// that the report can say which instrument saw a change and why the
// other could not; a counted change says what the clock saw. The timed
// run's A/A check becomes the result's (it holds back timings only, see
// compare.Result.Enforced). The exact metrics stay the count's: both
// measured the same sizes and allocations, and the counted processes
// measured them in blocks of one size.
func WithClock(counted, timed *Outcome, budget time.Duration) *Outcome {
	res, clk := counted.Result, timed.Result
	unit := res.Options.CountedUnit
	if unit == "" {
		unit = results.UnitInstructionsPerOp
	}
	counts := map[string]int{}
	for i, c := range res.Comparisons {
		if c.Unit == unit {
			counts[c.Name] = i
		}
	}
	for _, t := range clk.Comparisons {
		if t.Unit != results.UnitNsPerOp {
			continue
		}
		i, ok := counts[t.Name]
		if !ok {
			res.Comparisons = append(res.Comparisons, t)
			continue
		}
		c := &res.Comparisons[i]
		t.Note = joinNote(t.Note, clockNote(t, *c))
		if flagged(*c) {
			c.Note = joinNote(c.Note, fmt.Sprintf("wall time %s natively, %s", interval(t), timedVerdict(t, clk.Options.Threshold)))
		}
		res.Comparisons = append(res.Comparisons, t)
	}
	res.AA = clk.AA
	res.Gate = nil // a stored baseline's timing gate: the clock's timings are paired
	res.Clock = &compare.Clock{
		Threshold: clk.Options.Threshold, Budget: budget, Elapsed: timed.Elapsed,
		Rounds: timed.Rounds + timed.ConfirmRounds, Generations: timed.Generations + timed.ConfirmGenerations,
	}
	counted.AA, counted.AAConfirmations = timed.AA, timed.AAConfirmations
	counted.Confirmations = append(counted.Confirmations, timed.Confirmations...)
	counted.Elapsed += timed.Elapsed
	return counted
}

// clockNote says what the count of a benchmark showed beside its
// wall-time comparison t: for a change the clock saw, whether the count
// saw it too or why it could not.
func clockNote(t, c compare.Comparison) string {
	if !flagged(t) {
		return ""
	}
	if c.Verdict == t.Verdict {
		return fmt.Sprintf("counted too: %s %s", c.Unit, interval(c))
	}
	return fmt.Sprintf("%s %s, %s: %s", c.Unit, interval(c), c.Verdict, countBlind)
}

// timedVerdict says how the clock judged t against its floor.
func timedVerdict(t compare.Comparison, floor float64) string {
	switch t.Verdict {
	case compare.Regression, compare.Improvement:
		return "the clock saw it too"
	}
	return fmt.Sprintf("%s beside the clock's ±%.0f%% floor", t.Verdict, 100*floor)
}

// interval is a comparison's change with its interval, "+2.10%
// [+2.00%, +2.20%]", or "n/a" without an estimate.
func interval(c compare.Comparison) string {
	if math.IsNaN(c.Ratio) {
		return "n/a"
	}
	if math.IsNaN(c.Lo) || math.IsNaN(c.Hi) {
		return fmt.Sprintf("%+.2f%%", 100*(c.Ratio-1))
	}
	return fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%]", 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1))
}

// The wall-time check's budget beside a count (ClockBudget).
const (
	// ClockShare is the share of the count's time the wall-time check
	// is given: the job is meant to cost at most about a quarter more
	// than counting alone (the timed phase's start-up and, when it flags
	// something, its confirmation come on top).
	ClockShare = 0.2
	// MinClockBudget is the least it is given: below it a suite's
	// warm-up in three workers and two generations leave no rounds.
	MinClockBudget = 20 * time.Second
)

// ClockBudget is the budget of the wall-time check beside a count that
// took counting: ClockShare of it, at least MinClockBudget and at most
// DefaultBudget.
func ClockBudget(counting time.Duration) time.Duration {
	return min(max(time.Duration(ClockShare*float64(counting)), MinClockBudget), DefaultBudget)
}
