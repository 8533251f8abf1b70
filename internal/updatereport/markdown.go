package updatereport

import (
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

// Update is what the report of a baseline update shows.
type Update struct {
	// Line says in one line of plain text (escaped) what was stored
	// where.
	Line string
	// Notes are plain text (escaped), MarkdownNotes wirebench's own
	// Markdown, shown as written.
	Notes, MarkdownNotes []string
	// Candidate is the run stored.
	Candidate *results.Results
	// History is the stored history after the update, oldest run first.
	History []baseline.Entry
	// Analysis is the history's change points and creep; nil when the
	// history was not analysed.
	Analysis *history.Analysis
}

// Markdown is the Markdown of a baseline refresh, where people already
// look after a merge (the push's job summary): what was stored where and
// the notes; the change points of the history, those this push is the
// first to see first; the counts' creep; a trend chart of every series
// that moved (a change point or a creep), or when nothing did a compact
// chart of the headline series, so the page is never empty, and a
// compact table of the rest; the run's table.
func Markdown(u Update) string {
	var b strings.Builder
	b.WriteString("### wirebench: baseline updated\n\n" + report.PlainText(u.Line) + "\n\n")
	b.WriteString(report.NotesList(u.Notes, u.MarkdownNotes))
	if a := u.Analysis; a != nil {
		b.WriteString(changePointSection(a))
		b.WriteString(creepSection(a, u.History))
		b.WriteString(historyTrendSection(a))
	}
	b.WriteString(report.Details("This run", report.RunBlock(u.Candidate)))
	return b.String()
}

// median is the median of v.
func median(v []float64) float64 { return compare.Summarize(v).Median }
