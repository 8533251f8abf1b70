package plot

import (
	"bytes"
	"image"
	"image/color"
	imgdraw "image/draw"
	"image/png"
	"math"
	"slices"

	xfont "golang.org/x/image/font"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Image geometry: 1200×675 pixels (16:9) at 120 dpi, large enough for a
// README or a pull-request comment, small enough to stay well under
// 150 KB as PNG.
const (
	dpi    = 120
	imgW   = 10 * vg.Inch
	imgH   = 5.625 * vg.Inch
	margin = 0.15 * vg.Inch
	// legendGap separates the panels from the legend column.
	legendGap = 0.25 * vg.Inch
)

// Colours. Codecs get the Okabe–Ito palette (distinguishable with the
// common colour-vision deficiencies), fixed per codec name so a codec has
// the same colour in every chart and every run, filtered or not.
var (
	codecPalette = []color.Color{
		rgb(0x00, 0x72, 0xB2), // blue
		rgb(0xD5, 0x5E, 0x00), // vermillion
		rgb(0xE6, 0x9F, 0x00), // orange
		rgb(0x00, 0x9E, 0x73), // bluish green
		rgb(0xCC, 0x79, 0xA7), // reddish purple
		rgb(0x56, 0xB4, 0xE9), // sky blue
		rgb(0x33, 0x33, 0x33), // near black
		rgb(0xB8, 0xA4, 0x00), // dark yellow
		rgb(0x99, 0x99, 0x99), // grey
		rgb(0x88, 0x44, 0x22), // brown
	}
	codecGlyphs = []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
		draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
	}
	textColor   = rgb(0x22, 0x22, 0x22)
	subtleColor = rgb(0x66, 0x66, 0x66)
	gridColor   = rgb(0xDD, 0xDD, 0xDD)
	guideColor  = rgb(0xB0, 0xB0, 0xB0)
)

func rgb(r, g, b uint8) color.Color { return color.NRGBA{R: r, G: g, B: b, A: 0xFF} }

// codecIndex gives each codec a fixed slot: its place among the suite's
// codecs (known, from the results' axes), or for a codec the suite does
// not know, a slot after them by its place among the run's unknown codecs.
func codecIndex(known, codecs []string, codec string) int {
	if i := slices.Index(known, codec); i >= 0 {
		return i
	}
	n := len(known)
	for _, c := range codecs {
		if c == codec {
			return n
		}
		if !slices.Contains(known, c) {
			n++
		}
	}
	return n
}

func (t *table) codecColor(codec string) color.Color {
	return codecPalette[codecIndex(t.known, t.codecs, codec)%len(codecPalette)]
}

func (t *table) codecGlyph(codec string) draw.GlyphDrawer {
	return codecGlyphs[codecIndex(t.known, t.codecs, codec)%len(codecGlyphs)]
}

// Fonts: Liberation Sans, bundled with gonum plot, so rendering does not
// depend on the fonts installed and is the same on every machine.
func sans(size vg.Length, bold bool) font.Font {
	f := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return font.From(f, size)
}

func textStyle(size vg.Length, bold bool, c color.Color) text.Style {
	return text.Style{Color: c, Font: sans(size, bold), Handler: gplot.DefaultTextHandler}
}

// newPlot returns a plot in the house style: sans-serif labels, no title
// (the figure draws it), light horizontal grid lines on major ticks.
func newPlot() *gplot.Plot {
	p := gplot.New()
	for _, a := range []*gplot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(11, false)
		a.Label.TextStyle.Color = textColor
		a.Tick.Label.Font = sans(10, false)
		a.Tick.Label.Color = textColor
		a.Tick.Length = vg.Points(5)
		a.Padding = 0
	}
	return p
}

// newLegend returns an empty legend in the house style, for the column at
// the right of a figure.
func newLegend() gplot.Legend {
	l := gplot.NewLegend()
	l.TextStyle = textStyle(10.5, false, textColor)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(4)
	l.ThumbnailWidth = vg.Points(22)
	return l
}

// panel is one plot of a figure with its axis labels. The figure draws
// the labels itself: gonum centres an axis label's glyph box on the
// arithmetic middle of the axis range, which on a log axis sits near the
// top or right end and makes the plot shrink away from a phantom label.
type panel struct {
	plot           *gplot.Plot
	xLabel, yLabel string
	// fit, if set, adjusts the plot's axes once the size of its data area
	// is known (to make room for labels drawn in it).
	fit func(p *gplot.Plot, data draw.Canvas)
}

