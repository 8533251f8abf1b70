package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sample() *Results {
	r := New("default", Env{GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", GOMAXPROCS: 2, GoVersion: "go1.26.8", Machine: "abcd1234"})
	r.Benchmarks = []Benchmark{
		{Name: "BenchmarkSerialize/codec=protobuf/dataset=small", Codec: "protobuf", Dataset: "small", Op: "serialize",
			Iterations: []int64{1000, 2000, 1500},
			Metrics: []Metric{
				{UnitNsPerOp, []float64{101.5, 99.25, 100}},
				{UnitBytesPerOp, []float64{32, 32, 32}},
				{UnitAllocsPerOp, []float64{1, 1, 1}},
				{UnitBytesPerMsg, []float64{26}},
			}},
		{Name: "BenchmarkDeserialize/codec=protobuf/dataset=small", Codec: "protobuf", Dataset: "small", Op: "deserialize",
			Iterations: []int64{1000, 1000, 1000},
			Metrics: []Metric{
				{UnitNsPerOp, []float64{120, 121, 119.125}},
				{UnitAllocsPerOp, []float64{2, 2, 2}},
			}},
	}
	return r
}

func TestJSONRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	want := sample()
	if err := want.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	want.Encode(&a)
	got.Encode(&b)
	if a.String() != b.String() {
		t.Errorf("round trip changed the results:\n%s\nvs\n%s", a.String(), b.String())
	}
}

// TestBenchRoundTrip writes the Go benchmark format and reads it back
// through golang.org/x/perf/benchfmt: every sample survives.
func TestBenchRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	want := sample()
	if err := want.WriteBench(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, line := range []string{"goos: linux", "cpu: Test CPU", "Unit B/msg assume=exact better=lower",
		"BenchmarkSerialize/codec=protobuf/dataset=small\t2000\t99.25 ns/op\t32 B/op\t1 allocs/op\t26 B/msg"} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("output lacks line %q:\n%s", line, text)
		}
	}
	got, err := Read("bench.txt", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got.Env.CPU != "Test CPU" || got.Env.GOMAXPROCS != 2 || got.Suite != "default" {
		t.Errorf("environment not read back: %+v suite %q", got.Env, got.Suite)
	}
	for _, wb := range want.Benchmarks {
		gb := got.Lookup(wb.Name)
		if gb == nil {
			t.Fatalf("%s missing after round trip", wb.Name)
		}
		if gb.Codec != wb.Codec || gb.Dataset != wb.Dataset || gb.Op != wb.Op {
			t.Errorf("%s: codec/dataset/op = %q/%q/%q", wb.Name, gb.Codec, gb.Dataset, gb.Op)
		}
		for _, m := range wb.Metrics {
			g := gb.Metric(m.Unit)
			if m.Unit == UnitBytesPerMsg {
				// Written on every sample line, read back per line.
				if len(g) != len(wb.Iterations) || g[0] != m.Values[0] {
					t.Errorf("%s %s: %v", wb.Name, m.Unit, g)
				}
				continue
			}
			if !equal(g, m.Values) {
				t.Errorf("%s %s: %v, want %v", wb.Name, m.Unit, g, m.Values)
			}
		}
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReadGoTestOutput reads real `go test -bench` output: GOMAXPROCS
// suffixes are dropped so names match the suite's, the pkg: line names the
// package, and sub-benchmark keys fill codec and dataset.
func TestReadGoTestOutput(t *testing.T) {
	in := `goos: linux
goarch: amd64
pkg: github.com/wirebench/wirebench/internal/bench
cpu: AMD EPYC
BenchmarkSerialize/codec=protobuf/dataset=small-2         	12657994	        94.87 ns/op	        26.00 B/msg	      32 B/op	       1 allocs/op
BenchmarkSerialize/codec=protobuf/dataset=small-2         	12000000	        96.01 ns/op	        26.00 B/msg	      32 B/op	       1 allocs/op
BenchmarkFoo-2   	1000	  1234 ns/op	   12.5 MB/s
PASS
ok  	github.com/wirebench/wirebench/internal/bench	12.345s
`
	r, err := Read("go-test.txt", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Benchmarks) != 2 {
		t.Fatalf("%d benchmarks, want 2", len(r.Benchmarks))
	}
	const pkg = "github.com/wirebench/wirebench/internal/bench"
	b := r.Lookup(Key(pkg, "BenchmarkSerialize/codec=protobuf/dataset=small"))
	if b == nil || b.Pkg != pkg || b.Codec != "protobuf" || b.Dataset != "small" || b.Op != "serialize" {
		t.Fatalf("unexpected benchmark %+v", b)
	}
	if got := b.Metric(UnitNsPerOp); !equal(got, []float64{94.87, 96.01}) {
		t.Errorf("ns/op = %v", got)
	}
	if got := r.Lookup(Key(pkg, "BenchmarkFoo")).Metric(UnitMBPerSec); !equal(got, []float64{12.5}) {
		t.Errorf("MB/s = %v", got)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "is empty"},
		{"blank", "  \n\n", "is empty"},
		{"no benchmarks", "goos: linux\nPASS\n", "no benchmark results"},
		{"bad line", "BenchmarkX 10 abc ns/op\n", "x.txt:1"},
		{"nan", "BenchmarkX 10 NaN ns/op\n", "invalid value"},
		{"negative", "BenchmarkX 10 -5 ns/op\n", "invalid value"},
		{"bad json", `{"format": "wirebench.results", "version": 1, "benchmarks": [`, "truncated or corrupt"},
		{"other json", `{"hello": 1}`, "not a wirebench results file"},
		{"newer", `{"format": "wirebench.results", "version": 99}`, "newer than this wirebench"},
		{"dup", `{"format": "wirebench.results", "version": 1, "benchmarks": [{"name":"A","metrics":[]},{"name":"A","metrics":[]}]}`, "appears twice"},
		{"no samples", `{"format": "wirebench.results", "version": 1, "benchmarks": [{"name":"A","metrics":[{"unit":"ns/op","values":[]}]}]}`, "no samples"},
		{"line break in a name", `{"format": "wirebench.results", "version": 1, "benchmarks": [{"name":"A\n::error::x","metrics":[{"unit":"ns/op","values":[1]}]}]}`, "its name \"A\\n::error::x\" holds a control character"},
		{"carriage return in a unit", `{"format": "wirebench.results", "version": 1, "benchmarks": [{"name":"A","metrics":[{"unit":"ns/op\r","values":[1]}]}]}`, "its unit"},
		{"negative samples", `{"format": "wirebench.results", "version": 1, "settings": {"samples": -1}, "benchmarks": []}`, "settings.samples is -1"},
		{"negative iterations", `{"format": "wirebench.results", "version": 1, "benchmarks": [{"name":"A","iterations":[5,-2],"metrics":[{"unit":"ns/op","values":[1,2]}]}]}`, "iteration count is -2"},
		{"negative shard", `{"format": "wirebench.results", "version": 1, "shards": [{"index": -1, "count": 2}], "benchmarks": []}`, "shards[0] has a negative count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read("x.txt", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error for %q", tt.in)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestWriteFileAtomicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "r.json")
	if err := WriteFileAtomic(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "two" {
		t.Errorf("content %q", data)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file", len(entries))
	}
}

func TestEnvDiff(t *testing.T) {
	a := Env{Machine: "m1", CPU: "X", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, GoVersion: "go1.26", Modules: map[string]string{"p": "v1"}}
	b := a
	b.Modules = map[string]string{"p": "v1"}
	if d := a.Diff(b); len(d) != 0 {
		t.Errorf("identical environments differ: %v", d)
	}
	b.Machine, b.Modules = "m2", map[string]string{"p": "v2"}
	d := a.Diff(b)
	if len(d) != 2 || d[0].Field != "machine" || d[1].Field != "p" {
		t.Errorf("diff = %v", d)
	}
}

func TestNameParts(t *testing.T) {
	tests := []struct{ name, codec, dataset, op string }{
		{"BenchmarkSerialize/codec=protobuf/dataset=small", "protobuf", "small", OpSerialize},
		{"BenchmarkDeserialize/codec=raw/dataset=floats-1k", "raw", "floats-1k", OpDeserialize},
		{"BenchmarkWire/codec=json/dataset=order/op=deserialize", "json", "order", OpDeserialize},
		{"BenchmarkWire/codec=json/dataset=order/op=encode", "json", "order", ""},
		{"BenchmarkMarshal/size=10", "", "", ""},
	}
	for _, tt := range tests {
		c, d, o := NameParts(tt.name)
		if c != tt.codec || d != tt.dataset || o != tt.op {
			t.Errorf("%s: %q %q %q, want %q %q %q", tt.name, c, d, o, tt.codec, tt.dataset, tt.op)
		}
	}
}

// TestReadBenchPackages: two packages' benchmarks of one name are two
// benchmarks, also through WriteBench and back; the embedded suite's text
// names no package, and neither does the one package wirebench wrote over
// every run before it wrote each benchmark's.
func TestReadBenchPackages(t *testing.T) {
	text := "pkg: example.com/a\nBenchmarkMarshal-2\t10\t100 ns/op\nBenchmarkMarshal-2\t10\t101 ns/op\n" +
		"pkg: example.com/b\nBenchmarkMarshal-2\t10\t200 ns/op\n"
	r, err := ReadBench(strings.NewReader(text), "two.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Benchmarks) != 2 || r.Lookup("example.com/a BenchmarkMarshal") == nil || len(r.Lookup("example.com/b BenchmarkMarshal").Metric(UnitNsPerOp)) != 1 {
		t.Fatalf("benchmarks %+v", r.Benchmarks)
	}
	r.Format, r.Version = Format, Version // Validate checks them first
	if err := r.Validate(); err != nil {
		t.Errorf("two packages' benchmarks of one name: %v", err)
	}
	r.Suite = "go test"
	var written bytes.Buffer
	if err := r.WriteBench(&written); err != nil {
		t.Fatal(err)
	}
	back, err := ReadBench(&written, "written.txt")
	if err != nil || len(back.Benchmarks) != 2 || back.Lookup("example.com/a BenchmarkMarshal") == nil || back.Lookup("example.com/b BenchmarkMarshal") == nil {
		t.Errorf("written and read back: %+v, %v", back, err)
	}
	for _, own := range []string{
		"wirebench-suite: default\nBenchmarkSerialize/codec=raw/dataset=small\t10\t50 ns/op\n",
		"pkg: github.com/wirebench/wirebench\nwirebench-suite: default\nBenchmarkSerialize/codec=raw/dataset=small\t10\t50 ns/op\n",
		"pkg: example.com/a\nBenchmarkA\t10\t5 ns/op\npkg:\nBenchmarkSerialize/codec=raw/dataset=small\t10\t50 ns/op\n",
	} {
		r, err = ReadBench(strings.NewReader(own), "own.txt")
		if err != nil || r.Benchmarks[len(r.Benchmarks)-1].Pkg != "" || r.Benchmarks[len(r.Benchmarks)-1].Key() != "BenchmarkSerialize/codec=raw/dataset=small" {
			t.Errorf("%q: %+v, %v", own, r.Benchmarks, err)
		}
	}
}

// TestLoadBounded: a file over MaxFileBytes (a shard artifact or a
// benchmark file from elsewhere) is refused without being read whole.
func TestLoadBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "larger than 64 MiB") || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want a refusal naming the file and the bound", err)
	}
}

