package updatereport

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

// maxHistoryCharts bounds the trend charts of an update's report: the
// series that moved most come first, the rest are in the table.
const maxHistoryCharts = 8

// historyTrendSection draws a line chart of every series that moved (a
// change point, largest step first, with the medians of its stretches;
// a creep, over its window), and when nothing moved a compact chart of
// the headline series, so that the page always shows the trends; it
// lists every other series compactly.
func historyTrendSection(a *history.Analysis) string {
	g := groupSeries(a)
	var b strings.Builder
	b.WriteString("#### Trends\n\n")
	if len(g.stepped)+len(g.crept) == 0 {
		b.WriteString(fmt.Sprintf("Nothing moved over the %s of the history: no change point%s.\n\n", human.Plural(a.Runs, "run", "runs"), map[bool]string{true: " and no creep", false: ""}[a.Creep != nil]))
		b.WriteString(headlineChart(a))
	} else {
		b.WriteString(movedCharts(a, g))
	}
	if len(g.rest) > 0 {
		b.WriteString(restTable(g.rest))
	}
	return b.String()
}

// seriesGroups are a history's series by how they moved.
type seriesGroups struct {
	// stepped have a change point, the largest step first; crept a
	// creep (creeps, by seriesID), the largest first; rest neither.
	stepped, crept, rest []history.Series
	creeps               map[string]history.Creep
}

// seriesID identifies a series of a benchmark's metric.
func seriesID(key, unit string) string { return key + "\x00" + unit }

// groupSeries sorts a's series by how they moved.
func groupSeries(a *history.Analysis) seriesGroups {
	moved := map[string]float64{}
	for _, p := range a.Points {
		id := seriesID(p.Key, p.Unit)
		moved[id] = max(moved[id], math.Abs(math.Log1p(p.Step)))
	}
	g := seriesGroups{creeps: map[string]history.Creep{}}
	if a.Creep != nil {
		for _, c := range a.Creep.Found {
			g.creeps[seriesID(c.Key, c.Unit)] = c
		}
	}
	for _, s := range a.Series {
		id := seriesID(s.Key, s.Unit)
		_, stepped := moved[id]
		_, creeping := g.creeps[id]
		if creeping {
			g.crept = append(g.crept, s)
		}
		if stepped {
			g.stepped = append(g.stepped, s)
		}
		if !stepped && !creeping {
			g.rest = append(g.rest, s)
		}
	}
	slices.SortStableFunc(g.stepped, func(x, y history.Series) int {
		return cmp.Compare(moved[seriesID(y.Key, y.Unit)], moved[seriesID(x.Key, x.Unit)])
	})
	slices.SortStableFunc(g.crept, func(x, y history.Series) int {
		return cmpMagnitude(g.creeps[seriesID(y.Key, y.Unit)].Change, g.creeps[seriesID(x.Key, x.Unit)].Change)
	})
	return g
}

// movedCharts draws the series that crept, then those that stepped, at
// most maxHistoryCharts in all, and says how many more moved.
func movedCharts(a *history.Analysis, g seriesGroups) string {
	var b strings.Builder
	drawn := 0
	if len(g.crept) > 0 {
		b.WriteString(fmt.Sprintf("The %s that crept, over the runs of the creep:\n\n", human.Plural(len(g.crept), "count", "counts")))
		for _, s := range g.crept {
			if drawn == maxHistoryCharts {
				break
			}
			b.WriteString(creepChart(s, g.creeps[seriesID(s.Key, s.Unit)]) + "\n")
			drawn++
		}
	}
	if len(g.stepped) > 0 {
		b.WriteString(fmt.Sprintf("The %s that stepped, oldest run first (run 1 is the oldest stored): blue, each run's median; red, the median of each stretch between change points. The numbers are in the tables.\n\n",
			human.Plural(len(g.stepped), "series", "series")))
		for _, s := range g.stepped {
			if drawn == maxHistoryCharts {
				break
			}
			b.WriteString(historyChart(s, a.ChangeIndexes(s)) + "\n")
			drawn++
		}
	}
	if n := len(g.stepped) + len(g.crept) - drawn; n > 0 {
		b.WriteString(fmt.Sprintf("_%s not drawn: see the tables above and the PNG charts in the results._\n\n", human.Plural(n, "more series that moved is", "more series that moved are")))
	}
	return b.String()
}

// restTable lists compactly, collapsed, the series that did not move:
// their runs, latest value, median and range.
func restTable(rest []history.Series) string {
	var b strings.Builder
	b.WriteString("| Benchmark | Metric | Runs | Latest | Median | Range |\n|:--|:--|--:|--:|--:|--:|\n")
	for _, s := range rest {
		lo, hi := slices.Min(s.Values), slices.Max(s.Values)
		b.WriteString(fmt.Sprintf("| %s | %s | %d | %s | %s | %s |\n", report.CellName(s.Key), report.EscapeCell(s.Unit), len(s.Values),
			report.FormatValue(s.Values[len(s.Values)-1], s.Unit), report.FormatValue(median(s.Values), s.Unit), rangeText(lo, hi, s.Unit)))
	}
	return report.Details(fmt.Sprintf("%s without a change point", human.Plural(len(rest), "series", "series")), b.String())
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
	unit := headlineUnit(a)
	if unit == "" {
		return ""
	}
	cands := headlineSeries(a, unit)
	if len(cands) == 0 {
		return ""
	}
	labels, lines, lo, hi := changeLines(cands)
	span := math.Max(hi-lo, 0.2)
	var b strings.Builder
	fmt.Fprintf(&b, "The %s of %s that moved most since their first stored run, as a change from it (none of it a change point):\n\n",
		human.Plural(len(cands), "series", "series"), report.EscapeCell(unit))
	b.WriteString(report.LineChart{Height: 240, Palette: strings.Join(headlinePalette[:len(cands)], ", "),
		Title: "Headline series: " + unit + ", change since the first run", Labels: labels, YLabel: "%",
		YLo: report.Round4(lo - span*0.3), YHi: report.Round4(hi + span*0.3), Lines: lines}.Markdown())
	names := []string{"blue", "green", "yellow", "purple"}
	var legend []string
	for k, s := range cands {
		legend = append(legend, fmt.Sprintf("%s, %s (%s → %s, %s)", names[k], report.CellName(s.Key), report.FormatValue(s.Values[0], s.Unit),
			report.FormatValue(s.Values[len(s.Values)-1], s.Unit), human.Change(s.Values[len(s.Values)-1]/s.Values[0]-1, 2)))
	}
	fmt.Fprintf(&b, "<sub>%s.</sub>\n\n", strings.Join(legend, "; "))
	return b.String()
}