// figure is one image: a title and subtitle above, one or more panels side
// by side, and a legend in a column at the right.
type figure struct {
	title, subtitle string
	panels          []panel
	legend          gplot.Legend
	// legendNote is drawn in small type under the legend (what whiskers
	// and guides mean).
	legendNote []string
}

// render draws f and encodes it as PNG.
func (f *figure) render() ([]byte, error) {
	c := vgimg.NewWith(vgimg.UseWH(imgW, imgH), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(c)
	dc = draw.Crop(dc, margin, -margin, margin, -margin)

	// Title block.
	title := textStyle(15, true, textColor)
	title.XAlign, title.YAlign = draw.XLeft, draw.YTop
	dc.FillText(title, vg.Point{X: dc.Min.X, Y: dc.Max.Y}, f.title)
	top := title.Rectangle(f.title).Size().Y
	if f.subtitle != "" {
		sub := textStyle(10, false, subtleColor)
		sub.XAlign, sub.YAlign = draw.XLeft, draw.YTop
		dc.FillText(sub, vg.Point{X: dc.Min.X, Y: dc.Max.Y - top - vg.Points(3)}, f.subtitle)
		top += vg.Points(3) + sub.Rectangle(f.subtitle).Size().Y
	}
	dc = draw.Crop(dc, 0, 0, 0, -(top + vg.Points(14)))

	// Legend column at the right.
	lw := f.legend.Rectangle(dc).Size().X
	note := textStyle(9, false, subtleColor)
	note.XAlign, note.YAlign = draw.XLeft, draw.YTop
	for _, s := range f.legendNote {
		lw = max(lw, note.Rectangle(s).Size().X)
	}
	lc := dc
	lc.Min.X = dc.Max.X - lw
	dc.Max.X = lc.Min.X - legendGap
	f.legend.Draw(lc)
	y := lc.Max.Y - f.legend.Rectangle(lc).Size().Y - vg.Points(12)
	for _, s := range f.legendNote {
		if s != "" {
			lc.FillText(note, vg.Point{X: lc.Min.X, Y: y}, s)
		}
		y -= note.FontExtents().Height + vg.Points(1)
	}

	// Panels side by side. Panels of one figure share their axes, so
	// equal tiles give aligned data areas.
	tiles := draw.Tiles{Rows: 1, Cols: len(f.panels), PadX: 0.35 * vg.Inch}
	for i, p := range f.panels {
		p.draw(tiles.At(dc, i, 0))
	}

	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, quantize(toRGBA(c.Image()))); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// draw draws the panel's plot in c, leaving room for the axis labels at
// the left and bottom and centring them on the data area.
func (p panel) draw(c draw.Canvas) {
	sty := textStyle(11, false, textColor)
	h := sty.FontExtents().Height
	pc := c
	if p.yLabel != "" {
		pc.Min.X += h + vg.Points(4)
	}
	if p.xLabel != "" {
		pc.Min.Y += h + vg.Points(2)
	}
	if p.fit != nil {
		// Twice: the new range can change the tick labels and so, a
		// little, the data area.
		for range 2 {
			p.fit(p.plot, p.plot.DataCanvas(pc))
		}
	}
	p.plot.Draw(pc)
	data := p.plot.DataCanvas(pc)
	if p.xLabel != "" {
		s := sty
		s.XAlign, s.YAlign = draw.XCenter, draw.YBottom
		c.FillText(s, vg.Point{X: (data.Min.X + data.Max.X) / 2, Y: c.Min.Y + sty.FontExtents().Descent}, p.xLabel)
	}
	if p.yLabel != "" {
		s := sty
		s.XAlign, s.YAlign = draw.XCenter, draw.YTop
		s.Rotation = math.Pi / 2
		c.FillText(s, vg.Point{X: c.Min.X, Y: (data.Min.Y + data.Max.Y) / 2}, p.yLabel)
	}
}

// toRGBA returns img as an *image.RGBA, converting only if it is not one.
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok {
		return m
	}
	m := image.NewRGBA(img.Bounds())
	imgdraw.Draw(m, m.Bounds(), img, img.Bounds().Min, imgdraw.Src)
	return m
}
