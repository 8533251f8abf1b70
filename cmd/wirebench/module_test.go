package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// writeModule writes a Go module of files (slash-separated paths to
// contents) into a new directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// twoPackages is a module whose packages a and b each have a
// BenchmarkJSONEncode, of messages of different sizes.
var twoPackages = map[string]string{
	"go.mod": "module example.com/two\n\ngo 1.22\n",
	"a/a.go": "package a\n\ntype Msg struct{ ID int }\n",
	"b/b.go": "package b\n\ntype Msg struct {\n\tID   int\n\tName string\n}\n",
	"a/a_test.go": `package a

import (
	"encoding/json"
	"testing"
)

func BenchmarkJSONEncode(b *testing.B) {
	var n int
	for i := 0; i < b.N; i++ {
		d, _ := json.Marshal(Msg{ID: 7})
		n = len(d)
	}
	b.ReportMetric(float64(n), "B/msg")
}
`,
	"b/b_test.go": `package b

import (
	"encoding/json"
	"testing"
)

func BenchmarkJSONEncode(b *testing.B) {
	var n int
	for i := 0; i < b.N; i++ {
		d, _ := json.Marshal(Msg{ID: 7, Name: "seven"})
		n = len(d)
	}
	b.ReportMetric(float64(n), "B/msg")
}
`,
}

// TestPackagesKept: two packages' benchmarks of one name stay two
// benchmarks from the measurement to the comparison. run --format bench
// writes each under its package's pkg: line, with the machine's cpu:
// line; compare reads them back as two benchmarks, each with its own
// exact size; check records the CPU in its results too.
func TestPackagesKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module's benchmarks")
	}
	dir := writeModule(t, twoPackages)
	code, out, errOut := wb(t, dir, "run", "--bench", ".", "--budget", "1s", "--samples", "3", "--format", "bench")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"\npkg: example.com/two/a\nBenchmarkJSONEncode\t", "\npkg: example.com/two/b\nBenchmarkJSONEncode\t", "\ncpu: "} {
		if !strings.Contains(out, want) {
			t.Errorf("run --format bench lacks %q:\n%s", want, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "run.txt"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = wb(t, dir, "compare", "--format", "json", "run.txt", "run.txt")
	var doc struct {
		Comparisons []struct{ Name, Unit, Verdict string } `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil {
		t.Fatalf("compare: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	var sizes []string
	for _, c := range doc.Comparisons {
		if c.Unit == results.UnitBytesPerMsg {
			sizes = append(sizes, c.Name+" "+c.Verdict)
		}
	}
	slices.Sort(sizes)
	if want := []string{"example.com/two/a BenchmarkJSONEncode unchanged", "example.com/two/b BenchmarkJSONEncode unchanged"}; !slices.Equal(sizes, want) {
		t.Errorf("compare judged the sizes %q, want %q", sizes, want)
	}
	code, _, errOut = wb(t, dir, "check", "--bench", ".", "--budget", "1s", "--samples", "3")
	if code != exitOK {
		t.Fatalf("check without a baseline: exit %d\n%s", code, errOut)
	}
	r, err := results.Load(filepath.Join(dir, "wirebench-results", "results.json"))
	if err != nil || r.Env.CPU == "" || len(r.Benchmarks) != 2 {
		t.Errorf("check's results: %v, CPU %q, %d benchmarks", err, r.Env.CPU, len(r.Benchmarks))
	}
}
