package gotest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copyModule copies the module testdata/name into a directory of the
// test's own.
func copyModule(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestNoClash builds and runs the worker in testdata/clash, a package
// that declares the names the worker's files used to import and declare
// (bytes, json, fmt, os, testing, ..., wirebenchWorker,
// WirebenchWorkerBenchmarks, TestWirebenchWorker), builtins (len, close,
// append, min, max), an assembly function named as the worker's client
// request, files named as the worker's (zz_wirebench_worker_test.go, with
// a benchmark in it), a TestMain and an init that parses the flags, and
// an external test package that declares them too: every benchmark of
// both, those in the files named like the worker's included, is listed
// and gives results, and TestMain wrapped the worker.
func TestNoClash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := copyModule(t, "clash")
	ctx := context.Background()
	tree := Tree{Dir: dir}
	pkgs, err := Discover(ctx, tree, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	bins, troubles, err := Build(ctx, tree, pkgs, t.TempDir())
	if err != nil || len(troubles) > 0 {
		t.Fatalf("a package that declares the worker's names: %v %+v", err, troubles)
	}
	// wirebench and wirebench2 are taken: by identifiers, and by
	// zz_wirebench2_worker_test.go.
	if bins[0].Test != "TestWirebench3Worker" {
		t.Errorf("the worker's test is %s, want TestWirebench3Worker", bins[0].Test)
	}
	var diag strings.Builder
	c := startWorker(t, bins[0], &diag)
	names, troubles, err := c.List(ctx, ".")
	if err != nil || len(troubles) > 0 {
		t.Fatalf("list: %v %+v\n%s", err, troubles, diag.String())
	}
	want := []string{"BenchmarkEncode", "BenchmarkInWorker2File", "BenchmarkInWorkerFile", "BenchmarkNames/n=1", "BenchmarkNames/n=10",
		"BenchmarkExternal", "BenchmarkInRegisterFile"}
	if !slices.Equal(names, want) {
		t.Errorf("listed %q, want %q", names, want)
	}
	for _, name := range want {
		s, err := c.Run(ctx, name, 200, 0)
		if err != nil || s.Iterations != 200 || s.Elapsed <= 0 {
			t.Errorf("run %s: %+v, %v\n%s", name, s, err, diag.String())
		}
	}
	if s, _ := c.Run(ctx, "BenchmarkEncode", 10, 0); s.Metrics["B/msg"] != 7 {
		t.Errorf("BenchmarkEncode reported %v, want the package's own len of its fmt, 7 B/msg", s.Metrics)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if !strings.Contains(diag.String(), "clash: TestMain set up") || !strings.Contains(diag.String(), "clash: TestMain tore down") {
		t.Errorf("the package's TestMain did not wrap the worker:\n%s", diag.String())
	}
}

// TestChooseNames: the worker's names in a package are made of the first
// tag nothing in its directory starts with: no identifier declared or
// imported by any of its .go files (whatever the build constraints, in
// either test package; a file that does not parse gives the names before
// its error), no entry of the directory with zz_ and the tag, in any
// case.
func TestChooseNames(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		tag   string
	}{
		{"nothing taken", map[string]string{"a.go": "package a\n\nimport \"bytes\"\n\nvar json = bytes.NewBuffer(nil)\n"}, "wirebench"},
		{"a variable", map[string]string{"a.go": "package a\n\nvar wirebenchX = 1\n"}, "wirebench2"},
		{"a constant, exactly", map[string]string{"a.go": "package a\n\nconst wirebench = 1\n"}, "wirebench2"},
		{"a type", map[string]string{"a.go": "package a\n\ntype wirebenchT int\n"}, "wirebench2"},
		{"a function", map[string]string{"a.go": "package a\n\nfunc wirebenchF() {}\n"}, "wirebench2"},
		{"a method does not count", map[string]string{"a.go": "package a\n\ntype T int\n\nfunc (T) wirebenchF() {}\n"}, "wirebench"},
		{"a local does not count", map[string]string{"a.go": "package a\n\nfunc F() { wirebench := 1; _ = wirebench }\n"}, "wirebench"},
		{"the test's name", map[string]string{"a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestWirebenchWorker(t *testing.T) {}\n"}, "wirebench2"},
		{"a test with the test's prefix", map[string]string{"a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestWirebench(t *testing.T) {}\n"}, "wirebench2"},
		{"an import name", map[string]string{"a.go": "package a\n\nimport wirebenchio \"io\"\n\nvar _ = wirebenchio.EOF\n"}, "wirebench2"},
		{"an import's last element", map[string]string{"a.go": "package a\n\nimport \"example.com/wirebench\"\n"}, "wirebench2"},
		{"an import's name before its version", map[string]string{"a.go": "package a\n\nimport \"gopkg.in/wirebench.v2\"\n"}, "wirebench2"},
		{"the external test package", map[string]string{"a.go": "package a\n", "x_test.go": "package a_test\n\nvar wirebenchtesting = 1\n"}, "wirebench2"},
		{"another build's file", map[string]string{"a.go": "package a\n", "b.go": "//go:build ignore\n\npackage a\n\nvar wirebench = 1\n"}, "wirebench2"},
		{"a file that does not parse", map[string]string{"a.go": "package a\n\nvar wirebench = 1\n\nfunc (\n"}, "wirebench2"},
		{"the worker's file", map[string]string{"a.go": "package a\n", "zz_wirebench_worker_test.go": "package a\n"}, "wirebench2"},
		{"the worker's file in capitals", map[string]string{"a.go": "package a\n", "ZZ_WIREBENCH_REGISTER_TEST.GO": ""}, "wirebench2"},
		{"the worker's directory", map[string]string{"a.go": "package a\n", "zz_wirebench_worker/x.txt": ""}, "wirebench2"},
		{"an assembly symbol", map[string]string{"a.go": "package a\n", "a_amd64.s": "TEXT ·wirebenchAdd(SB), 4, $0-24\n\tRET\n"}, "wirebench2"},
		{"an assembly symbol with the package's path", map[string]string{"a.go": "package a\n", "a_arm64.s": "GLOBL example∕com∕a·wirebench(SB), 8, $8\n"}, "wirebench2"},
		{"two taken", map[string]string{"a.go": "package a\n\nvar wirebench = 1\n", "zz_wirebench2.s": ""}, "wirebench3"},
		{"taken by a longer name only", map[string]string{"a.go": "package a\n\nvar wirebench2x, wirebenchy = 1, 2\n"}, "wirebench3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			got, err := chooseNames(Package{ImportPath: "example.com/a", Dir: dir, Name: "a"})
			if err != nil {
				t.Fatal(err)
			}
			want := namesFor(tt.tag, Package{ImportPath: "example.com/a", Dir: dir})
			if got != want {
				t.Errorf("names %+v, want %+v", got, want)
			}
		})
	}
}