// headlineUnit is the unit speed is measured in among the series with
// two runs or more: instructions/op, else another count, else ns/op,
// else the unit most series have (the first by name of a tie); "" when
// no series has two runs.
func headlineUnit(a *history.Analysis) string {
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
	return unit
}

// headlineSeries are the series of unit, at most maxHeadlines, that
// moved most from their first run to their latest.
func headlineSeries(a *history.Analysis, unit string) []history.Series {
	var cands []history.Series
	for _, s := range a.Series {
		if s.Unit == unit && len(s.Values) >= 2 && s.Values[0] > 0 {
			cands = append(cands, s)
		}
	}
	drift := func(s history.Series) float64 { return math.Abs(math.Log(s.Values[len(s.Values)-1] / s.Values[0])) }
	slices.SortStableFunc(cands, func(x, y history.Series) int { return cmp.Compare(drift(y), drift(x)) })
	return cands[:min(len(cands), maxHeadlines)]
}

// changeLines puts series on one x axis, a label a run of the history
// that measured any of them, each as its change from its first run in
// percent (a run that did not measure it keeps the value before); lo
// and hi bound the values and 0.
func changeLines(series []history.Series) (labels []string, lines [][]float64, lo, hi float64) {
	var runs []int
	for _, s := range series {
		runs = append(runs, s.Runs...)
	}
	slices.Sort(runs)
	runs = slices.Compact(runs)
	labels = make([]string, len(runs))
	for i, r := range runs {
		labels[i] = strconv.Itoa(r + 1)
	}
	lines = make([][]float64, len(series))
	for k, s := range series {
		v, j := make([]float64, len(runs)), 0
		last := 0.0
		for i, r := range runs {
			for j < len(s.Runs) && s.Runs[j] < r {
				j++
			}
			if j < len(s.Runs) && s.Runs[j] == r {
				last = report.Round4(100 * (s.Values[j]/s.Values[0] - 1))
			}
			v[i] = last
			lo, hi = math.Min(lo, last), math.Max(hi, last)
		}
		lines[k] = v
	}
	return labels, lines, lo, hi
}

// rangeText is "1.20 µs – 1.31 µs", or the one value when they agree.
func rangeText(lo, hi float64, unit string) string {
	if lo == hi {
		return "= " + report.FormatValue(lo, unit)
	}
	return report.FormatValue(lo, unit) + " – " + report.FormatValue(hi, unit)
}

// historyChart draws a series over the history's runs as a Mermaid line
// chart with a second line for the medians of its stretches between the
// change points at, and a line of text with its numbers.
func historyChart(s history.Series, at []int) string {
	div, unit := 1.0, s.Unit
	hi := slices.Max(s.Values)
	if s.Unit == results.UnitNsPerOp {
		div, unit = report.TimeScale(hi)
	}
	labels := make([]string, len(s.Values))
	vals := make([]float64, len(s.Values))
	fit := make([]float64, len(s.Values))
	bounds := append(append([]int{0}, at...), len(s.Values))
	for k := 0; k+1 < len(bounds); k++ {
		m := median(s.Values[bounds[k]:bounds[k+1]])
		for i := bounds[k]; i < bounds[k+1]; i++ {
			fit[i] = report.Round4(m / div)
		}
	}
	for i, v := range s.Values {
		labels[i] = strconv.Itoa(s.Runs[i] + 1)
		vals[i] = report.Round4(v / div)
	}
	lo := slices.Min(s.Values)
	span := max(hi-lo, 0.1*hi)
	yLo, yHi := report.Round4(max(0, lo-span*0.3)/div), report.Round4((hi+span*0.3)/div)
	var b strings.Builder
	b.WriteString(report.LineChart{Height: 260, Palette: report.TrendPalette + ", " + stepColour, Title: report.ChartName(s.Key) + " " + s.Unit,
		Labels: labels, YLabel: unit, YLo: yLo, YHi: yHi, Lines: [][]float64{vals, fit}}.Markdown())
	var steps []string
	for k := 1; k+1 < len(bounds); k++ {
		steps = append(steps, fmt.Sprintf("run %d: %s → %s", s.Runs[bounds[k]]+1,
			report.FormatValue(median(s.Values[bounds[k-1]:bounds[k]]), s.Unit), report.FormatValue(median(s.Values[bounds[k]:bounds[k+1]]), s.Unit)))
	}
	fmt.Fprintf(&b, "<sub>%s %s over %s: %s; %s.</sub>\n", report.CellName(s.Key), report.EscapeCell(s.Unit), human.Plural(len(s.Values), "run", "runs"),
		rangeText(lo, hi, s.Unit), report.EscapeCell(strings.Join(steps, "; ")))
	return b.String()
}

// stepColour is the fitted steps' line: GitHub's red.
const stepColour = "#cf222e"
