package check

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// A change fails the run, or is claimed, only if it holds in processes
// it was not first measured in: one rule (confirmable, settle) for every
// way a run is judged.
//
// A timing regression against a stored baseline fails the run only if it
// reproduces in a second process. A process is the unit of replication
// for timings, and a process can run some benchmarks far off their usual
// speed for its whole life (seen on a two-core machine, the code
// unchanged: a process that measured a benchmark 56% slower than the five
// before it, which agreed within 2%): a history of a few runs that never
// saw such a process cannot bound it, but the same benchmark off again in
// a fresh process is much less likely than once. Requiring both keeps the
// run's chance of any false alarm below alpha (each test alone does) and
// makes it far smaller for such processes; a real regression shows in
// both.
//
// A counted regression (compare.TestWelch or TestPairedT), against a
// stored baseline or in the A/B mode, is confirmed the same way, by more
// processes: the flagged benchmarks are counted again in fresh processes
// and judged on all of them. Counts of some benchmarks are bimodal by
// process (a code path chosen once per process: msgpack's float encoding
// here, ~5% apart); two sets of five processes that each landed in one
// mode look like a certain change, and more processes show both modes. A
// counted improvement is judged on them too before a report claims it
// (only counted ones: further processes of the flagged benchmarks cost a
// minute, a second timed measurement of the suite would cost a run).

// confirmable reports whether c is a change of r that confirmation
// re-judges: a regression that fails the run (not accepted by the pull
// request, not yet re-measured) timed against a stored history or
// counted, or a counted improvement.
func confirmable(r *compare.Result, c compare.Comparison) bool {
	return r.Fails(c) && (c.Test == compare.TestNewRun || c.Counted()) ||
		c.Verdict == compare.Improvement && c.Counted()
}

