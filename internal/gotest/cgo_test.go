package gotest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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

func TestExplicitCgo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		on, set bool
		err     bool
	}{
		{"unset", []string{"PATH=/bin"}, false, false, false},
		{"empty, as unset to the go command", []string{"CGO_ENABLED="}, false, false, false},
		{"off", []string{"CGO_ENABLED=0"}, false, true, false},
		{"on", []string{"CGO_ENABLED=1"}, true, true, false},
		{"the last one counts", []string{"CGO_ENABLED=1", "CGO_ENABLED=0"}, false, true, false},
		{"a value the go command does not take", []string{"CGO_ENABLED=yes"}, false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			on, set, err := explicitCgo(tc.env)
			if on != tc.on || set != tc.set || (err != nil) != tc.err {
				t.Errorf("explicitCgo(%q) = %v, %v, %v; want %v, %v, error %v", tc.env, on, set, err, tc.on, tc.set, tc.err)
			}
		})
	}
}

func TestFindProgram(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"bin/cc": "#!/bin/sh\n", "bin/notexec": "", "other/x": ""})
	if err := os.Chmod(filepath.Join(dir, "bin", "cc"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	path := filepath.Join(dir, "other") + string(filepath.ListSeparator) + bin
	for _, tc := range []struct {
		name, cmd, path string
		why             string // "" found
	}{
		{"in PATH", "cc", path, ""},
		{"in PATH, with flags", "cc -m64", path, ""},
		{"not in PATH", "gcc", path, "gcc is not in PATH"},
		{"in PATH but not executable", "notexec", path, "notexec is not in PATH"},
		{"by its path", filepath.Join(bin, "cc"), "", ""},
		{"a path that does not exist", filepath.Join(bin, "gcc"), path, "does not exist"},
		{"a directory", bin, path, "is a directory"},
		{"not executable", filepath.Join(bin, "notexec"), path, "is not executable"},
		{"empty", " ", path, "it is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := findProgram(tc.cmd, tc.path)
			if tc.why == "" && err != nil || tc.why != "" && (err == nil || !strings.Contains(err.Error(), tc.why)) {
				t.Errorf("findProgram(%q) = %v, want %q", tc.cmd, err, tc.why)
			}
		})
	}
}

// TestNeedsFrom: a test binary needs cgo when it links a package outside
// the standard library that uses cgo, itself or a dependency, under a
// test variant's name or not; the standard library's cgo does not count.
func TestNeedsFrom(t *testing.T) {
	listed := map[string]depListed{
		"runtime/cgo":             {ImportPath: "runtime/cgo", Standard: true, CgoFiles: []string{"cgo.go"}},
		"net":                     {ImportPath: "net", Standard: true, CgoFiles: []string{"cgo_unix.go"}},
		"testing":                 {ImportPath: "testing", Standard: true},
		"m/c":                     {ImportPath: "m/c", CgoFiles: []string{"c.go"}},
		"m/c [m/c.test]":          {ImportPath: "m/c [m/c.test]", CgoFiles: []string{"c.go"}},
		"m/c.test":                {ImportPath: "m/c.test", Deps: []string{"m/c [m/c.test]", "runtime/cgo", "testing"}},
		"m/use":                   {ImportPath: "m/use"},
		"m/use_test [m/use.test]": {ImportPath: "m/use_test [m/use.test]"},
		"m/use.test":              {ImportPath: "m/use.test", Deps: []string{"m/c", "m/use", "m/use_test [m/use.test]", "runtime/cgo", "testing"}},
		"m/net":                   {ImportPath: "m/net"},
		"m/net.test":              {ImportPath: "m/net.test", Deps: []string{"m/net [m/net.test]", "net", "runtime/cgo", "testing"}},
		"m/swig":                  {ImportPath: "m/swig", SwigFiles: []string{"x.swig"}},
		"m/swig.test":             {ImportPath: "m/swig.test", Deps: []string{"m/swig", "testing"}},
		"m/notest":                {ImportPath: "m/notest", CgoFiles: []string{"c.go"}},
	}
	got := needsFrom(listed, []string{"m/c", "m/use", "m/net", "m/swig", "m/notest"})
	want := map[string][]string{"m/c": {"m/c"}, "m/use": {"m/c"}, "m/swig": {"m/swig"}}
	if len(got) != len(want) {
		t.Errorf("needs %q, want %q", got, want)
	}
	for root, w := range want {
		if !slices.Equal(got[root], w) {
			t.Errorf("%s needs %q, want %q", root, got[root], w)
		}
	}
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

// envWith is the process's environment with the given variables set.
func envWith(kv ...string) []string {
	env := os.Environ()
	for _, s := range kv {
		name, _, _ := strings.Cut(s, "=")
		env = slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, name+"=") })
	}
	return append(env, kv...)
}

