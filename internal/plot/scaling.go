package plot

import (
	"math"
	"slices"

	"github.com/wirebench/wirebench/internal/results"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// renderScaling draws scaling.png: ns/op against array length for the
// numeric-array datasets, one panel per operation, or returns nil when the
// run has fewer than two such datasets with timings.
func renderScaling(t *table) ([]byte, error) {
	sc := collectScaling(t)
	if len(sc.ops) == 0 {
		return nil, nil
	}
	xmin, xmax := logBounds(sc.xlo, sc.xhi, 1.6, 2)
	ymin, ymax := logBounds(sc.ylo, sc.yhi, 1.3, 10)
	f := figure{
		title:    "How cost grows with payload size (numeric arrays)",
		subtitle: joinNonEmpty("median of "+t.samplesText()+", log-log", t.caption),
		legend:   newLegend(),
		legendNote: []string{
			"whisker: 25th–75th",
			"percentile of samples",
			"",
			"dashes: constant time",
			"per element (slope 1);",
			"parallel to them is",
			"linear growth",
		},
	}
	inLegend := map[string]bool{}
	for _, op := range sc.ops {
		p, err := scalingPanel(t, sc, op, &f, inLegend)
		if err != nil {
			return nil, err
		}
		// Fixed, shared ranges, so the panels compare at a glance.
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
		f.panels = append(f.panels, panel{plot: p, xLabel: "payload elements (doubles, k = 1024)", yLabel: "time per operation"})
	}
	return f.render()
}

// scalePoint is one codec's timing on one dataset of the numeric family.
type scalePoint struct {
	x float64 // elements
	s summary
}

// scaling is what the scaling chart shows: per operation and codec the
// timings in order of size, and the ranges they span.
type scaling struct {
	ops    []string
	points map[string]map[string][]scalePoint // op, codec
	// xlo..xhi are the element counts, ylo..yhi the timings (quartiles),
	// perLo..perHi the nanoseconds per element.
	xlo, xhi, ylo, yhi, perLo, perHi float64
}

// collectScaling gathers the numeric datasets' timings by operation and
// codec; an operation measured at fewer than two sizes shows no growth
// and is left out.
func collectScaling(t *table) scaling {
	var datasets []string
	for _, d := range t.datasets {
		if t.elements[d] > 0 {
			datasets = append(datasets, d)
		}
	}
	slices.SortStableFunc(datasets, func(a, b string) int { return t.elements[a] - t.elements[b] })
	get := func(c *cell, op string) *summary {
		if op == results.OpSerialize {
			return c.ser
		}
		return c.deser
	}
	inf := math.Inf(1)
	sc := scaling{points: map[string]map[string][]scalePoint{}, xlo: inf, xhi: -inf, ylo: inf, yhi: -inf, perLo: inf, perHi: -inf}
	for _, op := range []string{results.OpSerialize, results.OpDeserialize} {
		byCodec := map[string][]scalePoint{}
		opSizes := map[float64]bool{}
		for _, codec := range t.codecs {
			for _, d := range datasets {
				c := t.cell(codec, d)
				if c == nil || get(c, op) == nil {
					continue
				}
				x := float64(t.elements[d])
				byCodec[codec] = append(byCodec[codec], scalePoint{x, *get(c, op)})
				opSizes[x] = true
			}
		}
		if len(opSizes) < 2 {
			continue // one size shows no growth
		}
		sc.ops = append(sc.ops, op)
		sc.points[op] = byCodec
		for x := range opSizes {
			sc.xlo, sc.xhi = min(sc.xlo, x), max(sc.xhi, x)
		}
		for _, pts := range byCodec {
			for _, p := range pts {
				sc.ylo, sc.yhi = min(sc.ylo, p.s.q1), max(sc.yhi, p.s.q3)
				sc.perLo, sc.perHi = min(sc.perLo, p.s.median/p.x), max(sc.perHi, p.s.median/p.x)
			}
		}
	}
	return sc
}

// scalingPanel draws one operation's panel: a line with quartile whiskers
// per codec over slope-1 guides; each codec joins the legend once.
func scalingPanel(t *table, sc scaling, op string, f *figure, inLegend map[string]bool) (*gplot.Plot, error) {
	p := newPlot()
	p.Title.Text = op
	p.Title.TextStyle = textStyle(12, true, textColor)
	p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
	p.Title.Padding = vg.Points(6)
	p.X.Scale, p.Y.Scale = gplot.LogScale{}, gplot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = countTicks, timeTicks
	grid := plotter.NewGrid()
	grid.Horizontal.Color, grid.Vertical.Color = gridColor, gridColor
	// Guides only across the band the data spans, so they help read it
	// without crowding the panel.
	gd := &guides{lo: math.Floor(math.Log10(sc.perLo)), hi: math.Ceil(math.Log10(sc.perHi))}
	p.Add(grid, gd)
	for _, codec := range t.codecs {
		pts := sc.points[op][codec]
		if len(pts) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(pts))
		errs := make(plotter.YErrors, len(pts))
		for i, pt := range pts {
			xys[i] = plotter.XY{X: pt.x, Y: pt.s.median}
			errs[i].Low, errs[i].High = pt.s.median-pt.s.q1, pt.s.q3-pt.s.median
		}
		clr := t.codecColor(codec)
		line, scatter, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.LineStyle = draw.LineStyle{Color: clr, Width: vg.Points(1.5)}
		scatter.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: vg.Points(3.5), Shape: t.codecGlyph(codec)}
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{xys, errs})
		if err != nil {
			return nil, err
		}
		bars.LineStyle = draw.LineStyle{Color: clr, Width: vg.Points(1)}
		bars.CapWidth = vg.Points(4)
		p.Add(line, bars, scatter)
		gd.avoid = append(gd.avoid, xys)
		for i, xy := range xys {
			gd.avoid = append(gd.avoid, plotter.XYs{{X: xy.X, Y: pts[i].s.q1}, {X: xy.X, Y: pts[i].s.q3}})
		}
		if !inLegend[codec] {
			inLegend[codec] = true
			f.legend.Add(codec, line, scatter)
		}
	}
	return p, nil
}

