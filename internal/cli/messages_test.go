package cli

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// brokenAndPanicking are two more packages for twoPackages: c's benchmark
// does not compile (a type error, so it parses), d's panics.
var brokenAndPanicking = map[string]string{
	"c/c.go":      "package c\n",
	"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc BenchmarkBroken(b *testing.B) {\n\tvar n int = \"not a number\"\n\t_ = n\n}\n",
	"d/d.go":      "package d\n",
	"d/d_test.go": "package d\n\nimport \"testing\"\n\nfunc BenchmarkPanics(b *testing.B) {\n\tif b.N > 1 {\n\t\tpanic(\"boom in BenchmarkPanics\")\n\t}\n}\n",
}

// TestModuleMessages: what a module's benchmarks make wirebench say is
// true, and the exit status says whose the failure is.
//   - A --bench pattern that matches no benchmark function is refused
//     before anything is built (the package that does not compile is not
//     reached), naming the pattern and the functions there are; a
//     package none of whose functions match is not built at all.
//   - Plain run errors say nothing of an A/B comparison.
//   - Without a baseline, check passes and names the update that makes
//     one, with the check's own flags.
//   - stderr is quiet by default (no worker PASS line, no line per
//     round), and -v shows them.
//   - Benchmarks that do not compile, or that panic, fail check with a
//     report and exit 1, the panic's trace printed once.
//   - ab names the side that does not build: a head fails the gate with
//     a report (exit 1), a base is bad input (exit 2).
func TestModuleMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module's benchmarks")
	}
	files := maps.Clone(twoPackages)
	maps.Copy(files, brokenAndPanicking)
	dir := writeModule(t, files)
	quick := []string{"--metric", "time", "--budget", "1s", "--samples", "3"}

	code, out, errOut := wb(t, dir, "run", "--bench", "Nope")
	if code != exitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 ||
		!strings.Contains(errOut, `--bench "Nope" matches none of the 4 benchmark functions in ./...: `) ||
		!strings.Contains(errOut, "example.com/two/a BenchmarkJSONEncode") || strings.Contains(errOut, "not a number") {
		t.Errorf("a pattern that matches nothing: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	code, out, errOut = wb(t, t.TempDir(), "run", "--bench", ".")
	if code != exitBadInput || strings.Contains(errOut, "A/B") || !strings.Contains(errOut, "not in a Go module") {
		t.Errorf("run outside a module: exit %d, stderr %q", code, errOut)
	}

	code, out, errOut = wb(t, dir, append([]string{"check", "--bench", "JSON"}, quick...)...)
	if code != exitOK || !strings.Contains(out, "`wirebench update --bench JSON --metric time --budget 1s --samples 3` creates one") {
		t.Errorf("check without a baseline (the package that does not compile has no function the pattern matches): exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "PASS") || strings.Contains(errOut, "round 1/") {
		t.Errorf("stderr without -v:\n%s", errOut)
	}
	code, _, errOut = wb(t, dir, append([]string{"run", "--bench", "JSON", "-v"}, quick...)...)
	if code != exitOK || !strings.Contains(errOut, "worker] PASS") || !strings.Contains(errOut, "round 1/3") {
		t.Errorf("run -v: exit %d, stderr:\n%s", code, errOut)
	}

	for _, tt := range []struct{ bench, says string }{
		{"Broken", "not a number"},
		{"Panics", "panic: boom in BenchmarkPanics"},
	} {
		report := filepath.Join(dir, tt.bench+".md")
		code, out, errOut = wb(t, dir, append([]string{"check", "--bench", tt.bench, "--report", report}, quick...)...)
		md, _ := os.ReadFile(report)
		if code != exitFail || !strings.Contains(out, "The benchmarks could not be measured: nothing was compared, the gate failed") ||
			strings.Count(out+errOut, tt.says) != 1 || !strings.Contains(string(md), "could not be measured") || !strings.Contains(string(md), tt.says) {
			t.Errorf("check --bench %s: exit %d, want 1 with a report and %q once\nstdout:\n%s\nstderr:\n%s\nreport:\n%s", tt.bench, code, tt.says, out, errOut, md)
		}
	}

	fixed := maps.Clone(files)
	fixed["c/c_test.go"] = strings.Replace(files["c/c_test.go"], `var n int = "not a number"`, "var n int = 1", 1)
	good := writeModule(t, fixed)
	report := filepath.Join(dir, "ab.md")
	code, out, errOut = wb(t, dir, "ab", "--base", good, "--head", dir, "--bench", "Broken", "--metric", "time", "--budget", "1s", "--report", report)
	md, _ := os.ReadFile(report)
	if code != exitFail || !strings.Contains(out, "The head could not be measured") || !strings.Contains(out, "the head ("+dir+")") || !strings.Contains(string(md), "not a number") {
		t.Errorf("ab with a head that does not build: exit %d\nstdout:\n%s\nstderr:\n%s\nreport:\n%s", code, out, errOut, md)
	}
	code, out, errOut = wb(t, dir, "ab", "--base", dir, "--head", good, "--bench", "Broken", "--metric", "time", "--budget", "1s")
	if code != exitBadInput || !strings.Contains(errOut, "the base ("+dir+")") || !strings.Contains(errOut, "not a number") {
		t.Errorf("ab with a base that does not build: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
