package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/program"
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

// TestTestMainWithoutRun: a package whose TestMain ends the test binary
// without calling m.Run, after starting a process that outlives it
// (testdata/clash/exit), never runs the worker. Starting it fails at
// once, not when that process ends, with one error that names the
// package, its TestMain and m.Run.
func TestTestMainWithoutRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	ctx := context.Background()
	prog, troubles, err := GoTest{Packages: []string{"./exit"}, Bench: "."}.Target(Plan{}).Build(ctx, clashModule(t), t.TempDir())
	if err != nil || len(troubles) > 0 {
		t.Fatal(err, troubles)
	}
	// The process TestMain starts lives while hold exists, a minute at
	// most.
	hold := filepath.Join(t.TempDir(), "hold")
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(hold)
	start := time.Now()
	w, err := program.Start(ctx, "", "", prog, append(os.Environ(), "CLASH_EXIT_HOLD="+hold), program.StartOptions{}, program.NewLists())
	if err == nil {
		w.Kill()
		t.Fatal("a worker started in a test binary whose TestMain never calls m.Run")
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the failure took %s: it waited for the process TestMain left behind", took.Round(time.Second))
	}
	for _, want := range []string{"example.com/clash/exit", "TestMain (exit_test.go)", "m.Run", "no service to test against"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}
