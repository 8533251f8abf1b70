package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// maxHistoryCharts bounds the trend charts of an update's report: the
// series that moved most come first, the rest are in the table.
const maxHistoryCharts = 8

// UpdatedMarkdown is the Markdown of a baseline refresh, where people
// already look after a merge (the push's job summary): what was stored
// where and the notes (plain text, escaped); the change points of the
// history, those this push is the first to see first; a trend chart of
// every series that moved (a change point) and a compact table of the
// rest; the run's table.
func UpdatedMarkdown(in Input, line string) string {
	var b strings.Builder
	b.WriteString("### wirebench: baseline updated\n\n" + plainText(line) + "\n\n")
	b.WriteString(notesText(in))
	if a := in.ChangePoints; a != nil {
		b.WriteString(changePointSection(a, in.History))
		b.WriteString(historyTrendSection(a, in.History))
	}
	b.WriteString(detailsOpen("This run") + runBlock(in.Candidate) + detailsClose)
	return b.String()
}

// ChangePointLine describes a change point in one line of plain text
// (for annotations and the terminal): the benchmark, the step, the first
// run after it, and what explains it.
func ChangePointLine(p history.ChangePoint) string {
	s := fmt.Sprintf("%s %s stepped %s (%s → %s) at %s, the first run after the step",
		ShortName(p.Key), p.Unit, stepText(p), FormatValue(p.Before, p.Unit), FormatValue(p.After, p.Unit), runText(p))
	return s + "; " + explanation(p)
}

func stepText(p history.ChangePoint) string {
	if math.IsInf(p.Step, 1) {
		return "from 0"
	}
	return human.Change(p.Step, 1)
}

// runText names the first run after a step: its commit and date.
func runText(p history.ChangePoint) string {
	var parts []string
	if c := shortSHA(p.Commit); c != "" {
		parts = append(parts, c)
	}
	if !p.Time.IsZero() {
		parts = append(parts, p.Time.UTC().Format("2006-01-02"))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("run %d", p.Run+1)
	}
	return strings.Join(parts, ", ")
}

// explanation says what explains a step, or that nothing does.
func explanation(p history.ChangePoint) string {
	var why []string
	if a := p.Accepted; a != nil {
		why = append(why, "accepted: "+a.String())
	}
	if len(p.Environment) > 0 {
		why = append(why, "the environment changed: "+strings.Join(p.Environment, ", "))
	}
	if len(why) == 0 {
		return "unexplained (no acceptance recorded with that run, the same environment)"
	}
	return strings.Join(why, "; ")
}

// changePointSection lists the change points of the history, new ones
// first.
func changePointSection(a *history.Analysis, h []baseline.Entry) string {
	var b strings.Builder
	b.WriteString("#### Change points in the history\n\n")
	method := fmt.Sprintf("E-divisive means with a permutation test over the %s of the history (one point a run), each of the %s that vary tested at level %.2g, so that the chance of any false change point on a push is below %g.",
		human.Plural(a.Runs, "run", "runs"), human.Plural(a.Varying, "series", "series"), a.Level, a.Alpha)
	newOnes := a.NewPoints()
	switch {
	case a.Varying == 0:
		b.WriteString(fmt.Sprintf("No change point: no benchmark's metric varied over the %s of the history.\n\n", human.Plural(a.Runs, "run", "runs")))
		return b.String()
	case len(a.Points) == 0:
		b.WriteString("No change point. " + method + "\n\n")
		return b.String()
	case len(newOnes) == 0:
		b.WriteString(fmt.Sprintf("No new change point on this push; %s known in the history (below). %s\n\n", human.Plural(len(a.Points), "change point is", "change points are"), method))
	default:
		unexplained := 0
		for _, p := range newOnes {
			if !p.Explained() {
				unexplained++
			}
		}
		b.WriteString(fmt.Sprintf("> 🆕 **%s** on this push (%s unexplained). %s\n\n",
			human.Plural(len(newOnes), "new change point", "new change points"), human.Count(unexplained), method))
	}
	b.WriteString("| | Benchmark | Metric | Step | Before → after | First run after | Explained by |\n|:--|:--|:--|--:|--:|:--|:--|\n")
	points := slices.Clone(a.Points)
	slices.SortStableFunc(points, func(x, y history.ChangePoint) int {
		if x.New != y.New {
			return boolOrder(x.New)
		}
		return cmpMagnitude(y.Step, x.Step)
	})
	for _, p := range points {
		mark := ""
		if p.New {
			mark = "🆕"
		}
		why := "–"
		if p.Explained() {
			why = escapeCell(explanation(p))
		}
		b.WriteString(fmt.Sprintf("| %s | %s | %s | %s | %s → %s | %s | %s |\n", mark, cellName(p.Key), escapeCell(p.Unit), stepText(p),
			FormatValue(p.Before, p.Unit), FormatValue(p.After, p.Unit), escapeCell(runText(p)), why))
	}
	b.WriteString("\n")
	return b.String()
}

func boolOrder(first bool) int {
	if first {
		return -1
	}
	return 1
}

// cmpMagnitude orders steps by their size, log-symmetric.
func cmpMagnitude(a, b float64) int {
	ma, mb := math.Abs(math.Log1p(a)), math.Abs(math.Log1p(b))
	switch {
	case math.IsNaN(ma) || ma < mb:
		return -1
	case ma > mb:
		return 1
	}
	return 0
}

