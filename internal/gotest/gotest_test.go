package gotest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// module writes a small module with the habits of real benchmarks: a
// TestMain that prints banners, a flag of its own, prints inside a
// benchmark, sub-benchmarks, b.ReportMetric, benchmarks in the external
// test package, a benchmark of the same name in a second package, and one
// that fails.
func module(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"wire/wire.go": `package wire

import "encoding/json"

type Order struct {
	ID   int64
	Note string
}

func Marshal(o *Order) ([]byte, error) { return json.Marshal(o) }
`,
		"wire/wire_test.go": `package wire

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

var own = flag.Bool("own-flag", false, "a flag of the package's own")

func TestMain(m *testing.M) {
	fmt.Println("BenchmarkBanner from TestMain 1 2 3")
	fmt.Fprintln(os.Stderr, "setting up")
	os.Exit(m.Run())
}

func BenchmarkMarshal(b *testing.B) {
	o := &Order{ID: 1, Note: "hello"}
	fmt.Println("BenchmarkMarshal says hello 1 2")
	for b.Loop() {
		Marshal(o)
	}
	b.ReportMetric(24, "B/msg")
}

func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			o := &Order{ID: int64(n)}
			for i := 0; i < b.N; i++ {
				Marshal(o)
			}
		})
	}
}

func BenchmarkFails(b *testing.B) {
	b.Fatal("this benchmark is broken")
}

func BenchmarkPaths(b *testing.B) {
	for _, path := range []string{"generic", "wide"} {
		b.Run(path, func(b *testing.B) {
			if path == "wide" {
				b.Log("probed the CPU")
				b.Skip("this CPU lacks the wide path")
			}
			for b.Loop() {
				Marshal(&Order{})
			}
		})
	}
}
`,
		"wire/ext_test.go": `package wire_test

import (
	"testing"

	"example.com/m/wire"
)

func BenchmarkExternal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		wire.Marshal(&wire.Order{})
	}
}

`,
		// Parsed by TestIsBenchmark only: go vet refuses the lower-case
		// name in a build.
		"wire/shapes.txt": `package wire_test

import "testing"

func BenchmarkOne(b *testing.B) {}

func BenchmarkParallel(b *testing.B) { b.RunParallel(func(pb *testing.PB) {}) }

func BenchmarkSubParallel(b *testing.B) {
	b.Run("sub", func(b *testing.B) { b.RunParallel(func(pb *testing.PB) {}) })
}

func helper(b *testing.B, n int) { b.RunParallel(func(pb *testing.PB) {}) }

func BenchmarklowerIsNotOne(b *testing.B) {}

func BenchmarkTwoParams(b *testing.B, n int) {}

func BenchmarkNotB(t *testing.T) {}

type x struct{}

func (x) BenchmarkMethod(b *testing.B) {}
`,
		"other/other.go": "package other\n",
		"other/other_test.go": `package other

import "testing"

func BenchmarkMarshal(b *testing.B) {
	s := 0
	for i := 0; i < b.N; i++ {
		s += i
	}
	_ = s
}
`,
		"none/none.go": "package none\n",
	}
	writeFiles(t, dir, files)
	return dir
}