// TestReadBenchProcesses: text of several go test processes (their header
// lines repeat) splits by process, the k-th run holding every package's
// k-th; text whose header comes once is one process, whatever its
// packages; the pool is what ReadBench reads.
func TestReadBenchProcesses(t *testing.T) {
	process := func(pkg string, ns ...int) string {
		s := "goos: linux\ngoarch: amd64\npkg: " + pkg + "\ncpu: Test CPU\n"
		for _, v := range ns {
			s += fmt.Sprintf("BenchmarkEncode-2\t1000\t%d ns/op\t27 B/msg\n", v)
		}
		return s + "PASS\nok  \t" + pkg + "\t0.04s\n"
	}
	// Three `go test ./...` of two packages: a, b, a, b, a, b.
	var loop strings.Builder
	for i := range 3 {
		loop.WriteString(process("example.com/a", 100+i, 110+i))
		loop.WriteString(process("example.com/b", 200+i, 210+i))
	}
	tests := []struct {
		name, text string
		want       [][]float64 // per process: example.com/a's then example.com/b's ns/op
	}{
		{"a loop of go test", loop.String(), [][]float64{{100, 110, 200, 210}, {101, 111, 201, 211}, {102, 112, 202, 212}}},
		{"one go test of two packages", process("example.com/a", 1, 2) + process("example.com/b", 3), [][]float64{{1, 2, 3}}},
		{"wirebench's text", "goos: linux\nwirebench-suite: go test\nUnit B/msg assume=exact better=lower\npkg: example.com/a\nBenchmarkEncode\t10\t5 ns/op\npkg: example.com/b\nBenchmarkEncode\t10\t6 ns/op\n", [][]float64{{5, 6}}},
		{"no header", "BenchmarkEncode 10 5 ns/op\nBenchmarkEncode 10 6 ns/op\n", [][]float64{{5, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, err := ReadBenchProcesses([]byte(tt.text), "bench.txt")
			if err != nil {
				t.Fatal(err)
			}
			var got [][]float64
			for _, r := range runs {
				var ns []float64
				for _, b := range r.Benchmarks {
					ns = append(ns, b.Metric(UnitNsPerOp)...)
				}
				got = append(got, ns)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("processes %v, want %v", got, tt.want)
			}
			pool, err := ReadBench(strings.NewReader(tt.text), "bench.txt")
			n := 0
			for _, r := range runs {
				n += len(r.Benchmarks[0].Metric(UnitNsPerOp))
			}
			if err != nil || len(pool.Benchmarks[0].Metric(UnitNsPerOp)) != n {
				t.Errorf("the pool has %d samples of the first benchmark, the processes %d (%v)", len(pool.Benchmarks[0].Metric(UnitNsPerOp)), n, err)
			}
		})
	}
	if _, err := ReadBenchProcesses([]byte("PASS\n"), "x.txt"); !errors.Is(err, ErrNoBenchmarks) {
		t.Errorf("no benchmarks: %v", err)
	}
}
