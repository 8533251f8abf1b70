package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// Mermaid charts. GitHub renders ```mermaid blocks; xychart is spelled
// "xychart-beta" because older Mermaid releases (10.6, which introduced
// xychart, to 11) know only that keyword and newer ones still accept it.
// tools/render checks the charts against Mermaid 10.6, 10.9, 11 and 12. Every chart repeats data that is
// also in a table or a line of text, for readers whose client does not
// render Mermaid (e-mail, some job-summary viewers).
//
// xychart has no legend in the releases GitHub may run and draws every bar
// from the edge of the plot, not from zero, so negative changes cannot be
// drawn as bars to the left. The change chart therefore plots the size of
// each change, says its direction and size in the label, and colours it by
// verdict with one series per colour. A series has a value for every
// category, 0 where it does not colour one; a bar of 0 would still show a
// stub as wide as the value axis's padding, which Mermaid sizes from the
// axis's tick labels, so the value axis has no tick labels (the bars'
// labels carry the numbers).

const (
	// maxChartBars is how many timing changes the change chart shows.
	maxChartBars = 15
	// maxTrendPoints is how many stored runs a trend chart shows.
	maxTrendPoints = 12
	// maxTrendCharts is how many benchmarks get a trend chart.
	maxTrendCharts = 4
	// maxBarLabel and maxTrendLabel bound chart labels in bytes.
	maxBarLabel   = 44
	maxTrendLabel = 16
)

// Series colours: regression, improvement, neither (GitHub's red, green
// and grey); trend line (GitHub's blue, the first line of every line
// chart).
const (
	changePalette = "#cf222e, #1a7f37, #8c959f"
	TrendPalette  = "#0969da"
)

// chartLabel makes text safe and short as a quoted Mermaid label: quotes,
// which would end it, and anything Mermaid might read as markup or an
// entity become "_".
func chartLabel(s string, n int) string {
	s = Elide(s, n)
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		case strings.ContainsRune(" ./=+-:()%,", r), r == '…':
			return r
		}
		return '_'
	}, s)
}

// uniqueLabels makes labels distinct (a repeated category would merge with
// the first on the axis) by numbering repeats.
func uniqueLabels(labels []string) []string {
	seen := map[string]int{}
	out := make([]string, len(labels))
	for i, l := range labels {
		seen[l]++
		if n := seen[l]; n > 1 {
			l = fmt.Sprintf("%s (%d)", l, n)
		}
		out[i] = l
	}
	return out
}

