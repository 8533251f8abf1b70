package report

import (
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// RunMarkdown is the Markdown of a run that compared nothing: a heading,
// the notes, and the run's table in a code block.
func RunMarkdown(title string, notes []string, r *results.Results) string {
	var b strings.Builder
	b.WriteString("### " + escapeInline(title) + "\n\n")
	for _, n := range notes {
		b.WriteString(n + "\n\n")
	}
	b.WriteString("```\n")
	RunTable(&b, r)
	b.WriteString("```\n")
	return b.String()
}

// UpdatedMarkdown is the Markdown of a baseline refresh: what was stored
// where, and the run's table.
func UpdatedMarkdown(line string, r *results.Results) string {
	var b strings.Builder
	b.WriteString("### wirebench: baseline updated\n\n" + line + "\n\n```\n")
	RunTable(&b, r)
	b.WriteString("```\n")
	return b.String()
}
