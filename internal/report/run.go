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

// BrokenMarkdown is the Markdown of a check that could not measure what it
// had to: the headline, what failed and the cause's lines, escaped (they
// may come from the pull request's code), and the notes.
func BrokenMarkdown(title, what string, cause error, notes []string) string {
	var b strings.Builder
	b.WriteString("### ❌ " + escapeInline(what) + "\n\n")
	if title != "" {
		b.WriteString("**" + escapeInline(title) + "** — nothing was compared, so the check fails: a pull request whose code cannot be measured does not pass.\n\n")
	}
	if cause != nil {
		b.WriteString("<details open><summary>What went wrong</summary>\n\n")
		for _, line := range strings.Split(strings.TrimSpace(cause.Error()), "\n") {
			b.WriteString("    " + strings.ReplaceAll(line, "\t", "    ") + "\n")
		}
		b.WriteString("\n</details>\n\n")
	}
	b.WriteString(notesText(notes))
	return b.String()
}
