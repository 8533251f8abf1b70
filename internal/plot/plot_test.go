package plot

import (
	"bytes"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// synthetic returns a plausible run of every codec on the given datasets:
// sizes and timings that grow with the payload, five noisy samples each.
func synthetic(datasets ...string) *results.Results {
	r := results.New(bench.SuiteName, results.Env{GoVersion: "go1.26.0", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", GOMAXPROCS: 4})
	r.Axes = bench.Axes()
	// Encoded bytes per dataset and a per-codec factor.
	baseSize := map[string]float64{"small": 26, "medium": 127, "large": 5889, "floats-1k": 8195, "floats-64k": 524292, "floats-1m": 8388613}
	sizeFactor := map[string]float64{"protobuf": 1, "flatbuffers": 1.4, "flatbuffers-reuse": 1.4, "msgpack": 1.15, "json": 2.4, "gob": 1.3, "raw": 1}
	baseNs := map[string]float64{"small": 100, "medium": 900, "large": 20000, "floats-1k": 2000, "floats-64k": 80000, "floats-1m": 2e6}
	nsFactor := map[string]float64{"protobuf": 1, "flatbuffers": 3, "flatbuffers-reuse": 1.5, "msgpack": 5, "json": 40, "gob": 8, "raw": 0.4}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range datasets {
		for _, c := range bench.CodecNames() {
			for _, op := range []string{bench.OpSerialize, bench.OpDeserialize} {
				b := results.Benchmark{Name: bench.Name(op, c, d), Codec: c, Dataset: d, Op: op}
				ns := baseNs[d] * nsFactor[c]
				if op == bench.OpDeserialize {
					ns *= 1.8
				}
				for range 5 {
					b.Add(results.UnitNsPerOp, ns*(0.9+0.3*rng.Float64()))
					b.Add(results.UnitBytesPerOp, 64)
					b.Add(results.UnitAllocsPerOp, 1)
				}
				if op == bench.OpSerialize {
					b.Add(results.UnitBytesPerMsg, math.Round(baseSize[d]*sizeFactor[c]))
				}
				r.Benchmarks = append(r.Benchmarks, b)
			}
		}
	}
	return r
}

var defaultDatasets = []string{"small", "medium", "large", "floats-1k", "floats-64k", "floats-1m"}

// checkPNGs checks that files are exactly want (base names, in order) in
// dir, each a PNG of the expected size and under 150 KB.
func checkPNGs(t *testing.T, dir string, files []string, want ...string) {
	t.Helper()
	var got []string
	for _, f := range files {
		if filepath.Dir(f) != dir {
			t.Errorf("file %s is not in %s", f, dir)
		}
		got = append(got, filepath.Base(f))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 150<<10 {
			t.Errorf("%s: %d bytes, want at most 150 KB", f, len(data))
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", f, err)
		}
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 675 {
			t.Errorf("%s: %dx%d, want 1200x675", f, b.Dx(), b.Dy())
		}
	}
}

func TestWriteFullRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots") // Write creates it
	files, err := Write(dir, synthetic(defaultDatasets...))
	if err != nil {
		t.Fatal(err)
	}
	checkPNGs(t, dir, files, SizeFile, SerializeFile, DeserializeFile, ScalingFile)
}

func TestWriteSmallOnly(t *testing.T) {
	dir := t.TempDir()
	files, err := Write(dir, synthetic("small"))
	if err != nil {
		t.Fatal(err)
	}
	checkPNGs(t, dir, files, SizeFile, SerializeFile, DeserializeFile)
}

func TestWriteOneNumericDatasetHasNoScaling(t *testing.T) {
	dir := t.TempDir()
	files, err := Write(dir, synthetic("floats-64k"))
	if err != nil {
		t.Fatal(err)
	}
	checkPNGs(t, dir, files, SizeFile, SerializeFile, DeserializeFile)
}

func TestWriteSerializeOnly(t *testing.T) {
	r := synthetic("floats-1k", "floats-1m")
	r.Benchmarks = slices.DeleteFunc(r.Benchmarks, func(b results.Benchmark) bool { return b.Op == bench.OpDeserialize })
	dir := t.TempDir()
	files, err := Write(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	checkPNGs(t, dir, files, SizeFile, SerializeFile, ScalingFile)
}

// TestWriteNothingToPlot checks the documented behaviour for results with
// nothing to plot: no files, no error, and no directory created.
func TestWriteNothingToPlot(t *testing.T) {
	goTest := results.New("go test", results.Env{})
	goTest.Benchmarks = []results.Benchmark{{Name: "BenchmarkFoo", Metrics: []results.Metric{{Unit: results.UnitNsPerOp, Values: []float64{12, 13}}}}}
	for name, r := range map[string]*results.Results{
		"nil":     nil,
		"empty":   results.New(bench.SuiteName, results.Env{}),
		"go test": goTest,
	} {
		dir := filepath.Join(t.TempDir(), "plots")
		files, err := Write(dir, r)
		if err != nil || len(files) != 0 {
			t.Errorf("%s: Write = %v, %v; want no files and no error", name, files, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: Write created %s", name, dir)
		}
	}
}

func TestWriteUnknownNamesAndMissingCells(t *testing.T) {
	r := synthetic("small", "floats-1k", "floats-64k")
	// A codec and a dataset the suite does not know, and a codec missing
	// from one dataset.
	b := results.Benchmark{Name: "BenchmarkSerialize/codec=cbor/dataset=tiny", Codec: "cbor", Dataset: "tiny", Op: bench.OpSerialize}
	b.Add(results.UnitNsPerOp, 50)
	b.Add(results.UnitBytesPerMsg, 12)
	r.Benchmarks = append(r.Benchmarks, b)
	r.Benchmarks = slices.DeleteFunc(r.Benchmarks, func(b results.Benchmark) bool { return b.Codec == "json" && b.Dataset == "floats-64k" })
	dir := t.TempDir()
	files, err := Write(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	checkPNGs(t, dir, files, SizeFile, SerializeFile, DeserializeFile, ScalingFile)

	tb := collect(r)
	if want := []string{"small", "floats-1k", "floats-64k", "tiny"}; !slices.Equal(tb.datasets, want) {
		t.Errorf("datasets = %v, want %v", tb.datasets, want)
	}
	if want := append(bench.CodecNames(), "cbor"); !slices.Equal(tb.codecs, want) {
		t.Errorf("codecs = %v, want %v", tb.codecs, want)
	}
}

func TestWriteDeterministic(t *testing.T) {
	r := synthetic(defaultDatasets...)
	a, b := t.TempDir(), t.TempDir()
	fa, err := Write(a, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, r); err != nil {
		t.Fatal(err)
	}
	for _, f := range fa {
		x, _ := os.ReadFile(f)
		y, _ := os.ReadFile(filepath.Join(b, filepath.Base(f)))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two renderings of the same results", filepath.Base(f))
		}
	}
}

func TestCodecColoursAreFixed(t *testing.T) {
	all := bench.CodecNames()
	full := collect(synthetic("small"))
	onlyJSON := synthetic("small")
	onlyJSON.Benchmarks = slices.DeleteFunc(onlyJSON.Benchmarks, func(b results.Benchmark) bool { return b.Codec != "json" })
	if full.codecColor("json") != collect(onlyJSON).codecColor("json") {
		t.Error("json's colour depends on which codecs the run has")
	}
	seen := map[any]string{}
	for _, c := range all {
		k := full.codecColor(c)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share a colour", c, other)
		}
		seen[k] = c
	}
}

func TestSummarize(t *testing.T) {
	s, ok := summarize([]float64{5, 1, 4, 2, 3})
	if !ok || s.median != 3 || s.q1 != 2 || s.q3 != 4 || s.n != 5 {
		t.Errorf("summarize = %+v, %v", s, ok)
	}
	if s, ok := summarize([]float64{7}); !ok || s.median != 7 || s.q1 != 7 || s.q3 != 7 {
		t.Errorf("one sample: %+v, %v", s, ok)
	}
	if _, ok := summarize([]float64{0, 0}); ok {
		t.Error("zero timings cannot go on a log axis")
	}
	if _, ok := summarize(nil); ok {
		t.Error("no samples gave a summary")
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{human.Bytes(26), "26 B"},
		{human.Bytes(1024), "1 KiB"},
		{human.Bytes(32 << 10), "32 KiB"},
		{human.Bytes(2.5 * (1 << 20)), "2.5 MiB"},
		{formatTime(1), "1 ns"},
		{formatTime(100), "100 ns"},
		{formatTime(1e3), "1 µs"},
		{formatTime(1500), "1.5 µs"},
		{formatTime(1e7), "10 ms"},
		{formatTime(3e9), "3 s"},
		{formatTime(0.1), "0.1 ns"},
		{formatCount(1024), "1k"},
		{formatCount(1 << 16), "64k"},
		{formatCount(1 << 20), "1M"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestTicks(t *testing.T) {
	// 16 B to 32 MiB: labels on round binary units, no more than maxLabels.
	var got []string
	for _, tk := range bytesTicks.Ticks(16, 32<<20) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if len(got) == 0 || len(got) > maxLabels {
		t.Errorf("byte tick labels %v", got)
	}
	if !slices.Contains(got, "1 KiB") || !slices.Contains(got, "1 MiB") {
		t.Errorf("byte tick labels %v lack 1 KiB or 1 MiB", got)
	}
	got = nil
	for _, tk := range timeTicks.Ticks(10, 1e9) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if want := []string{"10 ns", "100 ns", "1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s"}; !slices.Equal(got, want) {
		t.Errorf("time tick labels %v, want %v", got, want)
	}
}

// TestWriteRealRun renders the charts of a real run, for looking at them:
//
//	go run ./cmd/wirebench run --budget 30s --samples 5 --out /tmp/run.json
//	WIREBENCH_PLOT_RESULTS=/tmp/run.json WIREBENCH_PLOT_DIR=$PWD/docs/plots go test ./internal/plot -run RealRun
//
// It is skipped unless WIREBENCH_PLOT_RESULTS names a results file; the
// images go to WIREBENCH_PLOT_DIR, or a temporary directory.
func TestWriteRealRun(t *testing.T) {
	path := os.Getenv("WIREBENCH_PLOT_RESULTS")
	if path == "" {
		t.Skip("set WIREBENCH_PLOT_RESULTS to a results file to render it")
	}
	r, err := results.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("WIREBENCH_PLOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	files, err := Write(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (%d KB)", f, st.Size()>>10)
	}
}
