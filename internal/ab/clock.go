package ab

import (
	"time"

	"github.com/wirebench/wirebench/internal/compare"
)

// WithClock joins a wall-time check to a counted comparison
// (compare.WithClock): counted is Count's outcome, timed Run's on the
// same two builds, judged against the clock's own floor; budget is what
// the timed run was given. The timed run's A/A check becomes the
// result's (it holds back timings only, see compare.Result.Enforced).
func WithClock(counted, timed *Outcome, budget time.Duration) *Outcome {
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

// The wall-time check's budget beside a count (ClockBudget).
const (
	// ClockShare is the share of the count's time the wall-time check
	// is given: the job is meant to cost at most about a quarter more
	// than counting alone (the timed phase's start-up and, when it flags
	// something, its confirmation come on top).
	ClockShare = 0.2
	// MinClockBudget is the least it is given: below it a module's
	// warm-up in three workers and two generations leaves few rounds.
	// At 20 s the check cost msgpack's 12 benchmarks +46% over their
	// 43 s count (docs/counted.md, "Both instruments").
	MinClockBudget = 10 * time.Second
)

// ClockBudget is the budget of the wall-time check beside a count that
// took counting: ClockShare of it, at least MinClockBudget and at most
// DefaultBudget.
func ClockBudget(counting time.Duration) time.Duration {
	return min(max(time.Duration(ClockShare*float64(counting)).Round(100*time.Millisecond), MinClockBudget), DefaultBudget)
}