// confirmables are the benchmarks of r's confirmable comparisons, by key.
func confirmables(r *compare.Result) []string {
	var names []string
	for _, c := range r.Comparisons {
		if confirmable(r, c) && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

// settle re-judges r's confirmable comparisons by second, the comparison
// of what was measured again (a second process; for counts, all of the
// processes). A regression that is not again a regression that fails the
// run is marked unconfirmed: reported, not enforced; its note says what
// second measured either way. An improvement that holds says so; one
// that does not is replaced by its judgement in second
// (compare.NotHeld). It returns how many regressions held and how many
// did not, and the comparisons of second it used.
func settle(r, second *compare.Result) (held, failed int, used []compare.Comparison) {
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		if !confirmable(r, *c) {
			continue
		}
		s, ok := lookup(second, c.Name, c.Unit)
		if ok {
			used = append(used, s)
		}
		if c.Verdict == compare.Improvement {
			switch {
			case !ok:
				c.Note = compare.JoinNote(c.Note, "not counted again")
			case s.Verdict == compare.Improvement:
				c.Note = compare.JoinNote(c.Note, "held on all processes: "+measured(s))
			default:
				*c = compare.NotHeld(*c, s)
			}
			continue
		}
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
	return held, failed, used
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
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

// measured says what a comparison of a re-measurement found: its change
// with its interval and adjusted p-value, and for a count, over how many
// processes.
func measured(c compare.Comparison) string {
	if c.Counted() {
		return fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%], p (adj.) = %.2g over %d+%d processes", 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1), c.PAdjusted, c.Baseline.N, c.Candidate.N)
	}
	return fmt.Sprintf("%s [%s, %s], p (adj.) = %.2g", human.Change(c.Ratio-1, 1), human.Change(c.Lo-1, 1), human.Change(c.Hi-1, 1), c.PAdjusted)
}

// NeedsConfirmation reports whether o, the outcome of a stored-baseline
// comparison, would fail on a timing regression that has not been
// re-measured, or claims a counted improvement: then the candidate should
// be measured again in a new process and the outcome confirmed (Confirm).
func NeedsConfirmation(o *outcome.Outcome) bool {
	r := o.Report.Result
	if r == nil || r.Method == compare.MethodPaired || r.Method == compare.MethodCounted || o.Confirmed {
		return false
	}
	failed := o.Failed()
	for _, c := range r.Comparisons {
		if confirmable(r, c) && (failed || c.Verdict == compare.Improvement) {
			return true
		}
	}
	return false
}

// Confirm re-judges the confirmable changes of o (settle) by again, the
// candidate measured once more in a new process with the same settings
// (for counted ones, the candidate with the flagged benchmarks' further
// processes: Recount), compared with base as the first was (opts). The
// report notes the re-measurement. The verdict is judged anew.
func Confirm(o *outcome.Outcome, base *baseline.Baseline, again *results.Results, opts compare.Options) (*outcome.Outcome, error) {
	opts.History = History(base)
	second, err := compare.Compare(base.Reference, again, opts)
	if err != nil {
		return nil, fmt.Errorf("compare the second measurement with the baseline: %w", err)
	}
	r := o.Report.Result
	held, failed, _ := settle(r, second)
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

// Recount are the benchmarks of o's comparisons that Confirm would
// re-judge, by key.
func Recount(o *outcome.Outcome) []string { return confirmables(o.Report.Result) }

// confirm re-measures src in new processes when o would fail on a timing
// regression against the stored baseline base, and judges o again by what
// it measured (Confirm). When measuring again fails, o stands as it is
// (its regressions still fail the run) and a warning says why. A source
// that is not measured here (a file of results, merged shards) cannot be
// measured again: o stands.
func confirm(ctx context.Context, h Host, o *outcome.Outcome, base *baseline.Baseline, src source.Source, p source.Plan, opts compare.Options) *outcome.Outcome {
	if base == nil || !NeedsConfirmation(o) {
		return o
	}
	var again *results.Results
	var err error
	_, measures := src.(source.Buildable)
	switch {
	case !measures:
		return o
	case p.Count != nil:
		again, err = countAgain(ctx, h, o, src, p)
	default:
		switch src.(type) {
		case source.Embedded:
			fmt.Fprintln(h.Progress(), "wirebench: a timing regression: measuring again in a new process to confirm it")
			again, err = h.MeasureFresh(ctx, p)
		case source.GoTest:
			// Its benchmarks run in worker processes, new ones each time.
			fmt.Fprintln(h.Progress(), "wirebench: a timing regression: measuring again in new worker processes to confirm it")
			again, _, err = src.Results(ctx, p)
		default:
			return o
		}
	}
	if err == nil {
		var c *outcome.Outcome
		if c, err = Confirm(o, base, again, opts); err == nil {
			if p.Count != nil {
				// The further processes are the candidate's too: its
				// results hold them all.
				c.Report.Candidate = again
			}
			return c
		}
	}
	fmt.Fprintf(h.Progress(), "wirebench: warning: could not confirm the timing regressions, so they stand: %v\n", err)
	o.Report.Notes = append(o.Report.Notes, "The timing regressions could not be re-measured in a second process ("+err.Error()+"), so they fail the run as measured.")
	return o
}

// countAgain counts the benchmarks of o's counted regressions and
// improvements again in as many fresh processes as the candidate had,
// with its block sizes, and returns the candidate with them added
// (results.AddProcesses): what Confirm judges them on.
func countAgain(ctx context.Context, h Host, o *outcome.Outcome, src source.Source, p source.Plan) (*results.Results, error) {
	first := o.Report.Candidate
	names := Recount(o)
	fmt.Fprintf(h.Progress(), "wirebench: %s counted as changed: counting %s again in fresh processes to confirm\n",
		human.Plural(len(names), "benchmark", "benchmarks"), map[bool]string{true: "it", false: "them"}[len(names) == 1])
	ct := *p.Count
	ct.Only, ct.Iterations = names, blockSizes(first)
	if first.Settings.Counter != nil {
		ct.Processes = first.Settings.Counter.Processes
	}
	p.Count = &ct
	p.KeepDumps = "" // the first count's are kept
	again, _, err := src.Results(ctx, p)
	if err != nil {
		return nil, err
	}
	all := first.Clone()
	all.AddProcesses(again)
	return all, nil
}