// writeFiles writes files (path relative to dir: content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiscover(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := module(t)
	ctx := context.Background()
	pkgs, err := Discover(ctx, Tree{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Package{}
	for _, p := range pkgs {
		got[p.ImportPath] = p
	}
	if len(pkgs) != 2 {
		t.Fatalf("packages %+v, want wire and other (none has no benchmarks)", pkgs)
	}
	w := got["example.com/m/wire"]
	if !slices.Equal(w.Internal, []string{"BenchmarkFails", "BenchmarkMarshal", "BenchmarkPaths", "BenchmarkSizes"}) || !slices.Equal(w.External, []string{"BenchmarkExternal"}) {
		t.Errorf("wire: %+v", w)
	}
	if w.TestMain != "wire_test.go" {
		t.Errorf("wire's TestMain is in %q, want wire_test.go", w.TestMain)
	}
	if o := got["example.com/m/other"]; !slices.Equal(o.Internal, []string{"BenchmarkMarshal"}) || o.TestMain != "" {
		t.Errorf("other: %+v", o)
	}
	_, err = Discover(ctx, Tree{Dir: dir}, []string{"./none"})
	if !errors.Is(err, ErrNoBenchmarks) || !strings.Contains(err.Error(), "./none") {
		t.Errorf("a package without benchmarks: %v", err)
	}
	if _, err := Discover(ctx, Tree{Dir: dir}, []string{"./nope"}); err == nil {
		t.Error("a pattern matching no package was accepted")
	}
}

// TestWorker builds the module's test binaries and drives a worker as the
// engine does: it lists the benchmarks (sub-benchmarks too), runs blocks
// of exact iteration counts with their allocations and reported metrics,
// and reports a failing benchmark and an unknown one as errors, all while
// the benchmarks and TestMain print on stdout.
func TestWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := module(t)
	ctx := context.Background()
	tree := Tree{Dir: dir}
	pkgs, err := Discover(ctx, tree, []string{"./wire"})
	if err != nil {
		t.Fatal(err)
	}
	bins, _, err := Build(ctx, tree, pkgs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var diag strings.Builder
	c := startWorker(t, bins[0], &diag)
	names, troubles, err := c.List(ctx, "Marshal|Sizes|External|Fails|Paths")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"BenchmarkMarshal", "BenchmarkPaths/generic", "BenchmarkSizes/n=1", "BenchmarkSizes/n=100", "BenchmarkExternal"}
	if !slices.Equal(names, want) {
		t.Errorf("listed %q, want %q", names, want)
	}
	// A benchmark that fails, and a sub-benchmark that skips, are
	// troubles of their own with their messages; the parent of the
	// skipped one, which has a result of another sub-benchmark, is not.
	wantTroubles := []results.Trouble{
		{Name: "BenchmarkFails", Kind: results.TroubleFailed, Why: "wire_test.go:39: this benchmark is broken"},
		{Name: "BenchmarkPaths/wide", Kind: results.TroubleSkipped, Why: "wire_test.go:46: probed the CPU; wire_test.go:47: this CPU lacks the wide path"},
	}
	if !slices.Equal(troubles, wantTroubles) {
		t.Errorf("troubles %+v, want %+v", troubles, wantTroubles)
	}
	s, err := c.Run(ctx, "BenchmarkMarshal", 500, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Iterations != 500 || s.Elapsed <= 0 || s.Allocs < 500 || s.Metrics["B/msg"] != 24 {
		t.Errorf("run: %+v", s)
	}
	if s, err := c.Run(ctx, "BenchmarkSizes/n=100", 2000, 0); err != nil || s.Iterations != 2000 {
		t.Errorf("a sub-benchmark: %+v, %v", s, err)
	}
	if s, err := c.Warmup(ctx, "BenchmarkExternal", 20*time.Millisecond); err != nil || s.Iterations < 1 {
		t.Errorf("warm-up of the external package's benchmark: %+v, %v", s, err)
	}
	var reply *worker.ReplyError
	if _, err := c.Run(ctx, "BenchmarkFails", 10, 0); !errors.As(err, &reply) || reply.Trouble != results.TroubleFailed || !strings.Contains(err.Error(), "this benchmark is broken") {
		t.Errorf("a failing benchmark: %v, want a reply of its failure", err)
	}
	if _, err := c.Run(ctx, "BenchmarkNope", 10, 0); err == nil || !strings.Contains(err.Error(), "gave no result") {
		t.Errorf("an unknown benchmark: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if !strings.Contains(diag.String(), "setting up") || !strings.Contains(diag.String(), "BenchmarkBanner from TestMain") {
		t.Errorf("the binary's own output did not reach the diagnostics:\n%s", diag.String())
	}
}

// startWorker starts the test binary b as a worker in its package's
// directory, as the engine does, its own output going to diag.
func startWorker(t *testing.T, b Binary, diag *strings.Builder) *worker.Client {
	t.Helper()
	return startWorkerOn(t, b, diag, 1)
}

// startWorkerOn is startWorker with GOMAXPROCS procs.
func startWorkerOn(t *testing.T, b Binary, diag *strings.Builder, procs int) *worker.Client {
	t.Helper()
	c, err := worker.Start(context.Background(), "head", worker.Command{
		Path: b.Path, Args: b.WorkerArgs(),
		Env: append(os.Environ(), "WIREBENCH_WORKER_FDS=3,4", fmt.Sprintf("GOMAXPROCS=%d", procs)), Dir: b.Package.Dir, FDs: true,
	}, diag)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	return c
}

// TestOldLanguageVersion: the worker's files compile in a module whose
// go.mod names an old language version (msgpack/v5 v5.3.5 says go 1.11),
// in the package and in its external test package.
func TestOldLanguageVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":      "module example.com/old\n\ngo 1.11\n",
		"old.go":      "package old\n\nfunc Double(n int) int { return 2 * n }\n",
		"old_test.go": "package old\n\nimport \"testing\"\n\nfunc BenchmarkDouble(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tDouble(i)\n\t}\n}\n",
		"ext_test.go": "package old_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/old\"\n)\n\nfunc BenchmarkExternal(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\told.Double(i)\n\t}\n}\n",
	})
	ctx := context.Background()
	tree := Tree{Dir: dir}
	pkgs, err := Discover(ctx, tree, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	bins, _, err := Build(ctx, tree, pkgs, t.TempDir())
	if err != nil {
		t.Fatalf("a go 1.11 module: %v", err)
	}
	var diag strings.Builder
	c := startWorker(t, bins[0], &diag)
	names, _, err := c.List(ctx, ".")
	if want := []string{"BenchmarkDouble", "BenchmarkExternal"}; err != nil || !slices.Equal(names, want) {
		t.Errorf("listed %q (%v), want %q", names, err, want)
	}
	if s, err := c.Run(ctx, "BenchmarkExternal", 100, 0); err != nil || s.Iterations != 100 {
		t.Errorf("run: %+v, %v", s, err)
	}
}

