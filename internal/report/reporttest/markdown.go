// Package reporttest holds what the tests of the reports share
// (internal/report's comparison report, internal/updatereport's): checks
// that Markdown renders as GitHub would render it, and the default
// suite's stored history as a fixture.
package reporttest

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// RenderGFM renders Markdown as GitHub would, near enough: GFM tables,
// strikethrough, autolinks, and raw HTML (details) passed through.
func RenderGFM(t testing.TB, md string) string {
	t.Helper()
	var b bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var delimiterRow = regexp.MustCompile(`(?m)^\|(:?-+:?\|)+$`)

// CheckMarkdown renders md as GitHub would (near enough) and checks what
// a report must keep: its tables as tables with as many cells a row as
// the header (an unescaped pipe in a name would add one), its collapsed
// blocks closed, its Mermaid fences as code blocks of valid xychart
// syntax, and no markup from a benchmark's name.
func CheckMarkdown(t testing.TB, md string) {
	t.Helper()
	out := RenderGFM(t, md)
	tables := len(delimiterRow.FindAllString(md, -1))
	if got := strings.Count(out, "<table>"); got != tables {
		t.Errorf("%d tables in the Markdown render as %d <table>", tables, got)
	}
	if tables > 0 && strings.Contains(out, "<p>| ") {
		t.Errorf("a table row rendered as a paragraph:\n%s", Excerpt(out, "<p>| "))
	}
	for _, s := range []string{md, out} {
		if o, c := strings.Count(s, "<details>"), strings.Count(s, "</details>"); o != c {
			t.Errorf("%d <details> but %d </details>", o, c)
		}
	}
	// Every table's rows have as many cells as its header: an
	// unescaped pipe in a name would add one.
	CheckTableCells(t, out)
	if fences, blocks := strings.Count(md, "```mermaid\n"), strings.Count(out, `<code class="language-mermaid">`); fences != blocks {
		t.Errorf("%d mermaid fences render as %d code blocks", fences, blocks)
	}
	for _, forbidden := range []string{"<script>", "<del>", `<a href="b"`, "<em>y</em>", "<h1>"} {
		if strings.Contains(out, forbidden) {
			t.Errorf("a benchmark name leaked markup %s:\n%s", forbidden, Excerpt(out, forbidden))
		}
	}
	Charts(t, md)
}

// Charts returns the contents of md's ```mermaid fences, each checked
// with CheckXYChart.
func Charts(t testing.TB, md string) []string {
	t.Helper()
	blocks := MermaidBlocks(md)
	for _, block := range blocks {
		if err := CheckXYChart(block); err != nil {
			t.Errorf("mermaid: %v\n%s", err, block)
		}
	}
	return blocks
}

// Excerpt is the text around the first at in s, for a failure message.
func Excerpt(s, at string) string {
	i := strings.Index(s, at)
	return s[max(0, i-200):min(len(s), i+200)]
}

var rowRE = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)

// CheckTableCells checks that every row of every table of the HTML out
// has as many cells as its header.
func CheckTableCells(t testing.TB, out string) {
	t.Helper()
	for _, tbl := range strings.Split(out, "<table>")[1:] {
		tbl = tbl[:strings.Index(tbl, "</table>")]
		want := -1
		for _, m := range rowRE.FindAllStringSubmatch(tbl, -1) {
			n := strings.Count(m[1], "<th") + strings.Count(m[1], "<td")
			if want < 0 {
				want = n
			} else if n != want {
				t.Errorf("a row has %d cells, the header %d: %s", n, want, m[1])
			}
		}
	}
}

// MermaidBlocks returns the contents of the ```mermaid fences.
func MermaidBlocks(md string) []string {
	var out []string
	for _, part := range strings.Split(md, "```mermaid\n")[1:] {
		out = append(out, part[:strings.Index(part, "```")])
	}
	return out
}

