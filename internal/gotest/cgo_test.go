package gotest

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// cgoModule is a module whose benchmarks need cgo in two ways, and do
// not in two others:
//   - sum calls C from its benchmark (import "C" in sum.go);
//   - use links sum, using no cgo itself;
//   - plain imports net, whose resolver uses cgo where cgo is on, but
//     the standard library's cgo has pure Go fallbacks;
//   - tagged is only a package with cgo on (every file of it, its test
//     file too, is for cgo): without cgo ./... has no such package.
var cgoModule = map[string]string{
	"go.mod":     "module example.com/c\n\ngo 1.24\n",
	"sum/sum.go": "package sum\n\n// static unsigned long wb_sum(unsigned long n) { unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += i ^ (s >> 3); return s; }\nimport \"C\"\n\nfunc Sum(n int) uint64 { return uint64(C.wb_sum(C.ulong(n))) }\n",
	"sum/sum_test.go": `package sum

import "testing"

func BenchmarkSum(b *testing.B) {
	for b.Loop() {
		Sum(100)
	}
}
`,
	"use/use.go":       "package use\n\nimport \"example.com/c/sum\"\n\nfunc Twice(n int) uint64 { return 2 * sum.Sum(n) }\n",
	"use/use_test.go":  "package use_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/c/use\"\n)\n\nfunc BenchmarkTwice(b *testing.B) {\n\tfor b.Loop() {\n\t\tuse.Twice(10)\n\t}\n}\n",
	"plain/plain.go":   "package plain\n\nimport \"net\"\n\nfunc Parse(s string) net.IP { return net.ParseIP(s) }\n",
	"plain/p_test.go":  "package plain\n\nimport \"testing\"\n\nfunc BenchmarkParse(b *testing.B) {\n\tfor b.Loop() {\n\t\tParse(\"192.0.2.1\")\n\t}\n}\n",
	"tagged/tagged.go": "package tagged\n\n// static int one(void) { return 1; }\nimport \"C\"\n\nfunc One() int { return int(C.one()) }\n",
	"tagged/t_test.go": "//go:build cgo\n\npackage tagged\n\nimport \"testing\"\n\nfunc BenchmarkOne(b *testing.B) {\n\tfor b.Loop() {\n\t\tOne()\n\t}\n}\n",
}

// needCompiler skips a test that builds with cgo where the go command
// finds no C compiler (fails under WIREBENCH_REQUIRE_TOOLS=1).
func needCompiler(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
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

// envWithout is the process's environment without the variable name.
func envWithout(name string) []string {
	return slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, name+"=") })
}

// TestBuildCgo builds the test binaries of cgoModule's packages as the
// action does, counted (with the timer hooks) and timed, and runs the
// worker of sum, whose own .s files the C compiler gets, and of use: the
// client request is in their builds' testing package, and their
// benchmarks run.
func TestBuildCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries with cgo")
	}
	needCompiler(t)
	dir := t.TempDir()
	writeFiles(t, dir, cgoModule)
	ctx := context.Background()
	tree := Tree{Dir: dir, Env: envWithout("CGO_ENABLED")}
	pkgs, err := Discover(ctx, tree, []string{"./sum", "./use"})
	if err != nil {
		t.Fatal(err)
	}
	for _, hooks := range []bool{true, false} {
		tree.TimerHooks = hooks
		bins, troubles, err := Build(ctx, tree, pkgs, t.TempDir())
		if err != nil || len(troubles) > 0 || len(bins) != 2 {
			t.Fatalf("timer hooks %v: %d binaries, troubles %+v, %v", hooks, len(bins), troubles, err)
		}
		for _, b := range bins {
			var diag strings.Builder
			c := startWorker(t, b, &diag)
			name := b.Package.Benchmarks()[0]
			if s, err := c.Run(ctx, name, 100, 0); err != nil || s.Iterations != 100 {
				t.Errorf("timer hooks %v: %s %s: %+v, %v\n%s", hooks, b.Package.ImportPath, name, s, err, diag.String())
			}
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		}
	}
}
