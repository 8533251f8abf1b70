package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// groupWidth is the share of each dataset's slot the bars fill; the rest
// separates the groups.
const groupWidth = 0.84

// barSeries is one codec's bars: a value per dataset (NaN when the run did
// not measure it) and optionally a whisker range around it.
type barSeries struct {
	color  color.Color
	values []float64
	lo, hi []float64 // nil for exact values
}

// groupedBars draws one group of bars per dataset (x = 0, 1, ...) and one
// bar per codec in each group. gonum's BarChart draws bars up from zero,
// which a log axis cannot show; these start at the bottom of the axis.
//
// When label is set, each bar carries its value as text, written up from
// the top of the bar, or down inside it in white where it would not fit
// above.
type groupedBars struct {
	series []barSeries
	label  func(float64) string
}

// maxBarWidth keeps a run with few datasets or codecs from drawing slabs.
const maxBarWidth = 0.4 * vg.Inch

// layout returns the width of a bar on the canvas, and a function giving
// the centre of bar series in group.
func (g *groupedBars) layout(trX func(float64) vg.Length) (vg.Length, func(group, series int) vg.Length) {
	w := min((trX(1)-trX(0))*groupWidth/vg.Length(len(g.series)), maxBarWidth)
	return w, func(group, series int) vg.Length {
		return trX(float64(group)) + (vg.Length(series)-vg.Length(len(g.series)-1)/2)*w
	}
}

// Plot implements gplot.Plotter.
func (g *groupedBars) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	w, center := g.layout(trX)
	whisker := draw.LineStyle{Color: textColor, Width: vg.Points(1)}
	outline := draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
	for s, ser := range g.series {
		for i, v := range ser.values {
			if math.IsNaN(v) {
				continue
			}
			x := center(i, s)
			x0, x1 := x-w/2, x+w/2
			top := min(trY(v), c.Max.Y)
			bar := []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0, Y: top}, {X: x1, Y: top}, {X: x1, Y: c.Min.Y}}
			c.FillPolygon(ser.color, bar)
			c.StrokeLines(outline, append(bar, bar[0]))
		}
	}
	// Whiskers last, so a neighbouring bar never covers one, each over a
	// white halo so it shows on dark bars too.
	halo := draw.LineStyle{Color: color.White, Width: vg.Points(2.5)}
	for s, ser := range g.series {
		if ser.lo == nil {
			continue
		}
		for i, v := range ser.values {
			if math.IsNaN(v) || ser.hi[i] <= ser.lo[i] {
				continue
			}
			x := center(i, s)
			cap := min(w/4, vg.Points(4))
			y0, y1 := trY(ser.lo[i]), trY(ser.hi[i])
			for _, ls := range []draw.LineStyle{halo, whisker} {
				c.StrokeLines(ls, c.ClipLinesY([]vg.Point{{X: x, Y: y0}, {X: x, Y: y1}})...)
				c.StrokeLine2(ls, x-cap, y0, x+cap, y0)
				c.StrokeLine2(ls, x-cap, y1, x+cap, y1)
			}
		}
	}
	if g.label != nil {
		g.drawLabels(c, p)
	}
}

// labelStyle is the style of the value labels, written upwards.
func labelStyle() text.Style {
	sty := textStyle(8, false, textColor)
	sty.Rotation = math.Pi / 2
	sty.YAlign = draw.YCenter
	return sty
}

// labelGap separates a value label from its bar.
const labelGap = vg.Length(3)

// fit raises the top of p's log y axis so that every value label fits
// above its bar in data, the panel's data area.
func (g *groupedBars) fit(p *gplot.Plot, data draw.Canvas) {
	if g.label == nil {
		return
	}
	sty := labelStyle()
	height := float64(data.Max.Y - data.Min.Y)
	lo := math.Log(p.Y.Min)
	top := math.Log(p.Y.Max)
	for _, ser := range g.series {
		for _, v := range ser.values {
			if math.IsNaN(v) {
				continue
			}
			// The label needs the share r of the axis above log v:
			// (top-log v)/(top-lo) >= r.
			r := float64(sty.Width(g.label(v))+labelGap+vg.Points(2)) / height
			if r < 1 {
				top = max(top, (math.Log(v)-r*lo)/(1-r))
			}
		}
	}
	p.Y.Max = math.Exp(top)
}

// drawLabels writes each bar's value along it.
func (g *groupedBars) drawLabels(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	_, center := g.layout(trX)
	sty := labelStyle()
	for s, ser := range g.series {
		for i, v := range ser.values {
			if math.IsNaN(v) {
				continue
			}
			text := g.label(v)
			x := center(i, s)
			top := trY(v)
			st := sty
			if top+labelGap+sty.Width(text) <= c.Max.Y {
				st.XAlign = draw.XLeft
				c.FillText(st, vg.Point{X: x, Y: top + labelGap}, text)
			} else { // fit failed to make room: inside the bar
				st.XAlign = draw.XRight
				st.Color = color.White
				c.FillText(st, vg.Point{X: x, Y: top - labelGap}, text)
			}
		}
	}
}

// separators draws faint vertical lines between dataset groups.
type separators struct{ groups int }