var (
	xyTitle  = regexp.MustCompile(`^    title "([^"]*)"$`)
	xyXAxis  = regexp.MustCompile(`^    x-axis \[("[^"]*"(?:, "[^"]*")*)\]$`)
	xyYAxis  = regexp.MustCompile(`^    y-axis "([^"]*)" (-?[0-9.]+) --> (-?[0-9.]+)$`)
	xySeries = regexp.MustCompile(`^    (bar|line) \[(-?[0-9.]+(?:, -?[0-9.]+)*)\]$`)
	xyLabel  = regexp.MustCompile(`^[A-Za-z0-9 ./=+\-:()%,_…]+$`)
)

// CheckXYChart checks the xychart-beta syntax wirebench emits, and what
// Mermaid would silently get wrong: series as long as the x axis, distinct
// categories, values inside the y range.
func CheckXYChart(block string) error {
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if len(lines) > 0 && lines[0] == "---" {
		end := slices.Index(lines[1:], "---")
		if end < 0 {
			return fmt.Errorf("front matter not closed")
		}
		for _, l := range lines[1 : end+1] {
			if !regexp.MustCompile(`^( {2})*[A-Za-z]+: ?("[^"]*"|[0-9]+|true|false)?$`).MatchString(l) {
				return fmt.Errorf("front matter line %q", l)
			}
		}
		lines = lines[end+2:]
	}
	if len(lines) == 0 || (lines[0] != "xychart-beta" && lines[0] != "xychart-beta horizontal") {
		return fmt.Errorf("first line %q, want xychart-beta [horizontal]", lines[0])
	}
	var cats []string
	var lo, hi float64
	var series [][]float64
	seen := map[string]int{}
	for _, l := range lines[1:] {
		switch {
		case xyTitle.MatchString(l):
			seen["title"]++
		case xyXAxis.MatchString(l):
			seen["x-axis"]++
			for _, c := range strings.Split(strings.Trim(xyXAxis.FindStringSubmatch(l)[1], `"`), `", "`) {
				if !xyLabel.MatchString(c) {
					return fmt.Errorf("category %q has characters Mermaid may misread", c)
				}
				if slices.Contains(cats, c) {
					return fmt.Errorf("category %q repeats", c)
				}
				cats = append(cats, c)
			}
		case xyYAxis.MatchString(l):
			seen["y-axis"]++
			m := xyYAxis.FindStringSubmatch(l)
			lo, _ = strconv.ParseFloat(m[2], 64)
			hi, _ = strconv.ParseFloat(m[3], 64)
			if !(lo < hi) {
				return fmt.Errorf("y range %v --> %v is empty", lo, hi)
			}
		case xySeries.MatchString(l):
			var v []float64
			for _, s := range strings.Split(xySeries.FindStringSubmatch(l)[2], ", ") {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
					return fmt.Errorf("value %q", s)
				}
				v = append(v, f)
			}
			series = append(series, v)
		default:
			return fmt.Errorf("line %q is not xychart-beta syntax wirebench emits", l)
		}
	}
	if seen["x-axis"] != 1 || seen["y-axis"] != 1 || seen["title"] > 1 || len(series) == 0 {
		return fmt.Errorf("want one x-axis, one y-axis, at most one title and a series; got %v and %d series", seen, len(series))
	}
	drawn := make([]int, len(cats))
	for _, s := range series {
		if len(s) != len(cats) {
			return fmt.Errorf("a series has %d values for %d categories", len(s), len(cats))
		}
		for i, v := range s {
			switch {
			case v == 0 && lo == 0:
				// Not drawn.
			case v < lo || v > hi:
				return fmt.Errorf("value %v outside the y range [%v, %v]", v, lo, hi)
			default:
				drawn[i]++
			}
		}
	}
	for i, n := range drawn {
		if n == 0 {
			return fmt.Errorf("category %q has no value drawn", cats[i])
		}
	}
	return nil
}
