package count

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestKeepDir: one block's dumps a build and benchmark, the first to
// ask; a count of one build keeps the head's; none without Keep.
func TestKeepDir(t *testing.T) {
	r := &run{o: Options{Keep: "/k"}}
	a := r.keepDir("base", "example.com/m BenchmarkX/a=1")
	if a != filepath.Join("/k", "base", dumpName("example.com/m BenchmarkX/a=1")) || r.keepDir("base", "example.com/m BenchmarkX/a=1") != "" {
		t.Errorf("first %q, then not empty", a)
	}
	if h := r.keepDir("", "example.com/m BenchmarkX/a=1"); !strings.HasPrefix(h, filepath.Join("/k", "head")+"/") {
		t.Errorf("one build's %q, want under /k/head", h)
	}
	if (&run{}).keepDir("base", "x") != "" {
		t.Error("kept without Keep")
	}
	if dumpName("a b/c") == dumpName("a_b/c") || strings.ContainsAny(dumpName("../../etc passwd"), "/ ") {
		t.Errorf("dumpName: %q, %q, %q", dumpName("a b/c"), dumpName("a_b/c"), dumpName("../../etc passwd"))
	}
}

// dump is a callgrind dump of a block in which main.helper cost helper
// instructions and main.enc 100, built from the tree root (each build's
// in a directory of its own, as ab builds them).
func dump(root string, helper int) string {
	return "events: Ir\nfl=(1) " + root + "/src/enc.go\nfn=(1) main.enc\n10 100\ncfn=(2) main.helper\ncalls=1 20\n11 " + strconv.Itoa(helper) +
		"\nfn=(2)\n20 " + strconv.Itoa(helper) + "\ntotals: " + strconv.Itoa(100+helper) + "\n"
}

// TestSaveDumps: the kept dumps of the flagged benchmarks, both builds'
// files and their self cost per line in cachegrind's format (the
// difference method's 2n less n), with the commands that open them;
// cg_diff and cg_annotate, where installed, show the helper's growth.
func TestSaveDumps(t *testing.T) {
	kept, out := t.TempDir(), t.TempDir()
	plain, diff, unkept := "example.com/m BenchmarkEncode", "example.com/m BenchmarkDiff", "example.com/m BenchmarkNone"
	files := map[string]string{
		filepath.Join("base", dumpName(plain), keptBlock, "callgrind.out.1-01"): dump("/base", 300),
		filepath.Join("head", dumpName(plain), keptBlock, "callgrind.out.1-01"): dump("/head", 400),
		filepath.Join("head", dumpName(plain), keptBlock, "callgrind.out.1-02"): dump("/head", 50),
		filepath.Join("head", dumpName(diff), keptN, "callgrind.out.1-01"):      dump("/head", 300),
		filepath.Join("head", dumpName(diff), kept2N, "callgrind.out.2-01"):     dump("/head", 700),
	}
	for name, s := range files {
		path := filepath.Join(kept, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved, err := SaveDumps(kept, out, []string{plain, diff, unkept})
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != 2 || saved[plain] != filepath.Join(out, dumpName(plain)) || saved[unkept] != "" {
		t.Fatalf("saved %v", saved)
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The head's two threads summed; the difference 700 less 300.
	if s := read(filepath.Join(dumpName(plain), "head.cg.out")); !strings.Contains(s, "fn=main.helper\n20 450\n") || !strings.Contains(s, "summary: 650\n") {
		t.Errorf("head.cg.out:\n%s", s)
	}
	if s := read(filepath.Join(dumpName(diff), "head.cg.out")); !strings.Contains(s, "fn=main.helper\n20 400\n") || !strings.Contains(s, "fn=main.enc\n10 0\n") {
		t.Errorf("the difference's head.cg.out:\n%s", s)
	}
	if s := read(filepath.Join(dumpName(plain), "base", keptBlock, "callgrind.out.1-01")); s != dump("/base", 300) {
		t.Errorf("the base's dump was not copied as it was: %q", s)
	}
	readme := read(filepath.Join(dumpName(plain), DumpsReadme))
	for _, want := range []string{DiffCommand(true), "kcachegrind head/block/callgrind.out.1-01"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q:\n%s", want, readme)
		}
	}
	if s := read(filepath.Join(dumpName(diff), DumpsReadme)); !strings.Contains(s, DiffCommand(false)) || strings.Contains(s, "cg_diff") {
		t.Errorf("the head-only README:\n%s", s)
	}
	if _, err := exec.LookPath("cg_diff"); err != nil {
		t.Skip("cg_diff is not installed (Valgrind):", err)
	}
	cmd := exec.Command("sh", "-c", DiffCommand(true)+" --auto=no --show-percs=no")
	cmd.Dir = saved[plain]
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", DiffCommand(true), err, got)
	}
	// The builds' trees differ; the difference is still per function,
	// not one line a build.
	if !strings.Contains(string(got), "150  enc.go:main.helper") || strings.Contains(string(got), "/head/src/enc.go") {
		t.Errorf("the difference does not show main.helper +150 alone:\n%s", got)
	}
}
