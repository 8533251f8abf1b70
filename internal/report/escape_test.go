package report

import (
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

func TestEscapeCell(t *testing.T) {
	const zw = zeroWidthSpace
	tests := []struct{ in, want string }{
		{"Serialize protobuf/small", "Serialize protobuf/small"},
		{"@octocat", "@" + zw + "octocat"},
		{"ping @org/team please", "ping @" + zw + "org/team please"},
		{"a@b.example", "a@" + zw + "b.example"},
		{"CPU @ 2.80GHz", "CPU @ 2.80GHz"}, // no login follows: left alone
		{"https://evil.example/x", "https:" + zw + "//evil.example/x"},
		{"see www.evil.example", "see www" + zw + ".evil.example"},
		{"WWW.EVIL.EXAMPLE", "WWW" + zw + ".EVIL.EXAMPLE"},
		{"fixes #123", "fixes #" + zw + "123"},
		{"# heading", "\\# heading"},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
		{"<!-- hide the rest", "&lt;\\!-- hide the rest"},
		{"a|b", "a\\|b"},
		{"two\nlines\rand\ttab", "two lines and tab"},
		{"[x](y) *b* _i_ ~s~ `c` $m$ !", "\\[x\\](y) \\*b\\* \\_i\\_ \\~s\\~ \\`c\\` \\$m\\$ \\!"},
	}
	for _, tt := range tests {
		if got := EscapeCell(tt.in); got != tt.want {
			t.Errorf("EscapeCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Run `update` on the default branch.", "Run `update` on the default branch."},
		{"two\n  lines", "two lines"},
		{"an odd ` backtick", "an odd \\` backtick"},
		{"`a` and `b", "`a` and \\`b"},
		{"code keeps `<img src=x>` inert", "code keeps `<img src=x>` inert"},
		{"text @octocat <!-- x", "text @" + zeroWidthSpace + "octocat &lt;\\!-- x"},
		{"``", ""},
		{"--", "\\--"},             // not a thematic break
		{"+ nested", "\\+ nested"}, // not a nested list
		{"== x", "\\== x"},         // not a setext underline
		{"12. item", "12\\. item"}, // not an ordered list
		{"3) item", "3\\) item"},
		{"2026 was a year", "2026 was a year"},
	}
	for _, tt := range tests {
		if got := PlainText(tt.in); got != tt.want {
			t.Errorf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNotes: notes are plain text and escaped, MarkdownNotes (wirebench's
// own) are shown as written; in a run's report the notes are escaped too.
func TestNotes(t *testing.T) {
	in := firstRunInput()
	in.Notes = []string{"worker said <!-- @octocat"}
	in.MarkdownNotes = []string{"see **the docs**"}
	md := Markdown(in, Options{})
	if !strings.Contains(md, "- worker said &lt;\\!-- @"+zeroWidthSpace+"octocat\n- see **the docs**\n") {
		t.Errorf("notes not rendered as expected:\n%s", reporttest.Excerpt(md, "worker said"))
	}
	run := RunMarkdown("t", []string{"<img src=x>"}, in.Candidate)
	if strings.Contains(run, "<img") || !strings.Contains(run, "&lt;img src=x&gt;") {
		t.Errorf("run report shows a note unescaped:\n%s", run)
	}
}

func TestCodeBlock(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a\n", "```\na\n```\n"},
		{"a", "```\na\n```\n"},
		{"```\nescape", "````\n```\nescape\n````\n"},
		{"x ````` y\n", "``````\nx ````` y\n``````\n"},
	} {
		if got := codeBlock(tt.in); got != tt.want {
			t.Errorf("codeBlock(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHostileReport: a report whose benchmark names and notes carry a
// mention, a URL, an image, an unclosed HTML comment and a workflow
// command renders with none of them active and nothing hidden.
func TestHostileReport(t *testing.T) {
	r := mixedResult()
	hostile := []string{"Benchmark@octocat", "Benchmarkhttps://evil.example/x", "Benchmark<img src=x onerror=alert(1)>", "Benchmark<!--", "Benchmark\n::error::pwned"}
	for i := range r.Comparisons {
		r.Comparisons[i].Name = hostile[i%len(hostile)]
	}
	note := "not possible: @octocat https://evil.example/x <img src=x onerror=alert(1)> <!--\n::error::pwned"
	for name, md := range map[string]string{
		"comparison": Markdown(outcome.Report{Result: r, Notes: []string{note}}, Options{}),
		"first run":  Markdown(outcome.Report{Candidate: results.New("", results.Env{}), Notes: []string{note}}, Options{}),
	} {
		html := reporttest.RenderGFM(t, md)
		for _, active := range []string{"<img", "<!--", `href="https://evil`, "@octocat"} {
			if strings.Contains(html, active) {
				t.Errorf("%s: %q survives in active form:\n%s", name, active, reporttest.Excerpt(html, active))
			}
		}
		for _, shown := range []string{"octocat", "evil.example/x", "onerror=alert(1)", "pwned"} {
			if !strings.Contains(html, shown) {
				t.Errorf("%s: %q is not shown", name, shown)
			}
		}
	}
}
