package check

import (
	"cmp"
	"context"
	"errors"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// Stored is a check against a stored baseline, the one flow of the
// command line's check and of the action's check on a pull request
// without a checkout of its base: the candidate measured (or read) from
// Source as Config says, like the baseline's reference; compared with
// Base; what the pull request accepts applied (Accept); its changes
// confirmed in fresh processes (confirm); under metric auto its wall
// times checked beside the count (clockCheck), their regressions
// accepted as the others; the dumps of the counted changes saved.
type Stored struct {
	Host   Host
	Config *config.Config
	Source source.Source
	// Base is the stored baseline, nil when there is none yet (the
	// outcome is then NoBaseline).
	Base *baseline.Baseline
	// Input is what the report says of the run: its title, where the
	// baseline came from, fail-on, the run's notes so far; the
	// measurement's notes are added after them.
	Input outcome.Report
	// Dumps is where the callgrind dumps of the counted changes go
	// (DumpsDir); "" keeps none.
	Dumps string
	// Commit, when set, is recorded as the candidate's commit (a pull
	// request's head, not the merge commit GitHub checks out).
	Commit string
	// Accept, when set, applies what the pull request accepts to an
	// outcome (Accept): before the confirmation, so that an accepted
	// regression is not measured again, and after the wall-time check.
	Accept func(ctx context.Context, o *outcome.Outcome)
	// Broken is what the outcome says when the code cannot be measured
	// (Outcome.Broken); "" says "The benchmarks could not be measured".
	Broken string
}

// Run measures and judges the check. Code that cannot be measured
// (source.CodeError) is not an error: its outcome is Broken, which fails.
// A selection or file the source cannot use is a BadInput.
func (s Stored) Run(ctx context.Context) (*outcome.Outcome, error) {
	c := s.Config
	var ref *results.Results
	if s.Base != nil {
		ref = s.Base.Reference
	}
	p, like := PlanLike(s.Host, c, ref)
	var ct *count.Settings
	var note string
	if _, measures := s.Source.(source.Buildable); measures {
		var err error
		if ct, note, err = Instrument(ctx, c, ref, true); err != nil {
			return nil, err
		}
	} else {
		like = "" // read, not measured: no budget nor samples taken
	}
	p.Count = ct
	dumps := ""
	if ct != nil {
		like = "" // the budget and samples time; a count takes neither
		dumps = s.Dumps
	}
	kept, removeKept := keptDumps(dumps)
	defer removeKept()
	p.KeepDumps = kept
	in := s.Input
	in.Notes = append(append([]string(nil), in.Notes...), WithNote(WithNote(nil, like), note)...)
	cand, notes, err := s.measure(ctx, p)
	var pt source.Plan
	var unclocked string
	if err == nil {
		pt, unclocked, err = TimeBeside(ctx, s.Host, c, s.Source, p, ref, cand, true)
	}
	var code *source.CodeError
	if errors.As(err, &code) {
		// Code that cannot be measured never passes: report it.
		return Broken(in, cmp.Or(s.Broken, "The benchmarks could not be measured"), code), nil
	}
	if err != nil {
		return nil, err
	}
	in.Notes = append(in.Notes, notes...)
	if unclocked != "" {
		in.Notes = append(in.Notes, unclocked)
	}
	opts := CountedOptions(c, c.CompareOptions(false), ct)
	o, err := Against(s.Base, cand, opts, in)
	if err != nil {
		return nil, BadInput{err}
	}
	s.accept(ctx, o)
	o = confirm(ctx, s.Host, o, s.Base, s.Source, p, opts)
	o = clockCheck(ctx, s.Host, c, o, s.Base, s.Source, pt)
	s.accept(ctx, o)
	saveDumps(s.Host.Progress(), o.Report.Result, kept, dumps)
	return o, nil
}

// measure gives the candidate's results as p says, with the commit set
// when s names one.
func (s Stored) measure(ctx context.Context, p source.Plan) (*results.Results, []string, error) {
	r, notes, err := Measure(ctx, s.Source, p)
	if err == nil && s.Commit != "" {
		if _, ok := s.Source.(source.Buildable); ok {
			r.Env.Commit = s.Commit
		}
	}
	return r, notes, err
}

// accept applies s.Accept to o, when set.
func (s Stored) accept(ctx context.Context, o *outcome.Outcome) {
	if s.Accept != nil {
		s.Accept(ctx, o)
	}
}
