package check

import (
	"fmt"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

// Verdict is the outcome of a run in one word, as the action's verdict
// output gives it.
type Verdict string

// The verdicts.
const (
	Pass       Verdict = "pass"
	Fail       Verdict = "fail"
	NoBaseline Verdict = "no-baseline"
	Updated    Verdict = "updated"
	Measured   Verdict = "measured"
)

// Outcome is what a run produced, ready for delivery.
type Outcome struct {
	Verdict Verdict
	// Report is what the report shows: the candidate, the comparison
	// (nil when nothing was compared), the history, the notes.
	Report report.Input
	// Updated says where the baseline was written, for Verdict Updated.
	Updated string
	// Stored is the baseline as written, for Verdict Updated.
	Stored *baseline.Baseline
	// Broken, with Verdict Fail and no comparison, says what could not be
	// measured, and Cause why.
	Broken string
	Cause  error
	// Confirmed is set once the timing regressions were re-measured in a
	// second process (Confirm).
	Confirmed bool
	// FailsOnChangePoint is set, for Verdict Updated, when a change point
	// this update is the first to see is unexplained and the update was
	// asked to fail on one (UpdateOptions.FailOnChangePoint). The baseline
	// is stored all the same.
	FailsOnChangePoint bool
	// FailsOnCreep is set, for Verdict Updated, when a count's upward
	// creep this update is the first to see and the update was asked to
	// fail on one (UpdateOptions.FailOnCreep).
	FailsOnCreep bool
}

// Failed reports whether the outcome fails the job: the gate, or an
// unexplained new change point or a new creep on an update asked to fail
// on one.
func (o *Outcome) Failed() bool { return o.Verdict == Fail || o.FailsOnChangePoint || o.FailsOnCreep }

// Counts are the regressions and improvements of the comparison, 0 when
// nothing was compared.
func (o *Outcome) Counts() (regressions, improvements int) {
	if r := o.Report.Result; r != nil {
		return r.Count(compare.Regression), r.Count(compare.Improvement)
	}
	return 0, 0
}

// Against compares cand with the stored baseline base (nil: there is none
// yet, and the outcome is NoBaseline): the baseline's history judges the
// timings (compare.History; with too little of it they are reported, not
// enforced), or opts.History when it is set (the go test processes of
// two Go benchmark text files). in carries the report's title, sources
// and notes; its Result and History are filled here.
func Against(base *baseline.Baseline, cand *results.Results, opts compare.Options, in report.Input) (*Outcome, error) {
	in.Candidate = cand
	if base == nil {
		return &Outcome{Verdict: NoBaseline, Report: in}, nil
	}
	if opts.History == nil {
		opts.History = History(base)
	}
	res, err := compare.Compare(base.Reference, cand, opts)
	if err != nil {
		return nil, fmt.Errorf("compare with %s: %w", in.BaselineSource, err)
	}
	in.Result, in.History = res, base.History
	return judged(in), nil
}

// History is the baseline's history as compare judges timings by it: one
// run per entry, the entry of the reference marked (when the history has
// none, compare adds the reference itself, so it is never counted twice).
func History(b *baseline.Baseline) *compare.History {
	h := &compare.History{}
	ref := b.ReferenceEntry()
	for i, e := range b.History {
		h.Runs = append(h.Runs, compare.Run{Commit: e.Commit, Harness: e.Harness, Medians: e.Medians, Reference: i == ref})
	}
	return h
}

// Paired is the outcome of a same-runner A/B comparison; history, when
// the stored baseline has one, feeds the report's trends.
func Paired(o *ab.Outcome, history []baseline.Entry, in report.Input) *Outcome {
	in.Candidate, in.Result, in.History = o.Head, o.Result, history
	return judged(in)
}

// judged sets the verdict of a comparison ("" fail-on means the default,
// regression).
func judged(in report.Input) *Outcome {
	if in.FailOn == "" {
		in.FailOn = compare.FailOnRegression
	}
	v := Pass
	if in.Result.Failed(in.FailOn) {
		v = Fail
	}
	return &Outcome{Verdict: v, Report: in}
}

// Broken is the outcome of a check that could not measure what it had
// to (the pull request's build failed to build or to run): it fails, so
// that code that could not be measured never passes.
func Broken(in report.Input, what string, cause error) *Outcome {
	if in.FailOn == "" {
		in.FailOn = compare.FailOnRegression
	}
	v := Fail
	if in.FailOn == compare.FailOnNever {
		v = Pass
	}
	return &Outcome{Verdict: v, Report: in, Broken: what, Cause: cause}
}

// Run is the outcome of a run that compares nothing.
func Run(cand *results.Results, in report.Input) *Outcome {
	in.Candidate = cand
	return &Outcome{Verdict: Measured, Report: in}
}