// TestNamesFor: the names made of a tag.
func TestNamesFor(t *testing.T) {
	got := namesFor("wirebench2", Package{ImportPath: "example.com/a", Dir: "/src/a"})
	want := workerNames{Tag: "wirebench2", Test: "TestWirebench2Worker", TestFile: "zz_wirebench2_worker_test.go", RegisterFile: "zz_wirebench2_register_test.go",
		HelperDir: filepath.FromSlash("/src/a/zz_wirebench2_worker"), HelperPath: "example.com/a/zz_wirebench2_worker"}
	if got != want {
		t.Errorf("namesFor: %+v, want %+v", got, want)
	}
}

// TestWorkerVet: the worker's files, written into a copy of
// testdata/clash beside the package's own (which go vet passes), pass go
// vet too, built as wirebench builds them with and without the timer
// hooks (then with the patched testing package's overlay): go test -c
// vets a package's files unless told not to.
func TestWorkerVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and vets test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, hooks := range []bool{false, true} {
		t.Run(fmt.Sprintf("hooks=%v", hooks), func(t *testing.T) {
			dir := copyModule(t, "clash")
			ctx := context.Background()
			tree := Tree{Dir: dir, TimerHooks: hooks}
			pkgs, err := Discover(ctx, tree, []string{"./..."})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if _, troubles, err := Build(ctx, tree, pkgs, out); err != nil || len(troubles) > 0 {
				t.Fatal(err, troubles)
			}
			overlay := filepath.Join(out, "overlay", "overlay.json")
			written := materialize(t, overlay, dir)
			if len(written) == 0 {
				t.Fatal("the overlay has no file of the module")
			}
			if vet, err := goCommand(ctx, tree, "vet", "-overlay", overlay, "./..."); err != nil {
				t.Errorf("go vet of the package with the worker's files %q: %v\n%s", written, err, vet)
			}
		})
	}
}

// materialize copies every file of the overlay file overlay whose path
// is under dir to that path, so that tools that run in a package's
// directory (go vet) find the worker's package's; it returns their paths
// relative to dir.
func materialize(t *testing.T, overlay, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(overlay)
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	var written []string
	for target, src := range o.Replace {
		rel, err := filepath.Rel(dir, target)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		content, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{rel: string(content)})
		written = append(written, rel)
	}
	slices.Sort(written)
	return written
}

// TestNamesBesidePeer: a package built beside the other side's checkout
// (Tree.Peer) takes a tag that clashes with neither side's names, so the
// base, which declares none, and a head that declares wirebenchSpin both
// take wirebench2 (their processes of one seed then pair); a peer
// without the package adds nothing.
func TestNamesBesidePeer(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	writeFiles(t, base, map[string]string{"go.mod": "module example.com/m\n", "a/a.go": "package a\n"})
	writeFiles(t, head, map[string]string{"go.mod": "module example.com/m\n", "a/a.go": "package a\n\nfunc wirebenchSpin() {}\n"})
	for _, tt := range []struct {
		name, dir, peer, tag string
	}{
		{"the base alone", base, "", "wirebench"},
		{"the base beside the head", base, head, "wirebench2"},
		{"the head beside the base", head, base, "wirebench2"},
		{"a peer without the package", base, t.TempDir(), "wirebench"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pkgs := withPeer(Tree{Dir: tt.dir, Peer: tt.peer}, []Package{{ImportPath: "example.com/m/a", Dir: filepath.Join(tt.dir, "a"), Name: "a"}})
			got, err := chooseNames(pkgs[0])
			if err != nil {
				t.Fatal(err)
			}
			if got.Tag != tt.tag {
				t.Errorf("tag %s, want %s", got.Tag, tt.tag)
			}
		})
	}
}
