package report

import (
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// RunMarkdown is the Markdown of a run that compared nothing: a heading,
// the notes (plain text, escaped as outcome.Report.Notes are), and the run's table
// in a code block.
func RunMarkdown(title string, notes []string, r *results.Results) string {
	var b strings.Builder
	b.WriteString("### " + escapeInline(title) + "\n\n")
	for _, n := range notes {
		if n = PlainText(n); n != "" {
			b.WriteString(n + "\n\n")
		}
	}
	b.WriteString(RunBlock(r))
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
		// Escaped line by line rather than fenced: in a code block an
		// @mention is inert too, but escaping keeps the text readable and
		// safe wherever it is pasted.
		b.WriteString("What went wrong:\n\n")
		for _, line := range strings.Split(strings.TrimSpace(cause.Error()), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				b.WriteString("> " + escapeInline(line) + "\n>\n")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(NotesList(notes, nil))
	return b.String()
}

// RunBlock is the run's table as a fenced code block.
func RunBlock(r *results.Results) string {
	var t strings.Builder
	RunTable(&t, r)
	return codeBlock(t.String())
}

// codeBlock fences text as a code block with a fence longer than any run
// of backticks in it, so no line of the text (a benchmark name, a codec
// from a file) can close the block early and turn the rest into Markdown.
func codeBlock(text string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fence + "\n" + text + fence + "\n"
}
