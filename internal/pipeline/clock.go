package pipeline

import (
	"github.com/wirebench/wirebench/internal/compare"
)

// WithClock joins the wall-time check of a counted stored-baseline
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
func WithClock(counted, timed *Outcome, k compare.Clock) *Outcome {
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
