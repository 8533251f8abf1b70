package check

import (
	"context"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/store"
)

// UpdateOptions say how Update stores a run and what it looks for in the
// history.
type UpdateOptions struct {
	// RunID names the CI run in the history, which keeps at most History
	// runs (baseline.DefaultHistory when 0).
	RunID   string
	History int
	// Accepted is what the pull requests merged by the run's commit
	// accepted, and PullRequests their numbers, recorded with it.
	Accepted     accept.Set
	PullRequests []int
	// Alpha is the chance of any false change point in the history
	// (history.DefaultAlpha when 0); FailOnChangePoint fails the outcome
	// on a change point this update is the first to see and that nothing
	// explains.
	Alpha             float64
	FailOnChangePoint bool
	// Floor is the effect floor of a count's step in the history
	// (history.DefaultFloor when 0); Creep says how creep is looked for,
	// CreepRelease, when set, finds the release the reference run is
	// the run of in the history as stored (the CreepOptions it returns
	// replace Creep's Release and InRelease), and FailOnCreep fails the
	// outcome on an upward creep this update is the first to see.
	Floor        float64
	Creep        history.CreepOptions
	CreepRelease func(ctx context.Context) (history.CreepOptions, string)
	FailOnCreep  bool
}

// Update refreshes the baseline in st with cand (see baseline.Refresh)
// and finds the change points of its history (history.Analyze), marking
// those the history before this run did not show: the report's
// ChangePoints.
func Update(ctx context.Context, st store.Store, cand *results.Results, u UpdateOptions, in outcome.Report) (*outcome.Outcome, error) {
	var stored *baseline.Baseline
	var previous []baseline.Entry
	where, err := st.Update(ctx, func(old *baseline.Baseline) *baseline.Baseline {
		stored = baseline.RefreshAccepted(old, cand, u.RunID, u.History, u.Accepted, u.PullRequests)
		previous = []baseline.Entry{}
		if old != nil {
			previous = old.History
		}
		return stored
	})
	if err != nil {
		return nil, err
	}
	in.Candidate, in.History = cand, stored.History
	creep := u.Creep
	if u.CreepRelease != nil && creep.Limit > 0 {
		r, note := u.CreepRelease(ctx)
		creep.Release, creep.InRelease = r.Release, r.InRelease
		if note != "" {
			in.Notes = append(in.Notes, note)
		}
	}
	in.ChangePoints = history.Analyze(stored.History, previous, history.Options{Alpha: u.Alpha, Floor: u.Floor, Creep: creep})
	o := &outcome.Outcome{Verdict: outcome.Updated, Report: in, Updated: where, Stored: stored}
	if u.FailOnChangePoint {
		for _, p := range in.ChangePoints.NewPoints() {
			if !p.Explained() {
				o.FailsOnChangePoint = true
			}
		}
	}
	if c := in.ChangePoints.Creep; u.FailOnCreep && c != nil {
		for _, cr := range c.Found {
			if cr.New && cr.Change > 0 {
				o.FailsOnCreep = true
			}
		}
	}
	return o, nil
}
