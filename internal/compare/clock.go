package compare

import (
	"fmt"
	"math"

	"github.com/wirebench/wirebench/internal/results"
)

// CountBlind is what makes code slower without more counted work: what a
// wall-time change the count did not share is put down to.
const CountBlind = "a change counting cannot see: caches and memory, where the code lies in the binary (a loop's alignment), the kernel, waiting (sleep, locks, other threads), or code that acts differently under Valgrind"

// WithClock joins a wall-time check to a counted comparison: counted
// compares the counts of two runs, timed their wall times (ns/op), judged
// against the clock's own floor (timed.Options.Threshold); k says how the
// wall times were measured. The timed ns/op comparisons join the counted
// ones, each saying what the count of its benchmark showed, so that a
// report can say which instrument saw a change and why the other could
// not; a counted change says what the clock saw. The exact metrics stay
// the count's: both measured the same sizes and allocations, and the
// counted processes measured them in blocks of one size. What else of
// timed belongs to the joined result (an A/A check, a history gate, a
// speed shift) depends on how it was measured: the caller moves it.
// counted is changed and returned.
func WithClock(counted, timed *Result, k Clock) *Result {
	unit := counted.Options.CountedUnit
	if unit == "" {
		unit = results.UnitInstructionsPerOp
	}
	counts := map[string]int{}
	for i, c := range counted.Comparisons {
		if c.Unit == unit {
			counts[c.Name] = i
		}
	}
	for _, t := range timed.Comparisons {
		if t.Unit != results.UnitNsPerOp {
			continue
		}
		if i, ok := counts[t.Name]; ok {
			c := &counted.Comparisons[i]
			t.Note = JoinNote(t.Note, clockNote(t, *c))
			if changed(*c) {
				c.Note = JoinNote(c.Note, fmt.Sprintf("wall time %s natively, %s", interval(t), timedVerdict(t, timed.Options.Threshold)))
			}
		}
		counted.Comparisons = append(counted.Comparisons, t)
	}
	k.Threshold = timed.Options.Threshold
	counted.Clock = &k
	return counted
}

// changed reports whether a comparison came out as a change.
func changed(c Comparison) bool { return c.Verdict == Regression || c.Verdict == Improvement }

// clockNote says what the count of a benchmark showed beside its
// wall-time comparison t: for a change the clock saw, whether the count
// saw it too or why it could not.
func clockNote(t, c Comparison) string {
	if !changed(t) {
		return ""
	}
	if c.Verdict == t.Verdict {
		return fmt.Sprintf("counted too: %s %s", c.Unit, interval(c))
	}
	return fmt.Sprintf("%s %s, %s: %s", c.Unit, interval(c), c.Verdict, CountBlind)
}

// timedVerdict says how the clock judged t against its floor.
func timedVerdict(t Comparison, floor float64) string {
	if changed(t) {
		return "the clock saw it too"
	}
	return fmt.Sprintf("%s beside the clock's ±%.0f%% floor", t.Verdict, 100*floor)
}

// interval is a comparison's change with its interval, "+2.10%
// [+2.00%, +2.20%]", or "n/a" without an estimate.
func interval(c Comparison) string {
	if math.IsNaN(c.Ratio) {
		return "n/a"
	}
	if math.IsNaN(c.Lo) || math.IsNaN(c.Hi) {
		return fmt.Sprintf("%+.2f%%", 100*(c.Ratio-1))
	}
	return fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%]", 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1))
}