// envWithout is the process's environment without the variable name.
func envWithout(name string) []string {
	return slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, name+"=") })
}

// TestDiscoverCgo: without CGO_ENABLED in the environment, the packages
// whose test binaries link cgo code outside the standard library are
// built with cgo, each with what it needs, and only they (a package
// that only exists with cgo is found too); the environment's CGO_ENABLED
// decides for every package.
func TestDiscoverCgo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	writeFiles(t, dir, cgoModule)
	type want struct {
		cgo, uses bool
		needs     []string
	}
	for _, tc := range []struct {
		name string
		env  []string
		want map[string]want
	}{
		{"unset", envWithout("CGO_ENABLED"), map[string]want{
			"example.com/c/sum":    {true, true, []string{"example.com/c/sum"}},
			"example.com/c/use":    {true, false, []string{"example.com/c/sum"}},
			"example.com/c/plain":  {false, false, nil},
			"example.com/c/tagged": {true, true, []string{"example.com/c/tagged"}},
		}},
		{"CGO_ENABLED=1", envWith("CGO_ENABLED=1"), map[string]want{
			"example.com/c/sum":    {true, true, nil},
			"example.com/c/use":    {true, false, nil},
			"example.com/c/plain":  {true, false, nil},
			"example.com/c/tagged": {true, true, nil},
		}},
		// Without cgo sum's and use's benchmarks are still found (their
		// builds fail, as go test's would); tagged is no package.
		{"CGO_ENABLED=0", envWith("CGO_ENABLED=0"), map[string]want{
			"example.com/c/sum":   {false, false, nil},
			"example.com/c/use":   {false, false, nil},
			"example.com/c/plain": {false, false, nil},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkgs, err := Discover(context.Background(), Tree{Dir: dir, Env: tc.env}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(pkgs) != len(tc.want) {
				t.Errorf("%d packages, want %d: %+v", len(pkgs), len(tc.want), pkgs)
			}
			for _, p := range pkgs {
				w, ok := tc.want[p.ImportPath]
				if !ok || p.Cgo != w.cgo || p.UsesCgo != w.uses || !slices.Equal(p.NeedsCgo, w.needs) || len(p.Benchmarks()) != 1 {
					t.Errorf("%s: cgo %v, uses cgo %v, needs %q, benchmarks %q; want %+v", p.ImportPath, p.Cgo, p.UsesCgo, p.NeedsCgo, p.Benchmarks(), w)
				}
			}
		})
	}
	if _, err := Discover(context.Background(), Tree{Dir: dir, Env: envWith("CGO_ENABLED=on")}, nil); err == nil || !strings.Contains(err.Error(), "takes 0 or 1") {
		t.Errorf("CGO_ENABLED=on: %v, want an error saying the go command takes 0 or 1", err)
	}
}

