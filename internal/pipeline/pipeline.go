package pipeline

import (
	"context"
	"fmt"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/store"
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
}

// Failed reports whether the outcome fails the gate.
func (o *Outcome) Failed() bool { return o.Verdict == Fail }

// Counts are the regressions and improvements of the comparison, 0 when
// nothing was compared.
func (o *Outcome) Counts() (regressions, improvements int) {
	if r := o.Report.Result; r != nil {
		return r.Count(compare.Regression), r.Count(compare.Improvement)
	}
	return 0, 0
}

// Against compares cand with the stored baseline base (nil: there is none
// yet, and the outcome is NoBaseline): the baseline's history raises each
// timing's threshold to its between-run noise. in carries the report's
// title, sources and notes; its Result and History are filled here.
func Against(base *baseline.Baseline, cand *results.Results, opts compare.Options, in report.Input) (*Outcome, error) {
	in.Candidate = cand
	if base == nil {
		return &Outcome{Verdict: NoBaseline, Report: in}, nil
	}
	opts.BetweenRun = &compare.Noise{Spread: base.BetweenRunNoise()}
	res, err := compare.Compare(base.Reference, cand, opts)
	if err != nil {
		return nil, fmt.Errorf("compare with %s: %w", in.BaselineSource, err)
	}
	in.Result, in.History = res, base.History
	return judged(in), nil
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

// Update refreshes the baseline in st with cand (see baseline.Refresh):
// runID names the CI run in the history, which keeps at most history runs.
func Update(ctx context.Context, st store.Store, cand *results.Results, runID string, history int, in report.Input) (*Outcome, error) {
	var stored *baseline.Baseline
	where, err := st.Update(ctx, func(old *baseline.Baseline) *baseline.Baseline {
		stored = baseline.Refresh(old, cand, runID, history)
		return stored
	})
	if err != nil {
		return nil, err
	}
	in.Candidate = cand
	return &Outcome{Verdict: Updated, Report: in, Updated: where, Stored: stored}, nil
}
