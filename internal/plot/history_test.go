package plot

import (
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
)

// historyOf is 20 runs of two benchmarks: "pkg BenchmarkA" with ns/op
// stepping up at run 12 and a constant B/msg; "BenchmarkB/x=1" with
// ns/op only, flat, and an unknown unit.
func historyOf() []baseline.Entry {
	var h []baseline.Entry
	for i := range 20 {
		a := 100 + float64(i%3)
		if i >= 12 {
			a += 40
		}
		h = append(h, baseline.Entry{Time: time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC), Commit: strings.Repeat("ab", 20), RunID: string(rune('a' + i)),
			Medians: map[string]map[string]float64{
				"example.com/m/pkg BenchmarkA": {"ns/op": a, "B/msg": 26},
				"BenchmarkB/x=1":               {"ns/op": 50 + float64(i%2), "widgets/op": 3},
			}})
	}
	return h
}

func TestWriteHistory(t *testing.T) {
	a := history.Analyze(historyOf(), nil, history.Options{})
	if len(a.Points) != 1 {
		t.Fatalf("the fixture should have one change point, got %+v", a.Points)
	}
	dir := filepath.Join(t.TempDir(), "history")
	files, err := WriteHistory(dir, a)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{HistoryFile("BenchmarkB/x=1"), HistoryFile("example.com/m/pkg BenchmarkA")}
	checkPNGs(t, dir, files, want...)
	// The stepped benchmark's chart draws the stretches' medians in red.
	data, err := os.ReadFile(filepath.Join(dir, want[1]))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	red := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA); c.R > 0xB0 && c.G < 0x50 && c.B < 0x50 {
				red++
			}
		}
	}
	if red < 200 {
		t.Errorf("%d red pixels: the medians between change points are not drawn", red)
	}
}

func TestHistoryFile(t *testing.T) {
	a, b := HistoryFile("pkg/a BenchmarkX/y=1"), HistoryFile("pkg/a BenchmarkX_y=1")
	if a == b || !strings.HasSuffix(a, ".png") || strings.ContainsAny(a, "/ ") {
		t.Errorf("file names %q and %q", a, b)
	}
	if long := HistoryFile(strings.Repeat("x", 500)); len(long) > 140 {
		t.Errorf("a long key gives a %d-byte name", len(long))
	}
}