// Plot implements gplot.Plotter.
func (s separators) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, _ := p.Transforms(&c)
	ls := draw.LineStyle{Color: gridColor, Width: vg.Points(0.75)}
	for i := 1; i < s.groups; i++ {
		x := trX(float64(i) - 0.5)
		c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
	}
}

// swatch is a legend thumbnail: a filled square in a codec's colour.
type swatch struct{ color color.Color }

// Thumbnail implements gplot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	x := c.Min.X + (c.Max.X-c.Min.X-h)/2
	c.FillPolygon(s.color, []vg.Point{{X: x, Y: c.Min.Y}, {X: x, Y: c.Max.Y}, {X: x + h, Y: c.Max.Y}, {X: x + h, Y: c.Min.Y}})
}

// barChart is the data of one grouped bar chart.
type barChart struct {
	title, subtitle, yLabel string
	ticker                  gplot.Ticker
	base                    float64 // 2 for bytes, 10 for times: axis ends on whole powers
	legendNote              []string
	value                   func(*cell) (v, lo, hi float64, ok bool)
	whiskers                bool
	label                   func(float64) string // value labels on bars, or nil
}

// render draws the chart for t, or returns nil when no cell has a value.
func (bc *barChart) render(t *table) ([]byte, error) {
	var codecs []string
	var series []barSeries
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, codec := range t.codecs {
		s := barSeries{color: t.codecColor(codec)}
		if bc.whiskers {
			s.lo, s.hi = make([]float64, len(t.datasets)), make([]float64, len(t.datasets))
		}
		has := false
		for i, d := range t.datasets {
			v, l, h := math.NaN(), math.NaN(), math.NaN()
			if c := t.cell(codec, d); c != nil {
				if cv, cl, ch, ok := bc.value(c); ok {
					v, l, h, has = cv, cl, ch, true
					lo, hi = min(lo, v, l), max(hi, v, h)
				}
			}
			s.values = append(s.values, v)
			if bc.whiskers {
				s.lo[i], s.hi[i] = l, h
			}
		}
		if has {
			codecs = append(codecs, codec)
			series = append(series, s)
		}
	}
	if len(series) == 0 {
		return nil, nil
	}

	p := newPlot()
	p.Y.Scale = gplot.LogScale{}
	p.Y.Tick.Marker = bc.ticker
	// The axis starts well below the smallest value (bars start at the
	// axis, so a floor just under a value would make its bar vanish) and
	// on a labelled power of the base.
	p.Y.Min, p.Y.Max = logBounds(lo, hi, 1.25, bc.base)
	if bc.base == 2 {
		p.Y.Min = math.Exp2(math.Floor(math.Log2(lo / 3)))
	} else {
		p.Y.Min = math.Pow10(int(math.Floor(math.Log10(lo / 3))))
	}
	p.X.Min, p.X.Max = -0.5, float64(len(t.datasets))-0.5
	var ticks []gplot.Tick
	for i, d := range t.datasets {
		ticks = append(ticks, gplot.Tick{Value: float64(i), Label: d})
	}
	p.X.Tick.Marker = gplot.ConstantTicks(ticks)
	p.X.Tick.Length = 0

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = gridColor
	bars := &groupedBars{series: series, label: bc.label}
	p.Add(grid, separators{len(t.datasets)}, bars) // no DataRangers: the ranges set above stand

	f := figure{title: bc.title, subtitle: bc.subtitle, legend: newLegend(), legendNote: bc.legendNote,
		panels: []panel{{plot: p, xLabel: "dataset", yLabel: bc.yLabel, fit: bars.fit}}}
	for i, codec := range codecs {
		f.legend.Add(codec, swatch{series[i].color})
	}
	return f.render()
}

// renderSize draws size.png: encoded bytes per message.
func renderSize(t *table) ([]byte, error) {
	bc := barChart{
		title:    "Encoded size per message (smaller is better)",
		subtitle: joinNonEmpty("B/msg, exact, log scale", t.caption),
		yLabel:   "encoded size (log scale)",
		ticker:   bytesTicks,
		base:     2,
		label:    human.Bytes,
		value: func(c *cell) (float64, float64, float64, bool) {
			return c.size, c.size, c.size, c.size > 0
		},
	}
	return bc.render(t)
}

// renderTime draws serialize.png or deserialize.png: median ns/op with the
// interquartile range as whiskers.
func renderTime(t *table, op string) ([]byte, error) {
	bc := barChart{
		title:      fmt.Sprintf("%s time per operation (lower is better)", capitalize(op)),
		subtitle:   joinNonEmpty(fmt.Sprintf("median of %s, log scale", t.samplesText()), t.caption),
		yLabel:     "time per operation (log scale)",
		ticker:     timeTicks,
		base:       10,
		whiskers:   true,
		legendNote: []string{"bar: median", "whisker: 25th–75th", "percentile of samples"},
		value: func(c *cell) (float64, float64, float64, bool) {
			s := c.ser
			if op == results.OpDeserialize {
				s = c.deser
			}
			if s == nil {
				return 0, 0, 0, false
			}
			return s.median, s.q1, s.q3, true
		},
	}
	return bc.render(t)
}

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// joinNonEmpty joins the non-empty parts with " · ", for subtitles.
func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}
