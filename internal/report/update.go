package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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
// history, those this push is the first to see first; the counts' creep;
// a trend chart of every series that moved (a change point or a creep),
// or when nothing did a compact chart of the headline series, so the
// page is never empty, and a compact table of the rest; the run's table.
func UpdatedMarkdown(in Input, line string) string {
	var b strings.Builder
	b.WriteString("### wirebench: baseline updated\n\n" + plainText(line) + "\n\n")
	b.WriteString(notesText(in))
	if a := in.ChangePoints; a != nil {
		b.WriteString(changePointSection(a, in.History))
		b.WriteString(creepSection(a, in.History))
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

// runText names the first run after a step: its commit, the pull
// requests it merged, and its date.
func runText(p history.ChangePoint) string {
	return runName(p.Run, p.Commit, p.PullRequests, p.Time)
}

// runName names a run of the history: its commit with the pull requests
// it merged, and its date; its number (1 the oldest stored) without
// them.
func runName(run int, commit string, prs []int, t time.Time) string {
	var parts []string
	if c := shortSHA(commit); c != "" {
		parts = append(parts, c+prText(prs))
	} else if len(prs) > 0 {
		parts = append(parts, strings.TrimPrefix(prText(prs), " "))
	}
	if !t.IsZero() {
		parts = append(parts, t.UTC().Format("2006-01-02"))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("run %d", run+1)
	}
	return strings.Join(parts, ", ")
}

// prText is " (#12, #13)" for the pull requests prs, "" for none.
func prText(prs []int) string {
	if len(prs) == 0 {
		return ""
	}
	s := make([]string, len(prs))
	for i, n := range prs {
		s[i] = fmt.Sprintf("#%d", n)
	}
	return " (" + strings.Join(s, ", ") + ")"
}

// runCell is runText for a table cell: the commit and date escaped, the
// pull requests' numbers (wirebench's own) left to link.
func runCell(p history.ChangePoint) string {
	return strings.ReplaceAll(escapeCell(runText(p)), "#&#8203;", "#")
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
	method := historyMethod(a)
	newOnes := a.NewPoints()
	switch {
	case len(a.Points) == 0 && !anyVaries(a):
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
	b.WriteString("| | Benchmark | Metric | Step | Before → after | First run after | Found by | Explained by |\n|:--|:--|:--|--:|--:|:--|:--|:--|\n")
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
		b.WriteString(fmt.Sprintf("| %s | %s | %s | %s | %s → %s | %s | %s | %s |\n", mark, cellName(p.Key), escapeCell(p.Unit), stepText(p),
			FormatValue(p.Before, p.Unit), FormatValue(p.After, p.Unit), runCell(p), foundBy(p), why))
	}
	b.WriteString("\n")
	return b.String()
}

// anyVaries reports whether a series of a varies.
func anyVaries(a *history.Analysis) bool {
	for _, s := range a.Series {
		if s.Varies() {
			return true
		}
	}
	return false
}

// historyMethod says how each kind of series was searched, for the kinds
// the history holds, and what the family's level means.
func historyMethod(a *history.Analysis) string {
	models := a.Models()
	var parts []string
	if c := models[history.Exact]; c[0] > 0 {
		parts = append(parts, fmt.Sprintf("Sizes and exact allocation counts (%s): any change between two runs is a step, found on the push that made it.",
			human.Plural(c[0], "series", "series")))
	}
	if c := models[history.Counted]; c[0] > 0 {
		parts = append(parts, fmt.Sprintf("Counts (%s): each run tested as it arrives against the runs since the last step (Student's t on their spread, at least their processes'), a step beyond the %s floor found by the first run after it when the counts' noise cannot explain it, else by the second or a later one; each test at level %.2g.",
			human.Plural(c[0], "series", "series"), human.Percent(a.Floor), a.CountedLevel))
	}
	if c := models[history.EDivisive]; c[0] > 0 {
		parts = append(parts, fmt.Sprintf("Timings and the other metrics (%s): E-divisive means with a permutation test over the %s (one point a run), each series at level %.2g, found from the 3rd to 5th run after a step.",
			human.Plural(c[0], "series", "series"), human.Plural(a.Runs, "run", "runs"), a.Level))
	}
	if a.Varying > 0 {
		parts = append(parts, fmt.Sprintf("The %s of the tested kinds that vary share alpha %g, so that the chance of any false change point or creep on a push is below it.",
			human.Plural(a.Varying, "series", "series"), a.Alpha))
	}
	return strings.Join(parts, " ")
}

// foundBy says how a change point was found.
func foundBy(p history.ChangePoint) string {
	switch p.Model {
	case history.Exact:
		return "exact: the value changed"
	case history.Counted:
		if p.Runs == 1 {
			return fmt.Sprintf("count: the first run after it (p %.2g)", p.P)
		}
		return fmt.Sprintf("count: two runs after it (p %.2g)", p.P)
	}
	return fmt.Sprintf("E-divisive (p %.2g)", p.P)
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

// historyTrendSection draws a line chart of every series that moved (a
// change point, largest step first, with the medians of its stretches;
// a creep, over its window), and when nothing moved a compact chart of
// the headline series, so that the page always shows the trends; it
// lists every other series compactly.
func historyTrendSection(a *history.Analysis, h []baseline.Entry) string {
	moved := map[string]float64{}
	for _, p := range a.Points {
		id := p.Key + "\x00" + p.Unit
		moved[id] = max(moved[id], math.Abs(math.Log1p(p.Step)))
	}
	creeps := map[string]history.Creep{}
	if a.Creep != nil {
		for _, c := range a.Creep.Found {
			creeps[c.Key+"\x00"+c.Unit] = c
		}
	}
	var charted, crept, rest []history.Series
	for _, s := range a.Series {
		id := s.Key + "\x00" + s.Unit
		_, stepped := moved[id]
		_, creeping := creeps[id]
		if creeping {
			crept = append(crept, s)
		}
		if stepped {
			charted = append(charted, s)
		}
		if !stepped && !creeping {
			rest = append(rest, s)
		}
	}
	slices.SortStableFunc(charted, func(x, y history.Series) int {
		return cmp.Compare(moved[y.Key+"\x00"+y.Unit], moved[x.Key+"\x00"+x.Unit])
	})
	slices.SortStableFunc(crept, func(x, y history.Series) int {
		return cmpMagnitude(creeps[y.Key+"\x00"+y.Unit].Change, creeps[x.Key+"\x00"+x.Unit].Change)
	})
	var b strings.Builder
	b.WriteString("#### Trends\n\n")
	drawn := 0
	switch {
	case len(charted)+len(crept) == 0:
		b.WriteString(fmt.Sprintf("Nothing moved over the %s of the history: no change point%s.\n\n", human.Plural(a.Runs, "run", "runs"), map[bool]string{true: " and no creep", false: ""}[a.Creep != nil]))
		b.WriteString(headlineChart(a))
	default:
		if len(crept) > 0 {
			b.WriteString(fmt.Sprintf("The %s that crept, over the runs of the creep:\n\n", human.Plural(len(crept), "count", "counts")))
			for _, s := range crept {
				if drawn == maxHistoryCharts {
					break
				}
				b.WriteString(creepChart(s, creeps[s.Key+"\x00"+s.Unit]) + "\n")
				drawn++
			}
		}
		if len(charted) > 0 {
			b.WriteString(fmt.Sprintf("The %s that stepped, oldest run first (run 1 is the oldest stored): blue, each run's median; red, the median of each stretch between change points. The numbers are in the tables.\n\n",
				human.Plural(len(charted), "series", "series")))
			for _, s := range charted {
				if drawn == maxHistoryCharts {
					break
				}
				b.WriteString(historyChart(s, a.ChangeIndexes(s)) + "\n")
				drawn++
			}
		}
		if n := len(charted) + len(crept) - drawn; n > 0 {
			b.WriteString(fmt.Sprintf("_%s not drawn: see the tables above and the PNG charts in the results._\n\n", human.Plural(n, "more series that moved is", "more series that moved are")))
		}
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

// maxHeadlines is how many series the chart of a quiet history draws.
const maxHeadlines = 4

// headlinePalette colours the headline chart's lines: GitHub's blue,
// green, yellow and purple.
var headlinePalette = []string{"#0969da", "#1a7f37", "#bf8700", "#8250df"}

// headlineChart draws, when nothing moved, the headline series on one
// chart as their change from their first stored run, in percent: the
// series of the unit that speed is measured in (a count where there is
// one, else ns/op, else the unit most series have) that moved most from
// their first run to their latest, within their noise; "" when no
// series has two runs.
func headlineChart(a *history.Analysis) string {
	byUnit := map[string]int{}
	for _, s := range a.Series {
		if len(s.Values) >= 2 {
			byUnit[s.Unit]++
		}
	}
	unit, best := "", -1
	for u, n := range byUnit {
		rank := n
		switch {
		case u == results.UnitInstructionsPerOp:
			rank += 3000
		case results.IsCounted(u):
			rank += 2000
		case u == results.UnitNsPerOp:
			rank += 1000
		}
		if rank > best || rank == best && u < unit {
			unit, best = u, rank
		}
	}
	if unit == "" {
		return ""
	}
	var cands []history.Series
	for _, s := range a.Series {
		if s.Unit == unit && len(s.Values) >= 2 && s.Values[0] > 0 {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	drift := func(s history.Series) float64 { return math.Abs(math.Log(s.Values[len(s.Values)-1] / s.Values[0])) }
	slices.SortStableFunc(cands, func(x, y history.Series) int { return cmp.Compare(drift(y), drift(x)) })
	cands = cands[:min(len(cands), maxHeadlines)]
	// One x a run of the history that measured any of them.
	var runs []int
	for _, s := range cands {
		runs = append(runs, s.Runs...)
	}
	slices.Sort(runs)
	runs = slices.Compact(runs)
	labels := make([]string, len(runs))
	for i, r := range runs {
		labels[i] = strconv.Itoa(r + 1)
	}
	lines := make([][]float64, len(cands))
	lo, hi := 0.0, 0.0
	for k, s := range cands {
		v, j := make([]float64, len(runs)), 0
		last := 0.0
		for i, r := range runs {
			for j < len(s.Runs) && s.Runs[j] < r {
				j++
			}
			if j < len(s.Runs) && s.Runs[j] == r {
				last = round4(100 * (s.Values[j]/s.Values[0] - 1))
			}
			v[i] = last // a run that did not measure it keeps the value before
			lo, hi = math.Min(lo, last), math.Max(hi, last)
		}
		lines[k] = v
	}
	span := math.Max(hi-lo, 0.2)
	var b strings.Builder
	fmt.Fprintf(&b, "The %s of %s that moved most since their first stored run, as a change from it (none of it a change point):\n\n",
		human.Plural(len(cands), "series", "series"), escapeCell(unit))
	b.WriteString("```mermaid\n---\nconfig:\n  xyChart:\n    width: 700\n    height: 240\n")
	b.WriteString("  themeVariables:\n    xyChart:\n      plotColorPalette: \"" + strings.Join(headlinePalette[:len(cands)], ", ") + "\"\n---\n")
	b.WriteString("xychart-beta\n")
	fmt.Fprintf(&b, "    title %q\n", chartLabelLong("Headline series: "+unit+", change since the first run"))
	fmt.Fprintf(&b, "    x-axis %s\n", quoteList(labels))
	fmt.Fprintf(&b, "    y-axis \"%%\" %s --> %s\n", chartNum(round4(lo-span*0.3)), chartNum(round4(hi+span*0.3)))
	for _, l := range lines {
		fmt.Fprintf(&b, "    line %s\n", numList(l))
	}
	b.WriteString("```\n")
	names := []string{"blue", "green", "yellow", "purple"}
	var legend []string
	for k, s := range cands {
		legend = append(legend, fmt.Sprintf("%s, %s (%s → %s, %s)", names[k], cellName(s.Key), FormatValue(s.Values[0], s.Unit),
			FormatValue(s.Values[len(s.Values)-1], s.Unit), human.Change(s.Values[len(s.Values)-1]/s.Values[0]-1, 2)))
	}
	fmt.Fprintf(&b, "<sub>%s.</sub>\n\n", strings.Join(legend, "; "))
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
