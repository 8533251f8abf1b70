package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// A timing regression against a stored baseline fails the run only if it
// reproduces in a second process. A process is the unit of replication
// for timings, and a process can run some benchmarks far off their usual
// speed for its whole life (seen on a two-core machine, the code
// unchanged: a process that measured a benchmark 56% slower than the five
// before it, which agreed within 2%): a history of a few runs that never
// saw such a process cannot bound it, but the
// same benchmark off again in a fresh process is much less likely than
// once. Requiring both keeps the run's chance of any false alarm below
// alpha (each test alone does) and makes it far smaller for such
// processes; a real regression shows in both.

// confirmable reports whether c is a timing regression of r that fails
// the run (not accepted by the pull request) and is not yet re-measured:
// what Confirm re-judges.
func confirmable(r *compare.Result, c compare.Comparison) bool {
	return r.Fails(c) && (c.Test == compare.TestNewRun || c.Counted())
}

// improvable reports whether c is a counted improvement, which Confirm
// also judges on more processes before a report claims it. Only counted
// ones: further processes of the flagged benchmarks cost a minute, a
// second timed measurement of the suite would cost a run.
func improvable(c compare.Comparison) bool {
	return c.Verdict == compare.Improvement && c.Counted()
}

// A counted regression (compare.TestWelch or TestPairedT) is confirmed the same way, by
// more processes: the flagged benchmarks are counted again in fresh
// processes and judged on all of the candidate's. Counts of some
// benchmarks are bimodal by process (a code path chosen once per
// process: msgpack's float encoding here, ~5% apart); two sets of five
// processes that each landed in one mode look like a certain change,
// and more processes show both modes.

// NeedsConfirmation reports whether o, the outcome of a stored-baseline
// comparison, would fail on a timing regression that has not been
// re-measured: then the candidate should be measured again in a new
// process and the outcome confirmed (Confirm).
func NeedsConfirmation(o *Outcome) bool {
	r := o.Report.Result
	if r == nil || r.Method == compare.MethodPaired || r.Method == compare.MethodCounted || o.Confirmed {
		return false
	}
	failed := o.Failed()
	for _, c := range r.Comparisons {
		if confirmable(r, c) && failed || improvable(c) {
			return true
		}
	}
	return false
}

// Confirm re-judges the timing regressions of o that fail the run by
// again, the candidate measured once more in a new process with the same
// settings (for counted regressions, the candidate with the flagged
// benchmarks' further processes: Recount), compared with base as the
// first was (opts). A regression that
// is not again a regression that fails the run is marked unconfirmed:
// reported, not enforced. Either way its note says what the second
// process measured, and the report notes the re-measurement. The verdict
// is judged anew.
func Confirm(o *Outcome, base *baseline.Baseline, again *results.Results, opts compare.Options) (*Outcome, error) {
	opts.History = History(base)
	second, err := compare.Compare(base.Reference, again, opts)
	if err != nil {
		return nil, fmt.Errorf("compare the second measurement with the baseline: %w", err)
	}
	r := o.Report.Result
	held, failed := 0, 0
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		if improvable(*c) {
			settleImprovement(c, second)
			continue
		}
		if !confirmable(r, *c) {
			continue
		}
		s, ok := lookup(second, c.Name, c.Unit)
		switch {
		case !ok:
			c.Note = compare.JoinNote(c.Note, "not measured again in a second process: enforced as measured")
			held++
		case s.Verdict == compare.Regression && second.Enforced(s):
			c.Note = compare.JoinNote(c.Note, pick(c.Counted(), "held on all processes", "confirmed in a second process")+": "+measured(s))
			held++
		case s.Verdict == compare.Regression:
			// Measured again as a regression, but in a state that
			// cannot be judged (the machine busy beside it, say): it is
			// neither confirmed nor refuted, and the note says why.
			c.Unconfirmed = true
			c.Note = compare.JoinNote(c.Note, pick(c.Counted(), "a regression on all processes too", "a regression in a second process too")+" ("+measured(s)+"), but that measurement could not be enforced ("+strings.TrimPrefix(s.NotEnforced, "not enforced: ")+"): reported, not enforced")
			failed++
		default:
			c.Unconfirmed = true
			c.Note = compare.JoinNote(c.Note, pick(c.Counted(), "did not hold on all processes", "did not reproduce in a second process")+" ("+measured(s)+"): reported, not enforced")
			failed++
		}
	}
	in := o.Report
	if r.Counter != nil {
		in.Notes = append(in.Notes, fmt.Sprintf("A counted regression fails the run, and a counted improvement is claimed, only if it holds with more processes (a count can be bimodal by process): the flagged benchmarks were counted again in fresh processes and judged on all of them; of the regressions, %s held, %s did not.",
			human.Count(held), human.Count(failed)))
	} else {
		in.Notes = append(in.Notes, fmt.Sprintf("A timing regression against a stored baseline fails the run only if it reproduces in a second process (one process can run a benchmark far off its usual speed): the suite was measured again in a new process; %s held, %s did not.",
			human.Count(held), human.Count(failed)))
	}
	out := judged(in)
	out.Confirmed = true
	return out, nil
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// settleImprovement judges the counted improvement c again by second,
// the comparison on all of the candidate's processes: one that holds says
// so in its note; one that does not is replaced by its judgement there
// (compare.NotHeld).
func settleImprovement(c *compare.Comparison, second *compare.Result) {
	s, ok := lookup(second, c.Name, c.Unit)
	switch {
	case !ok:
		c.Note = compare.JoinNote(c.Note, "not counted again")
	case s.Verdict == compare.Improvement:
		c.Note = compare.JoinNote(c.Note, "held on all processes: "+measured(s))
	default:
		*c = compare.NotHeld(*c, s)
	}
}

// Recount are the benchmarks of o's comparisons that Confirm would
// re-judge, by key: its regressions that fail the run, and its counted
// improvements.
func Recount(o *Outcome) []string {
	r := o.Report.Result
	var out []string
	for _, c := range r.Comparisons {
		if (confirmable(r, c) || improvable(c)) && !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// lookup returns the comparison of name and unit in r.
func lookup(r *compare.Result, name, unit string) (compare.Comparison, bool) {
	for _, c := range r.Comparisons {
		if c.Name == name && c.Unit == unit {
			return c, true
		}
	}
	return compare.Comparison{}, false
}

// measured says what a comparison of the second process found: its change
// with its interval and adjusted p-value.
func measured(c compare.Comparison) string {
	return fmt.Sprintf("%s [%s, %s], p (adj.) = %.2g", human.Change(c.Ratio-1, 1), human.Change(c.Lo-1, 1), human.Change(c.Hi-1, 1), c.PAdjusted)
}