// historyTrendSection draws a line chart of every series that moved (has
// a change point), largest step first, with the medians of its segments,
// and lists every other series compactly.
func historyTrendSection(a *history.Analysis, h []baseline.Entry) string {
	moved := map[string]float64{}
	for _, p := range a.Points {
		id := p.Key + "\x00" + p.Unit
		moved[id] = max(moved[id], math.Abs(math.Log1p(p.Step)))
	}
	var charted, rest []history.Series
	for _, s := range a.Series {
		if _, ok := moved[s.Key+"\x00"+s.Unit]; ok {
			charted = append(charted, s)
		} else {
			rest = append(rest, s)
		}
	}
	slices.SortStableFunc(charted, func(x, y history.Series) int {
		return cmp.Compare(moved[y.Key+"\x00"+y.Unit], moved[x.Key+"\x00"+x.Unit])
	})
	var b strings.Builder
	b.WriteString("#### Trends\n\n")
	if len(charted) == 0 {
		b.WriteString(fmt.Sprintf("Nothing moved over the %s of the history.\n\n", human.Plural(a.Runs, "run", "runs")))
	} else {
		b.WriteString(fmt.Sprintf("The %s that moved, oldest run first (run 1 is the oldest stored): blue, each run's median; red, the median of each stretch between change points. The numbers are in the tables.\n\n",
			human.Plural(len(charted), "series", "series")))
	}
	for i, s := range charted {
		if i == maxHistoryCharts {
			b.WriteString(fmt.Sprintf("_%s not drawn: see the change points above and the PNG charts in the results._\n\n", human.Plural(len(charted)-maxHistoryCharts, "more series that moved is", "more series that moved are")))
			break
		}
		b.WriteString(historyChart(s, a.ChangeIndexes(s)) + "\n")
	}
	if len(rest) > 0 {
		b.WriteString(detailsOpen(fmt.Sprintf("%s without a change point", human.Plural(len(rest), "series", "series"))))
		b.WriteString("| Benchmark | Metric | Runs | Latest | Median | Range |\n|:--|:--|--:|--:|--:|--:|\n")
		for _, s := range rest {
			lo, hi := slices.Min(s.Values), slices.Max(s.Values)
			b.WriteString(fmt.Sprintf("| %s | %s | %d | %s | %s | %s |\n", cellName(s.Key), escapeCell(s.Unit), len(s.Values),
				FormatValue(s.Values[len(s.Values)-1], s.Unit), FormatValue(median(s.Values), s.Unit), rangeText(lo, hi, s.Unit)))
		}
		b.WriteString(detailsClose)
	}
	return b.String()
}

// rangeText is "1.20 µs – 1.31 µs", or the one value when they agree.
func rangeText(lo, hi float64, unit string) string {
	if lo == hi {
		return "= " + FormatValue(lo, unit)
	}
	return FormatValue(lo, unit) + " – " + FormatValue(hi, unit)
}

// historyChart draws a series over the history's runs as a Mermaid line
// chart with a second line for the medians of its stretches between the
// change points at, and a line of text with its numbers.
func historyChart(s history.Series, at []int) string {
	div, unit := 1.0, s.Unit
	hi := slices.Max(s.Values)
	if s.Unit == results.UnitNsPerOp {
		div, unit = timeScale(hi)
	}
	labels := make([]string, len(s.Values))
	vals := make([]float64, len(s.Values))
	fit := make([]float64, len(s.Values))
	bounds := append(append([]int{0}, at...), len(s.Values))
	for k := 0; k+1 < len(bounds); k++ {
		m := median(s.Values[bounds[k]:bounds[k+1]])
		for i := bounds[k]; i < bounds[k+1]; i++ {
			fit[i] = round4(m / div)
		}
	}
	for i, v := range s.Values {
		labels[i] = strconv.Itoa(s.Runs[i] + 1)
		vals[i] = round4(v / div)
	}
	lo := slices.Min(s.Values)
	span := max(hi-lo, 0.1*hi)
	yLo, yHi := round4(max(0, lo-span*0.3)/div), round4((hi+span*0.3)/div)
	var b strings.Builder
	b.WriteString("```mermaid\n---\nconfig:\n  xyChart:\n    width: 700\n    height: 260\n")
	b.WriteString("  themeVariables:\n    xyChart:\n      plotColorPalette: \"" + trendPalette + ", " + stepColour + "\"\n---\n")
	b.WriteString("xychart-beta\n")
	fmt.Fprintf(&b, "    title %q\n", chartLabelLong(chartName(s.Key)+" "+s.Unit))
	fmt.Fprintf(&b, "    x-axis %s\n", quoteList(labels))
	fmt.Fprintf(&b, "    y-axis %q %s --> %s\n", chartLabelLong(unit), chartNum(yLo), chartNum(yHi))
	fmt.Fprintf(&b, "    line %s\n", numList(vals))
	fmt.Fprintf(&b, "    line %s\n", numList(fit))
	b.WriteString("```\n")
	var steps []string
	for k := 1; k+1 < len(bounds); k++ {
		steps = append(steps, fmt.Sprintf("run %d: %s → %s", s.Runs[bounds[k]]+1,
			FormatValue(median(s.Values[bounds[k-1]:bounds[k]]), s.Unit), FormatValue(median(s.Values[bounds[k]:bounds[k+1]]), s.Unit)))
	}
	fmt.Fprintf(&b, "<sub>%s %s over %s: %s; %s.</sub>\n", cellName(s.Key), escapeCell(s.Unit), human.Plural(len(s.Values), "run", "runs"),
		rangeText(lo, hi, s.Unit), escapeCell(strings.Join(steps, "; ")))
	return b.String()
}

// stepColour is the fitted steps' line: GitHub's red.
const stepColour = "#cf222e"
