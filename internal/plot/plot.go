package plot

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// Chart file names written by Write.
const (
	SizeFile        = "size.png"
	SerializeFile   = "serialize.png"
	DeserializeFile = "deserialize.png"
	ScalingFile     = "scaling.png"
)

// Write renders a run as PNG images into dir (created if needed) and
// returns the paths of the files written, in the order size, serialize,
// deserialize, scaling.
//
// Benchmarks without a codec and dataset (plain `go test -bench` results)
// are ignored, and a chart with no data is skipped. So results with nothing
// to plot, including nil or empty results, give no files and no error, and
// dir is then not created. A run with fewer than two numeric-array datasets
// gets no scaling chart, since one size shows no growth.
//
// Every image is rendered before any is written, so a rendering error
// leaves dir untouched; files already in dir that this run does not
// produce are left alone.
func Write(dir string, r *results.Results) ([]string, error) {
	t := collect(r)
	type image struct {
		name string
		png  []byte
	}
	var images []image
	for _, c := range []struct {
		name   string
		render func(*table) ([]byte, error)
	}{
		{SizeFile, renderSize},
		{SerializeFile, func(t *table) ([]byte, error) { return renderTime(t, results.OpSerialize) }},
		{DeserializeFile, func(t *table) ([]byte, error) { return renderTime(t, results.OpDeserialize) }},
		{ScalingFile, renderScaling},
	} {
		png, err := c.render(t)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", c.name, err)
		}
		if png != nil {
			images = append(images, image{c.name, png})
		}
	}
	if len(images) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, im := range images {
		path := filepath.Join(dir, im.name)
		if err := os.WriteFile(path, im.png, 0o644); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// summary is the samples of one timing reduced to what the charts draw.
type summary struct {
	median, q1, q3 float64
	n              int
}

// summarize returns the median and quartiles of v (linear interpolation
// between order statistics, R's type 7), or ok false when there is nothing
// a log axis can show.
func summarize(v []float64) (s summary, ok bool) {
	if len(v) == 0 {
		return summary{}, false
	}
	x := slices.Clone(v)
	slices.Sort(x)
	s = summary{median: quantile(x, 0.5), q1: quantile(x, 0.25), q3: quantile(x, 0.75), n: len(x)}
	return s, s.median > 0 && s.q1 > 0 && !math.IsInf(s.q3, 0) && !math.IsNaN(s.q3)
}

// quantile returns the p-quantile of sorted x.
func quantile(x []float64, p float64) float64 {
	h := p * float64(len(x)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (h-lo)*(x[i+1]-x[i])
}

// cell is what a run measured for one codec on one dataset.
type cell struct {
	size       float64 // B/msg, 0 when unknown
	ser, deser *summary
}

// table is a run arranged for plotting: datasets and codecs in a stable
// order, and the cells between them.
type table struct {
	datasets []string // suite order, then unknown datasets by name
	codecs   []string // suite order, then unknown codecs by name
	known    []string // the suite's codecs (the results' axes), for fixed colours
	cells    map[[2]string]*cell
	elements map[string]int // numeric-array datasets: name → element count
	samples  [2]int         // fewest and most ns/op samples seen
	caption  string         // the run's environment, for subtitles
}

func (t *table) cell(codec, dataset string) *cell { return t.cells[[2]string{codec, dataset}] }

// collect arranges r for plotting. Benchmarks without codec or dataset are
// skipped; values a log axis cannot show (zero or invalid) count as missing.
func collect(r *results.Results) *table {
	t := &table{cells: map[[2]string]*cell{}, elements: map[string]int{}}
	if r == nil {
		return t
	}
	// In order of first appearance: results list a suite's benchmarks in
	// its order.
	var datasets, codecs []string
	for _, b := range r.Benchmarks {
		if b.Codec == "" || b.Dataset == "" {
			continue
		}
		key := [2]string{b.Codec, b.Dataset}
		c := t.cells[key]
		if c == nil {
			c = &cell{}
		}
		if v := b.Metric(results.UnitBytesPerMsg); len(v) > 0 && v[0] > 0 && !math.IsInf(v[0], 0) {
			c.size = v[0]
		}
		if s, ok := summarize(b.Metric(results.UnitNsPerOp)); ok {
			switch b.Op {
			case results.OpSerialize:
				c.ser = &s
			case results.OpDeserialize:
				c.deser = &s
			}
			t.countSamples(s.n)
		}
		if c.size == 0 && c.ser == nil && c.deser == nil {
			continue
		}
		t.cells[key] = c
		if !slices.Contains(datasets, b.Dataset) {
			datasets = append(datasets, b.Dataset)
		}
		if !slices.Contains(codecs, b.Codec) {
			codecs = append(codecs, b.Codec)
		}
	}
	var known []string
	if r.Axes != nil {
		for _, d := range r.Axes.Datasets {
			known = append(known, d.Name)
			if d.Elements > 0 && slices.Contains(datasets, d.Name) {
				t.elements[d.Name] = d.Elements
			}
		}
		t.known = r.Axes.Codecs
	}
	t.datasets = suiteOrder(known, datasets)
	t.codecs = suiteOrder(t.known, codecs)
	t.caption = caption(r)
	return t
}

func (t *table) countSamples(n int) {
	if t.samples[0] == 0 || n < t.samples[0] {
		t.samples[0] = n
	}
	t.samples[1] = max(t.samples[1], n)
}

// samplesText says how many samples each median summarises.
func (t *table) samplesText() string {
	lo, hi := t.samples[0], t.samples[1]
	switch {
	case hi == 1:
		return "1 sample"
	case lo == hi:
		return fmt.Sprintf("%d samples", hi)
	default:
		return fmt.Sprintf("%d–%d samples", lo, hi)
	}
}

// suiteOrder returns the names of present (in the order they appeared)
// that known holds, in known's order, followed by the others as they
// appeared, so charts follow the suite's order (datasets by growing size)
// and stay deterministic for names the suite does not know.
func suiteOrder(known, present []string) []string {
	var out, extra []string
	for _, k := range known {
		if slices.Contains(present, k) {
			out = append(out, k)
		}
	}
	for _, p := range present {
		if !slices.Contains(known, p) {
			extra = append(extra, p)
		}
	}
	return append(out, extra...)
}

// caption describes where a run was measured, for chart subtitles, so an
// image shared on its own still says what machine it speaks for.
func caption(r *results.Results) string {
	e := r.Env
	var parts []string
	if e.GoVersion != "" {
		parts = append(parts, e.GoVersion)
	}
	if e.GOOS != "" || e.GOARCH != "" {
		parts = append(parts, e.GOOS+"/"+e.GOARCH)
	}
	if e.CPU != "" {
		cpu := e.CPU
		if e.GOMAXPROCS > 0 {
			cpu += fmt.Sprintf(" (GOMAXPROCS %d)", e.GOMAXPROCS)
		}
		parts = append(parts, cpu)
	}
	if e.Runner != "" {
		parts = append(parts, e.Runner)
	}
	if e.Commit != "" {
		c := e.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		parts = append(parts, "commit "+c)
	}
	return strings.Join(parts, " · ")
}
