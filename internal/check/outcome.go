package check

import (
	"fmt"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
)

// Against compares cand with the stored baseline base (nil: there is none
// yet, and the outcome is NoBaseline): the baseline's history judges the
// timings (compare.History; with too little of it they are reported, not
// enforced), or opts.History when it is set (the go test processes of
// two Go benchmark text files). in carries the report's title, sources
// and notes; its Result and History are filled here.
func Against(base *baseline.Baseline, cand *results.Results, opts compare.Options, in outcome.Report) (*outcome.Outcome, error) {
	in.Candidate = cand
	if base == nil {
		return &outcome.Outcome{Verdict: outcome.NoBaseline, Report: in}, nil
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
func Paired(o *ab.Outcome, history []baseline.Entry, in outcome.Report) *outcome.Outcome {
	in.Candidate, in.Result, in.History = o.Head, o.Result, history
	return judged(in)
}

// judged sets the verdict of a comparison ("" fail-on means the default,
// regression).
func judged(in outcome.Report) *outcome.Outcome {
	if in.FailOn == "" {
		in.FailOn = compare.FailOnRegression
	}
	v := outcome.Pass
	if in.Result.Failed(in.FailOn) {
		v = outcome.Fail
	}
	return &outcome.Outcome{Verdict: v, Report: in}
}

// Broken is the outcome of a check that could not measure what it had
// to (the pull request's build failed to build or to run): it fails, so
// that code that could not be measured never passes.
func Broken(in outcome.Report, what string, cause error) *outcome.Outcome {
	if in.FailOn == "" {
		in.FailOn = compare.FailOnRegression
	}
	v := outcome.Fail
	if in.FailOn == compare.FailOnNever {
		v = outcome.Pass
	}
	return &outcome.Outcome{Verdict: v, Report: in, Broken: what, Cause: cause}
}

// Run is the outcome of a run that compares nothing.
func Run(cand *results.Results, in outcome.Report) *outcome.Outcome {
	in.Candidate = cand
	return &outcome.Outcome{Verdict: outcome.Measured, Report: in}
}
