package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// cgoModule is testdata/cgomod, whose benchmarks need cgo: BenchmarkSum
// calls a C loop of n iterations (n=100 and n=1000), use's BenchmarkTwice
// links it, and plain's BenchmarkParse needs no cgo.
func cgoModule() string { return filepath.Join(e2eDir, "testdata", "cgomod") }

// cgoBenchmarks are testdata/cgomod's benchmarks, by package.
var cgoBenchmarks = []string{
	"example.com/cgomod BenchmarkSum/n=100",
	"example.com/cgomod BenchmarkSum/n=1000",
	"example.com/cgomod/plain BenchmarkParse",
	"example.com/cgomod/use BenchmarkTwice",
}

// cgoNote is the start of the line with which wirebench says which test
// binaries it builds with cgo (source.cgoNote).
const cgoNote = "wirebench: the test binaries of "

// needCompiler skips a test that builds with cgo where the go command
// finds no C compiler (fails under WIREBENCH_REQUIRE_TOOLS=1).
func needCompiler(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "env", "CC").Output()
	cc := strings.Fields(string(out))
	if err == nil && len(cc) > 0 {
		if _, err = exec.LookPath(cc[0]); err == nil {
			return
		}
	}
	if os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "" {
		t.Fatalf("no C compiler (go env CC: %q, %v): install gcc and libc6-dev", out, err)
	}
	t.Skipf("no C compiler (go env CC: %q, %v)", out, err)
}

// wantCgoNote checks the line that names the packages built with cgo:
// the package that calls C and the one that links it, not plain.
func wantCgoNote(t *testing.T, stderr string) {
	t.Helper()
	i := strings.Index(stderr, cgoNote)
	if i < 0 {
		t.Errorf("no %q line naming the packages built with cgo:\n%s", cgoNote, stderr)
		return
	}
	line, _, _ := strings.Cut(stderr[i:], "\n")
	if !strings.Contains(line, "example.com/cgomod, example.com/cgomod/use ") || strings.Contains(line, "plain") {
		t.Errorf("the cgo line names other packages than example.com/cgomod and example.com/cgomod/use: %q", line)
	}
}

// checkCgoResults checks a run of testdata/cgomod: every benchmark has
// unit's samples, and, counted, the C loop is in the count: 900 more
// iterations of it (n=1000 against n=100) add 3 to 20 instructions each
// to every process's count (it is about 7: a count that missed the C
// code, run by cgo on the thread's system stack, would add none).
func checkCgoResults(t *testing.T, r *results.Results, unit string) {
	t.Helper()
	var names []string
	for _, b := range r.Benchmarks {
		names = append(names, b.Pkg+" "+b.Name)
		if len(b.Metric(unit)) == 0 {
			t.Errorf("%s %s has no %s", b.Pkg, b.Name, unit)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, cgoBenchmarks) {
		t.Errorf("benchmarks %q, want %q", names, cgoBenchmarks)
	}
	if unit != "instructions/op" {
		return
	}
	short, long := r.Lookup(results.Key("example.com/cgomod", "BenchmarkSum/n=100")), r.Lookup(results.Key("example.com/cgomod", "BenchmarkSum/n=1000"))
	if short == nil || long == nil {
		return // named above
	}
	a, b := short.Metric(unit), long.Metric(unit)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("instructions/op of n=100 %v and n=1000 %v: want as many processes of each", a, b)
	}
	for i := range a {
		if per := (b[i] - a[i]) / 900; per < 3 || per > 20 {
			t.Errorf("process %d: n=100 %.0f and n=1000 %.0f instructions/op, %.1f an iteration of the C loop: want 3 to 20", i, a[i], b[i], per)
		}
	}
}

// TestCgoModule runs testdata/cgomod's benchmarks, whose package calls C,
// counted and timed: the packages that need cgo are built with it (the
// line that says so names them), and the C code is counted; and, with no
// C compiler (CC names none), the run fails before any build with the one
// error that names the package, cgo and the fix.
func TestCgoModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module's benchmarks with cgo")
	}
	needCompiler(t)
	dir := cgoModule()
	t.Run("counted", func(t *testing.T) {
		needValgrind(t)
		out := filepath.Join(t.TempDir(), "results.json")
		code, stdout, stderr := wb(t, dir, "run", "--bench", ".", "--metric", "instructions", "--processes", "3", "--out", out)
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		wantCgoNote(t, stderr)
		checkCgoResults(t, readResults(t, out), "instructions/op")
	})
	t.Run("timed", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "results.json")
		code, stdout, stderr := wb(t, dir, "run", "--bench", ".", "--metric", "time", "--budget", "2s", "--samples", "5", "--out", out)
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		wantCgoNote(t, stderr)
		checkCgoResults(t, readResults(t, out), "ns/op")
	})
	t.Run("no C compiler", func(t *testing.T) {
		t.Setenv("CC", filepath.Join(t.TempDir(), "no-cc"))
		code, stdout, stderr := wb(t, dir, "run", "--bench", ".", "--metric", "time", "--budget", "2s")
		// The one error, ours: not the go command's own (cgo: C compiler
		// ... not found), which only a build that started would give.
		msg := stdout + stderr
		for _, want := range []string{"example.com/cgomod uses cgo (import \"C\")", "go env CC is", "no-cc does not exist", "apt-get install gcc libc6-dev", "set CC to one", "CGO_ENABLED=0"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the error lacks %q", want)
			}
		}
		if code != exitBadInput || strings.Contains(msg, "cgo: C compiler") || strings.Count(msg, "no C compiler") != 1 {
			t.Errorf("exit %d, want %d with the one error before any build\n%s", code, exitBadInput, msg)
		}
	})
}

// readResults reads a results file.
func readResults(t *testing.T, path string) *results.Results {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := results.Read(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
