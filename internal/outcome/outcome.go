// Package outcome is what a run produced, ready for delivery: its
// verdict in one word and what the report shows. Every use case of check
// returns one and deliver writes it, so delivery depends on this value
// only, not on the use cases that make it.
package outcome

import (
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/history"
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
	Report Report
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

// Report is what the reports show of a run (internal/report renders it
// into every document): the comparison, the candidate, the history and
// the notes.
type Report struct {
	// Result is the comparison; nil when there is no baseline yet (the
	// first run), and the report then shows the run itself.
	Result *compare.Result
	// Candidate is the run just measured. Always set.
	Candidate *results.Results
	// History is the stored history of the baseline, oldest first; it may
	// be empty. It feeds the trend charts. After an update it is the
	// history as stored, this run the newest.
	History []baseline.Entry
	// ChangePoints, after an update, are the change points of History.
	ChangePoints *history.Analysis
	// BaselineSource says where the baseline came from, e.g.
	// "baseline/default.json in the workspace" or "branch main via the
	// GitHub API"; the report names it.
	BaselineSource string
	// Title names the report, e.g. "wirebench: default suite".
	Title string
	// FailOn is the condition that fails the job; "" means
	// compare.FailOnRegression, the default.
	FailOn compare.FailOn
	// Notes are extra lines from the caller (mode chosen, fork warning,
	// why a comparison was not possible, ...), shown under the summary.
	// They are plain text and may quote a pull request or a worker (an
	// error message): the report escapes them, keeping only spans
	// between backticks, which it shows as inline code.
	Notes []string
	// MarkdownNotes are notes in Markdown written by wirebench itself
	// (links, emphasis), shown as written after Notes. Never put text a
	// pull request, a worker or a downloaded file controls in them: use
	// Notes for that.
	MarkdownNotes []string
	// Details is an optional link (e.g. the run's URL) to the full
	// results.
	Details string
}
