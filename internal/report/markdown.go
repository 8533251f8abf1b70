package report

import (
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// DefaultMaxChars bounds a Markdown report when Options.MaxChars is 0:
// below GitHub's limit of 65,536 characters for a comment, with room for
// the marker and framing the caller adds.
const DefaultMaxChars = 60_000

// Input is what a Markdown report describes.
type Input struct {
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

// Options tune a Markdown report.
type Options struct {
	// MaxChars bounds the report's size, counted in UTF-8 bytes (which is
	// never less than GitHub's count of characters). Default
	// DefaultMaxChars.
	MaxChars int
}

// Markdown renders a report for a pull-request comment and a job summary,
// in GitHub-flavoured Markdown, decision first: a headline with the
// verdict and counts, what was compared, the timings that changed, the
// exact metrics that changed, the two environments and what was done about
// their difference, charts, and everything else collapsed. However large
// the run, the report stays within opts.MaxChars: the least important rows
// are cut first (unchanged, then inconclusive, then improvements, smaller
// changes before larger ones), and the report says how many are not shown.
// The headline and its counts are never cut.
func Markdown(in Input, opts Options) string {
	limit := opts.MaxChars
	if limit <= 0 {
		limit = DefaultMaxChars
	}
	if in.FailOn == "" {
		in.FailOn = compare.FailOnRegression
	}
	var d *document
	if in.Result == nil {
		d = firstRunDocument(in)
	} else {
		d = comparisonDocument(in)
	}
	if s, ok := d.bounded(limit); ok {
		return s
	}
	return minimalReport(in, limit)
}

// minimalReport is the fallback when even the report without a single row
// does not fit (huge notes, a tiny limit): the headline and a pointer to
// the full results, cut to the limit if it must be.
func minimalReport(in Input, limit int) string {
	var b strings.Builder
	if in.Result == nil {
		b.WriteString(firstRunHeadline() + "\n\n")
	} else {
		b.WriteString(headline(in.Result, in.FailOn) + "\n\n")
	}
	b.WriteString("The full report does not fit the size limit of " + human.Count(limit) + " characters; the results file has every comparison.")
	if in.Details != "" {
		b.WriteString(" " + link("Full results", in.Details) + ".")
	}
	b.WriteString("\n")
	return elideEnd(b.String(), limit)
}

// elideEnd cuts s to at most n bytes on a rune boundary.
func elideEnd(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// link renders a Markdown link to url with the URL in angle brackets, so
// parentheses and spaces in it cannot end it early.
func link(text, url string) string {
	return "[" + escapeInline(text) + "](<" + urlEscaper.Replace(url) + ">)"
}

var urlEscaper = strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20", "\n", "", "\r", "")

// NotesList renders the caller's notes as a list, one line each: the
// plain-text notes escaped (see PlainText), then wirebench's own Markdown
// notes as written.
func NotesList(notes, markdownNotes []string) string {
	var b strings.Builder
	for _, n := range notes {
		if n = PlainText(n); n != "" {
			b.WriteString("- " + n + "\n")
		}
	}
	for _, n := range markdownNotes {
		if n = strings.Join(strings.Fields(n), " "); n != "" {
			b.WriteString("- " + n + "\n")
		}
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// shortenedNotice is the line near the top of a cut report.
func shortenedNotice(details string) func(int) string {
	return func(cut int) string {
		s := "> ✂️ **Shortened to fit GitHub's size limit:** " + human.Plural(cut, "table row is", "table rows are") +
			" not shown, the least important first (unchanged, then inconclusive, then the smallest changes). " +
			"The counts above are complete; the results file (`wirebench compare --format text` or `--format json`) has every row"
		if details != "" {
			s += ", as do the " + link("full results", details)
		}
		return s + ".\n\n"
	}
}

// moreRows is the line that replaces a table's cut rows.
func moreRows(details string) func(int) string {
	return func(cut int) string {
		s := "_… " + human.Plural(cut, "more row", "more rows") + " not shown; see the job summary or the results file"
		if details != "" {
			s += " (" + link("full results", details) + ")"
		}
		return s + "._\n"
	}
}

// footer closes a report.
func footer(details string) string {
	s := "<sub>Generated by wirebench."
	if details != "" {
		s += " " + link("Full results", details) + "."
	}
	return s + "</sub>\n"
}

// detailsOpen starts a collapsed block; GitHub needs the blank line after
// the summary for the Markdown inside to be rendered.
func detailsOpen(summary string) string {
	return "<details><summary>" + summary + "</summary>\n\n"
}

const detailsClose = "\n</details>\n\n"

// Details is body in a collapsed block under summary (Markdown a caller
// has made safe).
func Details(summary, body string) string {
	return detailsOpen(summary) + body + detailsClose
}

// trendSection draws the trend charts of the chosen benchmarks, each
// followed by its numbers in text.
func trendSection(d *document, res *compare.Result, history []baseline.Entry, cand *results.Results) {
	names := trendBenchmarks(res, history)
	shift := 1.0
	if res != nil && res.Shift != nil && res.Shift.Applied && res.Shift.Estimate > 0 {
		shift = res.Shift.Estimate
	}
	var charts []string
	for _, n := range names {
		pts := trend(history, cand, n, shift)
		ch := trendChart(n, pts)
		if ch == "" {
			continue
		}
		charts = append(charts, ch+"\n"+trendText(n, pts)+"\n\n")
	}
	if len(charts) == 0 {
		return
	}
	intro := "#### Trends\n\nMedian time per operation in the last stored runs of the baseline, oldest first, and in this run (the last point"
	if shift != 1 {
		intro += ", divided by the machine's speed shift " + factor(shift) + " like the comparison"
	}
	d.add(intro + ").\n\n")
	for _, c := range charts {
		d.add(c)
	}
}

// trendText states a trend chart's numbers for readers without Mermaid.
func trendText(name string, pts []trendPoint) string {
	stored := pts
	last := ""
	if n := len(pts); n > 0 && pts[n-1].label == thisRun {
		p := pts[n-1]
		stored, last = pts[:n-1], FormatNs(p.value)
		if p.raw != p.value {
			last = FormatNs(p.raw) + " as measured, " + last + " after the machine's speed shift"
		}
	}
	lo, hi := 0.0, 0.0
	for i, p := range stored {
		if i == 0 || p.value < lo {
			lo = p.value
		}
		if i == 0 || p.value > hi {
			hi = p.value
		}
	}
	s := fmt.Sprintf("<sub>%s: %s to %s over %s", CellName(name), FormatNs(lo), FormatNs(hi), human.Plural(len(stored), "stored run", "stored runs"))
	if last != "" {
		s += "; this run " + last
	}
	return s + ".</sub>"
}