// guides draws dashed slope-1 lines of constant time per element (10^lo,
// …, 10^hi ns per element) across a log-log panel, each labelled along its
// length: a codec whose cost is linear in the payload runs parallel to
// them, and where it crosses them reads as its cost per element.
//
// Data lines run parallel to the guides, so no fixed label position stays
// clear of them: each label goes to the first place, from the upper end
// down and on either side of its guide, where it covers none of the
// polylines in avoid (the panel's data lines and whiskers); a guide with no
// such place stays unlabelled.
type guides struct {
	lo, hi float64
	avoid  []plotter.XYs
}

// Plot implements gplot.Plotter.
func (g *guides) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	xmin, xmax, ymin, ymax := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	ls := draw.LineStyle{Color: guideColor, Width: vg.Points(0.75), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}

	// Points along the data, every 2 points of length, to keep labels off.
	var obstacles []vg.Point
	for _, xys := range g.avoid {
		for i := range xys {
			a := vg.Point{X: trX(xys[i].X), Y: trY(xys[i].Y)}
			obstacles = append(obstacles, a)
			if i == 0 {
				continue
			}
			b := vg.Point{X: trX(xys[i-1].X), Y: trY(xys[i-1].Y)}
			n := int(math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)) / 2)
			for j := 1; j < n; j++ {
				f := vg.Length(float64(j) / float64(n))
				obstacles = append(obstacles, vg.Point{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y)})
			}
		}
	}

	for e := g.lo; e <= g.hi; e++ {
		k := math.Pow(10, e) // ns per element
		xa, xb := max(xmin, ymin/k), min(xmax, ymax/k)
		if xb <= xa*1.0001 {
			continue
		}
		a := vg.Point{X: trX(xa), Y: trY(k * xa)}
		b := vg.Point{X: trX(xb), Y: trY(k * xb)}
		c.StrokeLines(ls, c.ClipLinesXY([]vg.Point{a, b})...)
		g.label(c, a, b, formatTime(k)+"/element", obstacles)
	}
}

// label writes text along the segment a–b (a the lower end) at the first
// clear place, if any.
func (g *guides) label(c draw.Canvas, a, b vg.Point, text string, obstacles []vg.Point) {
	const (
		gap  = 1.5 // points between the guide and its label
		pad  = 3.0 // points kept clear around the label
		step = 4.0 // points between candidate places
	)
	sty := textStyle(8.5, false, guideColor)
	w := float64(sty.Width(text))
	h := float64(sty.FontExtents().Ascent)
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	length := math.Hypot(dx, dy)
	ux, uy := dx/length, dy/length // along the guide
	nx, ny := -uy, ux              // its left normal: above a rising line
	at := func(along, across float64) vg.Point {
		return vg.Point{X: b.X + vg.Length(ux*along+nx*across), Y: b.Y + vg.Length(uy*along+ny*across)}
	}
	for end := -6.0; -end+w <= length-6; end -= step {
		for _, above := range []bool{true, false} {
			// The label spans along ∈ [end-w, end], across ∈ [v0, v0+h].
			v0 := gap
			if !above {
				v0 = -gap - h
			}
			clear := true
			for _, corner := range [][2]float64{{end - w, v0}, {end, v0}, {end - w, v0 + h}, {end, v0 + h}} {
				if !c.Contains(at(corner[0], corner[1])) {
					clear = false
				}
			}
			for _, o := range obstacles {
				if !clear {
					break
				}
				rx, ry := float64(o.X-b.X), float64(o.Y-b.Y)
				u, v := rx*ux+ry*uy, rx*nx+ry*ny
				if u >= end-w-pad && u <= end+pad && v >= v0-pad && v <= v0+h+pad {
					clear = false
				}
			}
			if !clear {
				continue
			}
			s := sty
			s.XAlign, s.YAlign = draw.XRight, draw.YBottom
			s.Rotation = math.Atan2(dy, dx)
			// Baseline at across = v0 (descenders may touch the gap).
			c.FillText(s, at(end, v0), text)
			return
		}
	}
}
