package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/results"
)

// clashModule copies internal/gotest's testdata/clash, a module whose
// packages declare the names wirebench's worker uses (see its README),
// into a directory of the test's own.
func clashModule(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clash")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "gotest", "testdata", "clash"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGoTestNoClashCounted counts, under callgrind, the benchmarks of
// testdata/clash's package, which declares the worker's names, builtins
// the worker calls, an assembly function named as the worker's client
// request, and files named as the worker's, in its own and its external
// test package: it builds with the counted build's patched testing
// package, and every benchmark of both is counted.
func TestGoTestNoClashCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("counts a test binary under valgrind")
	}
	vg, err := callgrind.Find(t.Context())
	if err != nil {
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	ctx := context.Background()
	settings := count.Settings{Valgrind: vg, Processes: 1, Blocks: 1, Jobs: 2, Seed: 1}
	prog, troubles, err := GoTest{Packages: []string{"."}, Bench: "."}.Target(Plan{Count: &settings}).Build(ctx, clashModule(t), t.TempDir())
	if err != nil || len(troubles) > 0 {
		t.Fatalf("build a package that declares the worker's names: %v %+v", err, troubles)
	}
	if len(prog) != 1 || !slices.Contains(prog[0].Command.Args, "-test.run=^TestWirebench3Worker$") {
		t.Fatalf("program %+v: want one part, started with its own worker test (wirebench and wirebench2 are the package's)", prog)
	}
	r, err := count.One(ctx, count.Build{Program: prog}, count.Options{Settings: settings, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("count: %v", err)
	}
	var counted []string
	for _, b := range r.Benchmarks {
		if v := b.Metric(results.UnitInstructionsPerOp); len(v) > 0 && v[0] > 0 {
			counted = append(counted, b.Name)
		}
	}
	want := []string{"BenchmarkEncode", "BenchmarkExternal", "BenchmarkInRegisterFile", "BenchmarkInWorker2File", "BenchmarkInWorkerFile",
		"BenchmarkNames/n=1", "BenchmarkNames/n=10"}
	slices.Sort(counted)
	if !slices.Equal(counted, want) {
		t.Errorf("counted %q, want %q", counted, want)
	}
}