// TestCheckCompiler: a build with cgo and no C compiler is one error,
// before any build, naming the package, why it needs cgo and the fixes;
// a build without cgo needs none.
func TestCheckCompiler(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-cc")
	sum := Package{ImportPath: "example.com/c/sum", Cgo: true, UsesCgo: true, NeedsCgo: []string{"example.com/c/sum"}}
	use := Package{ImportPath: "example.com/c/use", Cgo: true, NeedsCgo: []string{"example.com/c/a", "example.com/c/sum"}}
	plain := Package{ImportPath: "example.com/c/plain"}
	for _, tc := range []struct {
		name string
		env  []string
		pkgs []Package
		says []string // nil: no error
	}{
		{"no package with cgo", envWith("CC=" + missing), []Package{plain}, nil},
		{"the package uses cgo", envWith("CC=" + missing), []Package{plain, sum}, []string{
			`example.com/c/sum uses cgo (import "C")`, "no C compiler", `go env CC is "` + missing + `"`, "no-cc does not exist",
			"apt-get install gcc libc6-dev", "set CC to one", "set CGO_ENABLED=0 if the package builds without cgo"}},
		{"it links a package that does", envWith("CC=" + missing), []Package{use}, []string{
			"example.com/c/use needs cgo: its test binary links example.com/c/a (and 1 more), which uses it"}},
		{"CGO_ENABLED=1 asks for it", envWith("CC="+missing, "CGO_ENABLED=1"), []Package{{ImportPath: "example.com/c/plain", Cgo: true}}, []string{
			"CGO_ENABLED=1 is set, so the test binary of example.com/c/plain is built with cgo", "or unset CGO_ENABLED"}},
		{"no compiler in PATH", envWith("CC=", "PATH="+dir), []Package{sum}, []string{"is not in PATH (" + dir + ")"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckCompiler(context.Background(), Tree{Dir: dir, Env: tc.env}, tc.pkgs)
			if tc.says == nil {
				if err != nil {
					t.Errorf("no package built with cgo: %v", err)
				}
				return
			}
			var ce *CompilerError
			if !errors.As(err, &ce) {
				t.Fatalf("%v, want a *CompilerError", err)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("the error lacks %q:\n%v", s, err)
				}
			}
		})
	}
}

// TestBuildCgo builds the test binaries of cgoModule's packages as the
// action does, counted (with the timer hooks) and timed, and runs the
// worker of sum, whose own .s files the C compiler gets, and of use: the
// client request is in their builds' testing package, and their
// benchmarks run. And no C compiler fails before any build.
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
	out := t.TempDir()
	tree.Env = envWith("CC=" + filepath.Join(dir, "no-cc"))
	var ce *CompilerError
	if _, _, err := Build(ctx, tree, pkgs, out); !errors.As(err, &ce) {
		t.Errorf("no C compiler: %v, want a *CompilerError", err)
	}
	if bins, _ := filepath.Glob(filepath.Join(out, "*.test")); len(bins) > 0 {
		t.Errorf("no C compiler, but %q were built", bins)
	}
}

// TestHashCgo: a package that needs no cgo is built into the same
// binary, so the same hash, whether the environment turns cgo off and
// there is no C compiler (the action's image before it had one) or it
// leaves cgo to wirebench and there is one: a stored baseline's hashes
// hold. A package built with cgo has one hash in two checkouts, as any
// other.
func TestHashCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries with cgo")
	}
	needCompiler(t)
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	// A PATH with the go command and nothing else: no C compiler.
	goOnly := t.TempDir()
	if err := os.Symlink(gobin, filepath.Join(goOnly, "go")); err != nil {
		t.Fatal(err)
	}
	hashes := func(env []string, patterns ...string) map[string]string {
		t.Helper()
		dir := t.TempDir()
		writeFiles(t, filepath.Join(dir, "src"), cgoModule)
		tree := Tree{Dir: filepath.Join(dir, "src"), Env: env, TimerHooks: true}
		pkgs, err := Discover(context.Background(), tree, patterns)
		if err != nil {
			t.Fatal(err)
		}
		bins, troubles, err := Build(context.Background(), tree, pkgs, filepath.Join(dir, "bin"))
		if err != nil || len(troubles) > 0 {
			t.Fatal(troubles, err)
		}
		out := map[string]string{}
		for _, b := range bins {
			out[b.Package.ImportPath] = b.Hash
		}
		return out
	}
	const plain, sum = "example.com/c/plain", "example.com/c/sum"
	before := hashes(envWith("CGO_ENABLED=0", "PATH="+goOnly), "./plain")
	now := hashes(envWithout("CGO_ENABLED"), "./plain", "./sum")
	if before[plain] == "" || before[plain] != now[plain] {
		t.Errorf("%s: hash %q without cgo or a C compiler, %q with cgo left to wirebench and a C compiler: want the same", plain, before[plain], now[plain])
	}
	if again := hashes(envWithout("CGO_ENABLED"), "./sum"); now[sum] == "" || again[sum] != now[sum] {
		t.Errorf("%s: hashes %q and %q in two checkouts, want the same", sum, now[sum], again[sum])
	}
}