func TestIsBenchmark(t *testing.T) {
	dir := module(t)
	found, err := testFuncs(filepath.Join(dir, "wire"), []string{"shapes.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if names := found.benchmarks; !slices.Equal(names, []string{"BenchmarkOne", "BenchmarkParallel", "BenchmarkSubParallel"}) {
		t.Errorf("benchmarks %q: only BenchmarkOne, BenchmarkParallel and BenchmarkSubParallel are benchmarks the go command runs", names)
	}
	if parallel := found.parallel; !slices.Equal(parallel, []string{"BenchmarkParallel", "BenchmarkSubParallel"}) {
		t.Errorf("parallel benchmarks %q, want the two that call RunParallel", parallel)
	}
}

// TestParallelBenchmark: a benchmark that calls RunParallel is found as
// such, and its worker lists and runs it with GOMAXPROCS 2, where testing
// names it "BenchmarkParallel-2".
func TestParallelBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/par\n\ngo 1.26\n",
		"par.go": "package par\n\nfunc Double(n int) int { return 2 * n }\n",
		"par_test.go": "package par\n\nimport \"testing\"\n\n" +
			"func BenchmarkParallel(b *testing.B) {\n\tb.RunParallel(func(pb *testing.PB) {\n\t\tfor i := 0; pb.Next(); i++ {\n\t\t\tDouble(i)\n\t\t}\n\t})\n}\n\n" +
			"func BenchmarkSerial(b *testing.B) {\n\tfor i := range b.N {\n\t\tDouble(i)\n\t}\n}\n",
	})
	ctx := context.Background()
	tree := Tree{Dir: dir}
	pkgs, err := Discover(ctx, tree, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || !slices.Equal(pkgs[0].Parallel, []string{"BenchmarkParallel"}) {
		t.Fatalf("discovered %+v, want BenchmarkParallel parallel", pkgs)
	}
	bins, _, err := Build(ctx, tree, pkgs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var diag strings.Builder
	c := startWorkerOn(t, bins[0], &diag, 2)
	names, _, err := c.List(ctx, ".")
	if want := []string{"BenchmarkParallel", "BenchmarkSerial"}; err != nil || !slices.Equal(names, want) {
		t.Fatalf("listed %q (%v), want %q\n%s", names, err, want, diag.String())
	}
	for _, name := range names {
		if s, err := c.Run(ctx, name, 1000, 0); err != nil || s.Iterations != 1000 {
			t.Errorf("run %s at GOMAXPROCS 2: %+v, %v\n%s", name, s, err, diag.String())
		}
	}
}

// TestBrokenPackages: a package whose test file does not parse, and one
// go list cannot load (an import that does not exist), are each a row of
// their own (Package.Broken, then a not-built trouble from Build), while
// the package that builds is built; when nothing builds, the error is
// the first package's.
func TestBrokenPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":            "module example.com/broken\n\ngo 1.22\n",
		"ok/ok.go":          "package ok\n\nfunc Double(n int) int { return 2 * n }\n",
		"ok/ok_test.go":     "package ok\n\nimport \"testing\"\n\nfunc BenchmarkDouble(b *testing.B) {\n\tfor i := range b.N {\n\t\tDouble(i)\n\t}\n}\n",
		"parse/p.go":        "package parse\n",
		"parse/p_test.go":   "package parse\n\nfunc BenchmarkX(b *testing.B) {\n",
		"missing/m.go":      "package missing\n\nimport _ \"example.com/nowhere/gone\"\n",
		"missing/m_test.go": "package missing\n\nimport \"testing\"\n\nfunc BenchmarkM(b *testing.B) {}\n",
		"notests/n.go":      "package notests\n\nimport _ \"example.com/nowhere/gone\"\n",
	})
	ctx := context.Background()
	tree := Tree{Dir: dir}
	pkgs, err := Discover(ctx, tree, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	broken := map[string]string{}
	for _, p := range pkgs {
		broken[p.ImportPath] = p.Broken
	}
	// go list -e loads missing, its import's error among its
	// dependencies' (it fails when built); parse's test file is ours to
	// read.
	if len(pkgs) != 3 || broken["example.com/broken/ok"] != "" || broken["example.com/broken/missing"] != "" || !strings.Contains(broken["example.com/broken/parse"], "p_test.go") {
		t.Fatalf("discovered %+v: want ok, missing, and parse broken with why (notests has no test file: not a row)", pkgs)
	}
	bins, troubles, err := Build(ctx, tree, pkgs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 1 || bins[0].Package.ImportPath != "example.com/broken/ok" {
		t.Errorf("built %+v, want ok's binary alone", bins)
	}
	var names []string
	for _, tr := range troubles {
		if tr.Kind != results.TroubleNotBuilt {
			t.Errorf("%s: kind %s, want not built", tr.Name, tr.Kind)
		}
		names = append(names, tr.Name)
	}
	if !slices.Equal(names, []string{"example.com/broken/parse", "example.com/broken/missing"}) || !strings.Contains(troubles[1].Why, "example.com/nowhere/gone") {
		t.Errorf("troubles %+v, want parse's and missing's, with the go command's error", troubles)
	}
	var onlyBroken []Package
	for _, p := range pkgs {
		if p.Broken != "" {
			onlyBroken = append(onlyBroken, p)
		}
	}
	var be *BrokenError
	if _, _, err := Build(ctx, tree, onlyBroken, t.TempDir()); !errors.As(err, &be) || !strings.Contains(err.Error(), "example.com/broken/parse") {
		t.Errorf("nothing to build: err %v, want the first package's BrokenError", err)
	}
}