// quoteList renders labels as a Mermaid axis list: ["a", "b"].
func quoteList(labels []string) string {
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = `"` + l + `"`
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// numList renders values as a Mermaid data list with 4 significant digits.
func numList(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = chartNum(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func chartNum(x float64) string {
	if x == 0 {
		return "0"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// Round4 rounds to 4 significant digits, keeping chart text short.
func Round4(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return f
}

// niceCeil rounds x up to 1, 2 or 5 times a power of ten.
func niceCeil(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// changeChart draws the largest timing changes (ns/op, noisy) as a
// horizontal bar chart of the size of each change in percent: red slower
// and judged a regression, green faster and judged an improvement, grey
// for the rest. It returns "" when no timing changed beyond "unchanged".
func changeChart(cs []compare.Comparison) string {
	var top []compare.Comparison
	interesting := false
	for _, c := range cs {
		if c.Kind != compare.Noisy || c.Unit != results.UnitNsPerOp || math.IsNaN(c.Ratio) || math.IsInf(c.Ratio, 0) {
			continue
		}
		top = append(top, c)
		if c.Verdict != compare.Unchanged {
			interesting = true
		}
	}
	if !interesting {
		return ""
	}
	slices.SortStableFunc(top, func(a, b compare.Comparison) int {
		ma, mb := math.Abs(a.Ratio-1), math.Abs(b.Ratio-1)
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
	top = top[:min(len(top), maxChartBars)]
	labels := make([]string, len(top))
	series := [3][]float64{} // regression, improvement, neither
	for k := range series {
		series[k] = make([]float64, len(top))
	}
	hi := 0.0
	for i, c := range top {
		labels[i] = chartLabel(Elide(ChartName(c.Name), maxBarLabel-8)+" "+human.Change(c.Ratio-1, 1), maxBarLabel)
		v := Round4(math.Abs(100 * (c.Ratio - 1)))
		hi = max(hi, v)
		k := 2
		switch c.Verdict {
		case compare.Regression:
			k = 0
		case compare.Improvement:
			k = 1
		}
		series[k][i] = v
	}
	title := "Largest timing changes, size in %"
	if top[0].Normalized {
		title = "Largest timing changes beyond the machine shift, size in %"
	}
	var b strings.Builder
	b.WriteString("```mermaid\n---\nconfig:\n  xyChart:\n    width: 900\n    height: " + strconv.Itoa(80+26*len(top)) + "\n")
	b.WriteString("    yAxis:\n      showLabel: false\n      showTick: false\n      showTitle: false\n      showAxisLine: false\n")
	b.WriteString("  themeVariables:\n    xyChart:\n      plotColorPalette: \"" + changePalette + "\"\n---\n")
	b.WriteString("xychart-beta horizontal\n")
	fmt.Fprintf(&b, "    title %q\n", title)
	fmt.Fprintf(&b, "    x-axis %s\n", quoteList(uniqueLabels(labels)))
	fmt.Fprintf(&b, "    y-axis \"%%\" 0 --> %s\n", chartNum(niceCeil(hi)))
	for _, s := range series {
		fmt.Fprintf(&b, "    bar %s\n", numList(s))
	}
	b.WriteString("```\n")
	return b.String()
}

// ChartName is the short name of a benchmark for a chart label, shorter
// still for the suite: "Ser protobuf/small".
func ChartName(name string) string {
	s := ShortName(name)
	if r, ok := strings.CutPrefix(s, "Serialize "); ok && s != name {
		return "Ser " + r
	}
	if r, ok := strings.CutPrefix(s, "Deserialize "); ok && s != name {
		return "De " + r
	}
	return s
}

// trendPoint is one run's median of a benchmark's ns/op.
type trendPoint struct {
	label string
	value float64
	raw   float64 // this run's median as measured
}

// trendBenchmarks chooses the benchmarks worth a trend chart: those whose
// timing regressed most, then the suite's headline benchmarks (protobuf on
// the medium and large datasets), then, for other suites, the first
// benchmarks of the latest stored run.
func trendBenchmarks(res *compare.Result, history []baseline.Entry) []string {
	var names []string
	add := func(n string) {
		if len(names) < maxTrendCharts && !slices.Contains(names, n) && historyPoints(history, n) >= 2 {
			names = append(names, n)
		}
	}
	if res != nil {
		regs := res.Regressions()
		compare.Sort(regs)
		for _, c := range regs {
			if c.Unit == results.UnitNsPerOp && len(names) < 2 {
				add(c.Name)
			}
		}
	}
	for _, n := range []string{
		"BenchmarkSerialize/codec=protobuf/dataset=medium",
		"BenchmarkDeserialize/codec=protobuf/dataset=medium",
		"BenchmarkSerialize/codec=protobuf/dataset=large",
		"BenchmarkDeserialize/codec=protobuf/dataset=large",
	} {
		add(n)
	}
	if len(names) == 0 && len(history) > 0 {
		last := history[len(history)-1].Medians
		keys := make([]string, 0, len(last))
		for k := range last {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if len(names) >= 2 {
				break
			}
			add(k)
		}
	}
	return names
}

func historyPoints(history []baseline.Entry, name string) int {
	n := 0
	for _, e := range history {
		if v, ok := e.Medians[name][results.UnitNsPerOp]; ok && v > 0 {
			n++
		}
	}
	return n
}

// thisRun labels the trend point of the run being reported.
const thisRun = "this run"

// trend gathers the last stored medians of a benchmark's ns/op and this
// run's, oldest first. shift divides this run's median: when timings were
// judged relative to the machine's speed shift, the point is put on the
// baseline machine's scale like the comparison, or every benchmark would
// seem to jump by the shift.
func trend(history []baseline.Entry, cand *results.Results, name string, shift float64) []trendPoint {
	var pts []trendPoint
	for _, e := range history {
		v, ok := e.Medians[name][results.UnitNsPerOp]
		if !ok || v <= 0 {
			continue
		}
		label := ShortSHA(e.Commit)
		if label == "" && !e.Time.IsZero() {
			label = e.Time.UTC().Format("01-02 15:04")
		}
		pts = append(pts, trendPoint{label: label, value: v})
	}
	pts = pts[max(0, len(pts)-maxTrendPoints):]
	if cand != nil {
		if b := cand.Lookup(name); b != nil {
			if v := b.Metric(results.UnitNsPerOp); len(v) > 0 {
				pts = append(pts, trendPoint{label: thisRun, value: median(v) / shift, raw: median(v)})
			}
		}
	}
	return pts
}

// TimeScale picks the unit a series of nanosecond values reads best in.
func TimeScale(maxNs float64) (div float64, unit string) {
	switch {
	case maxNs >= 1e9:
		return 1e9, "s"
	case maxNs >= 1e6:
		return 1e6, "ms"
	case maxNs >= 1e3:
		return 1e3, "µs"
	}
	return 1, "ns"
}

// trendChart draws one benchmark's median ns/op over the stored runs and
// this run as a line chart, with the y axis spanning the data plus a
// margin (from zero, a 5% change would be invisible; from the exact
// minimum, noise would look dramatic).
func trendChart(name string, pts []trendPoint) string {
	if len(pts) < 2 {
		return ""
	}
	lo, hi := math.Inf(1), 0.0
	for _, p := range pts {
		lo, hi = min(lo, p.value), max(hi, p.value)
	}
	div, unit := TimeScale(hi)
	labels := make([]string, len(pts))
	vals := make([]float64, len(pts))
	for i, p := range pts {
		labels[i] = chartLabel(p.label, maxTrendLabel)
		vals[i] = Round4(p.value / div)
	}
	span := max(hi-lo, 0.1*hi)
	yLo, yHi := Round4(max(0, lo-span*0.5)/div), Round4((hi+span*0.5)/div)
	return LineChart{Height: 280, Palette: TrendPalette, Title: ChartName(name) + ": median time per op",
		Labels: uniqueLabels(labels), YLabel: unit, YLo: yLo, YHi: yHi, Lines: [][]float64{vals}}.Markdown()
}

// LineChart is a Mermaid line chart 700 pixels wide: the lines' values
// over the categories Labels (one value a label each, distinct labels),
// coloured in turn by Palette's colours ("#0969da, #cf222e").
type LineChart struct {
	Height  int
	Palette string
	// Title and YLabel are made safe as Mermaid labels; Labels must be.
	Title, YLabel string
	Labels        []string
	// YLo and YHi bound the y axis.
	YLo, YHi float64
	Lines    [][]float64
}

// Markdown is the chart as a ```mermaid fence.
func (c LineChart) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "```mermaid\n---\nconfig:\n  xyChart:\n    width: 700\n    height: %d\n", c.Height)
	b.WriteString("  themeVariables:\n    xyChart:\n      plotColorPalette: \"" + c.Palette + "\"\n---\n")
	b.WriteString("xychart-beta\n")
	fmt.Fprintf(&b, "    title %q\n", chartLabelLong(c.Title))
	fmt.Fprintf(&b, "    x-axis %s\n", quoteList(c.Labels))
	fmt.Fprintf(&b, "    y-axis %q %s --> %s\n", chartLabelLong(c.YLabel), chartNum(c.YLo), chartNum(c.YHi))
	for _, l := range c.Lines {
		fmt.Fprintf(&b, "    line %s\n", numList(l))
	}
	b.WriteString("```\n")
	return b.String()
}

// chartLabelLong is chartLabel with room for a title.
func chartLabelLong(s string) string {
	s = Elide(s, 80)
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '<' || r == '>' || r == '&' || r == '#' || r == ';' {
			return '_'
		}
		return r
	}, s)
}
