package plot

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/stats"
)

// maxHistoryPanels bounds the metrics drawn side by side in one
// benchmark's history chart; a go test benchmark may report many.
const maxHistoryPanels = 4

var (
	runColor  = rgb(0x09, 0x69, 0xDA) // GitHub's blue, as the report's trend lines
	stepColor = rgb(0xCF, 0x22, 0x2E) // GitHub's red
)

// WriteHistory draws the history of every benchmark of a as one PNG per
// benchmark in dir (created if needed): a panel per metric (the first
// maxHistoryPanels, in order), each run's median over the runs, and the
// median of each stretch between the change points a found. It returns
// the files written, by benchmark. Every metric is drawn alike: a
// benchmark's panels are whatever units its history holds.
func WriteHistory(dir string, a *history.Analysis) ([]string, error) {
	byKey := map[string][]history.Series{}
	var keys []string
	for _, s := range a.Series {
		if byKey[s.Key] == nil {
			keys = append(keys, s.Key)
		}
		byKey[s.Key] = append(byKey[s.Key], s)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, key := range keys {
		png, err := historyFigure(key, byKey[key], a).render()
		if err != nil {
			return files, fmt.Errorf("plot the history of %s: %w", key, err)
		}
		path := filepath.Join(dir, HistoryFile(key))
		if err := os.WriteFile(path, png, 0o644); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// HistoryFile is the file name of a benchmark's history chart: its key
// with everything but letters, digits, '-', '.' and '=' as '_', and a
// hash of the key, so two keys never share a file.
func HistoryFile(key string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=':
			return r
		}
		return '_'
	}, key)
	if len(name) > 120 {
		name = name[:120]
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return fmt.Sprintf("%s-%08x.png", name, h.Sum32())
}

// historyFigure is one benchmark's history chart.
func historyFigure(key string, series []history.Series, a *history.Analysis) *figure {
	f := &figure{title: key, legend: newLegend()}
	runs, points := 0, 0
	for i, s := range series {
		if i == maxHistoryPanels {
			break
		}
		at := a.ChangeIndexes(s)
		points += len(at)
		runs = max(runs, len(s.Values))
		f.panels = append(f.panels, panel{plot: historyPanel(s, at, f, i == 0), xLabel: "run (oldest first)", yLabel: s.Unit})
	}
	f.subtitle = fmt.Sprintf("each run's median over %d stored runs; %s (each metric by the model of its kind: exact, counted, E-divisive)", runs, human.Plural(points, "change point", "change points"))
	if len(series) > maxHistoryPanels {
		f.subtitle += fmt.Sprintf("; %d more metrics not drawn", len(series)-maxHistoryPanels)
	}
	return f
}

// historyPanel draws one metric: its runs' medians, and the medians of
// its stretches between change points at (indexes in s).
func historyPanel(s history.Series, at []int, f *figure, legend bool) *gplot.Plot {
	p := newPlot()
	p.Title.Text = s.Unit
	p.Title.TextStyle = textStyle(12, true, textColor)
	grid := plotter.NewGrid()
	grid.Horizontal.Color, grid.Vertical.Color = gridColor, gridColor
	p.Add(grid)
	xys := make(plotter.XYs, len(s.Values))
	for i, v := range s.Values {
		xys[i] = plotter.XY{X: float64(s.Runs[i] + 1), Y: v}
	}
	line, scatter, err := plotter.NewLinePoints(xys)
	if err == nil {
		line.LineStyle = draw.LineStyle{Color: runColor, Width: vg.Points(1.2)}
		scatter.GlyphStyle = draw.GlyphStyle{Color: runColor, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(line, scatter)
		if legend {
			f.legend.Add("run median", line, scatter)
		}
	}
	bounds := append(append([]int{0}, at...), len(s.Values))
	for k := 0; k+1 < len(bounds); k++ {
		lo, hi := bounds[k], bounds[k+1]
		m, _ := stats.Median(s.Values[lo:hi])
		seg := plotter.XYs{{X: float64(s.Runs[lo]+1) - 0.4, Y: m}, {X: float64(s.Runs[hi-1]+1) + 0.4, Y: m}}
		l, err := plotter.NewLine(seg)
		if err != nil {
			continue
		}
		l.LineStyle = draw.LineStyle{Color: stepColor, Width: vg.Points(2)}
		p.Add(l)
		if legend && k == 0 {
			f.legend.Add("median between change points", l)
		}
	}
	lo, hi := slices.Min(s.Values), slices.Max(s.Values)
	span := max(hi-lo, 0.1*hi, 1e-9)
	p.Y.Min, p.Y.Max = max(0, lo-0.2*span), hi+0.2*span
	p.X.Min, p.X.Max = 0.5, float64(s.Runs[len(s.Runs)-1]+1)+0.5
	return p
}
