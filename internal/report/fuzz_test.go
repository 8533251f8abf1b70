package report

import (
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"regexp"
	"strings"
	"testing"
)

// activeHTML is what escaped text must never render to: a tag other than
// the table's own, an HTML comment, a mention or an e-mail or web address
// (a login character right after "@", a scheme's "://" or "www.").
var activeHTML = regexp.MustCompile(`<(?:[a-zA-Z!/]|$)|@[\p{L}\p{N}_-]|://|(?i:www)\.`)

// FuzzEscapeCell renders arbitrary text, escaped, in a table cell and in
// a note, as GitHub would (near enough): the table keeps one cell a row,
// and nothing in it is active. Run with:
// go test -fuzz FuzzEscapeCell ./internal/report
func FuzzEscapeCell(f *testing.F) {
	for _, s := range []string{"@octocat", "https://evil.example/x", "<img src=x onerror=alert(1)>", "<!-- hide", "a|b`c`", "www.x.y", "x@y.z", "#1 [a](b)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, md := range map[string]string{
			"cell": "| h |\n|:--|\n| " + EscapeCell(s) + " |\n",
			"note": NotesList([]string{s}, nil),
		} {
			html := reporttest.RenderGFM(t, md)
			body := strings.NewReplacer("<table>", "", "</table>", "", "<thead>", "", "</thead>", "", "<tbody>", "", "</tbody>", "",
				"<tr>", "", "</tr>", "", `<th style="text-align:left">`, "", "</th>", "", `<td style="text-align:left">`, "", "</td>", "",
				"<ul>", "", "</ul>", "", "<li>", "", "</li>", "", "<code>", "", "</code>", "", "<p>", "", "</p>", "").Replace(html)
			if m := activeHTML.FindString(body); m != "" && !insideCode(html, s) {
				t.Fatalf("%s: %q renders with %q active:\n%s", name, s, m, html)
			}
			if name == "cell" && strings.Count(html, "<td") > 1 {
				t.Fatalf("%q splits the cell:\n%s", s, html)
			}
		}
	})
}

// insideCode reports whether the note s has a code span, where text is
// inert by nature however it reads.
func insideCode(html, s string) bool {
	return strings.Contains(html, "<code>") && strings.Count(s, "`") >= 2
}
