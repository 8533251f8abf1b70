package report

import (
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"
	"unicode/utf8"
)

// firstScreen measures what a reader sees of a Markdown comment with every
// <details> block closed: the characters (as GitHub counts them) of the
// non-blank lines before the first table in sight (all of them when no
// table is in sight), and the non-blank lines in sight (a <details> line
// counts once: its summary shows).
func firstScreen(md string) (prose, lines int) {
	depth, table := 0, false
	for _, l := range strings.Split(md, "\n") {
		if depth == 0 && strings.TrimSpace(l) != "" {
			lines++
			if strings.HasPrefix(l, "|") {
				table = true
			}
			if !table && !strings.HasPrefix(l, "#### ") {
				prose += utf8.RuneCountInString(l)
			}
		}
		depth += strings.Count(l, "<details>") - strings.Count(l, "</details>")
	}
	return prose, lines
}

// TestFirstScreen: a comment leads with its headline, one sentence of
// verdict and the changed rows (at most 400 characters before the first
// table); with nothing changed it is at most 12 lines in sight; the
// method, the tests and the environment are folded.
func TestFirstScreen(t *testing.T) {
	tests := []struct {
		name    string
		in      outcome.Report
		changed bool
	}{
		{"timed regressions", typicalInput(), true},
		{"counted regressions", outcome.Report{Result: whereResult()}, true},
		{"not failing", outcome.Report{Result: mixedResult()}, true},
		{"paired", outcome.Report{Result: pairedResult(false)}, true},
		{"paired, noisy", outcome.Report{Result: pairedResult(true)}, true},
		{"nothing changed", unchangedInput(), false},
		{"inconclusive", resultInput(inconclusiveResult()), false},
		{"short history", resultInput(shortHistoryResult()), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := Markdown(tt.in, Options{})
			prose, lines := firstScreen(md)
			t.Logf("%d characters before the first table, %d lines in sight", prose, lines)
			if tt.changed && prose > 400 {
				t.Errorf("%d characters before the first table, want at most 400:\n%s", prose, md[:min(len(md), 1200)])
			}
			if !tt.changed && lines > 12 {
				t.Errorf("%d lines in sight, want at most 12", lines)
			}
			for _, folded := range []string{"Holm", "| GOOS/GOARCH |", "callgrind"} {
				if i := strings.Index(md, folded); i >= 0 && !insideDetails(md[:i]) {
					t.Errorf("%q is in sight; it belongs folded", folded)
				}
			}
		})
	}
}

// insideDetails reports whether the text after prefix is inside a
// <details> block.
func insideDetails(prefix string) bool {
	return strings.Count(prefix, "<details>") > strings.Count(prefix, "</details>")
}
