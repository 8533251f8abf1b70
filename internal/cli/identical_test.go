package cli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// identicalDoc is what the identical tests read of a JSON report: the
// verdict, the comparisons' names and the packages not measured.
type identicalDoc struct {
	Verdict     string
	Comparisons []struct{ Name string }
	Identical   []struct {
		Package    string
		Benchmarks []struct {
			Name     string
			Baseline map[string]float64
		}
	}
}

// TestABIdentical: a package whose test binary and files are the same in
// the base and the head is not measured: ab lists its benchmarks as
// identical in the report and the JSON and compares only the package the
// head changed (whose size regression fails the gate); --measure-all
// measures both; a head identical to its base in every package measures
// nothing and passes.
func TestABIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module's benchmarks")
	}
	base := writeModule(t, twoPackages)
	changed := maps.Clone(twoPackages)
	changed["b/b_test.go"] = strings.Replace(changed["b/b_test.go"], `Name: "seven"`, `Name: "seventeen"`, 1)
	head := writeModule(t, changed)
	same := writeModule(t, twoPackages)
	quick := []string{"--bench", ".", "--metric", "time", "--budget", "2s", "--format", "json"}

	var code int
	var out, errOut string
	read := func(out string) identicalDoc {
		t.Helper()
		var d identicalDoc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("JSON report: %v\n%s", err, out+errOut)
		}
		return d
	}
	compared := func(d identicalDoc, pkg string) bool {
		for _, c := range d.Comparisons {
			if strings.HasPrefix(c.Name, pkg+" ") {
				return true
			}
		}
		return false
	}

	code, out, errOut = wb(t, head, append([]string{"ab", "--base", base, "--head", head}, quick...)...)
	d := read(out)
	if code != exitFail || d.Verdict != "fail" || len(d.Identical) != 1 || d.Identical[0].Package != "example.com/two/a" ||
		len(d.Identical[0].Benchmarks) != 1 || d.Identical[0].Benchmarks[0].Name != "example.com/two/a BenchmarkJSONEncode" ||
		compared(d, "example.com/two/a") || !compared(d, "example.com/two/b") ||
		!strings.Contains(errOut, "1 benchmark in 1 package not measured: identical test binary and files in both builds") {
		t.Errorf("ab of a head that changes b: exit %d, want 1 with a identical and b compared\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	code, out, errOut = wb(t, head, append([]string{"ab", "--base", base, "--head", head, "--measure-all"}, quick...)...)
	if d = read(out); code != exitFail || len(d.Identical) != 0 || !compared(d, "example.com/two/a") || !compared(d, "example.com/two/b") {
		t.Errorf("ab --measure-all: exit %d, want 1 with both packages compared\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	headOut := filepath.Join(t.TempDir(), "head.json")
	code, out, errOut = wb(t, same, append([]string{"ab", "--base", base, "--head", same, "--out", headOut}, quick...)...)
	if res, err := results.Load(headOut); err != nil || len(res.Benchmarks) != 0 {
		t.Errorf("the head's results of a run that measured nothing: %v; want a results file with no benchmarks", err)
	}
	if d = read(out); code != exitOK || d.Verdict != "pass" || len(d.Identical) != 2 || len(d.Comparisons) != 0 ||
		!strings.Contains(errOut, "nothing to measure: every package identical in both builds") {
		t.Errorf("ab of a head identical to its base in another directory: exit %d, want 0 with nothing measured\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(compare.IdenticalReason, "not measured") {
		t.Errorf("IdenticalReason %q does not say the benchmark was not measured", compare.IdenticalReason)
	}
}

// TestCheckIdentical: against a stored baseline, check skips a package
// whose test binary and files hash as the baseline recorded (update
// records every package's hash): its benchmarks are listed as identical
// with the baseline's values and only the package the head changed is
// measured and compared; --measure-all measures both; a tree the same as
// the baseline's measures nothing and passes; the results say which
// packages went unmeasured.
func TestCheckIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module's benchmarks")
	}
	base := writeModule(t, twoPackages)
	changed := maps.Clone(twoPackages)
	changed["b/b_test.go"] = strings.Replace(changed["b/b_test.go"], `Name: "seven"`, `Name: "seventeen"`, 1)
	head := writeModule(t, changed)
	same := writeModule(t, twoPackages)
	bl := filepath.Join(t.TempDir(), "baseline.json")
	quick := []string{"--bench", ".", "--metric", "time", "--budget", "2s", "--baseline", bl}
	if code, out, errOut := wb(t, base, append([]string{"update"}, quick...)...); code != exitOK {
		t.Fatalf("update: exit %d\n%s\n%s", code, out, errOut)
	}
	stored, err := baseline.Load(bl, "go test")
	if err != nil || len(stored.Reference.Hashes) != 2 || len(stored.Reference.Unmeasured) != 0 {
		t.Fatalf("the baseline's reference: %v; want the hashes of both packages and nothing unmeasured", err)
	}

	read := func(out, errOut string) identicalDoc {
		t.Helper()
		var d identicalDoc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("JSON report: %v\n%s", err, out+errOut)
		}
		return d
	}
	compared := func(d identicalDoc, pkg string) bool {
		for _, c := range d.Comparisons {
			if strings.HasPrefix(c.Name, pkg+" ") {
				return true
			}
		}
		return false
	}

	resultsOut := filepath.Join(t.TempDir(), "results.json")
	code, out, errOut := wb(t, head, append([]string{"check", "--format", "json", "--out", resultsOut}, quick...)...)
	d := read(out, errOut)
	if code != exitFail || d.Verdict != "fail" || len(d.Identical) != 1 || d.Identical[0].Package != "example.com/two/a" ||
		len(d.Identical[0].Benchmarks) != 1 || d.Identical[0].Benchmarks[0].Name != "example.com/two/a BenchmarkJSONEncode" ||
		d.Identical[0].Benchmarks[0].Baseline["B/msg"] != 8 ||
		compared(d, "example.com/two/a") || !compared(d, "example.com/two/b") ||
		!strings.Contains(errOut, "1 package not measured: identical test binary and files as the baseline's") {
		t.Errorf("check of a head that changes b: exit %d, want 1 with a identical (the baseline's B/msg 8) and b compared\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if res, err := results.Load(resultsOut); err != nil || len(res.Unmeasured) != 1 || res.Unmeasured[0] != "example.com/two/a" || len(res.Hashes) != 2 {
		t.Errorf("the check's results: %v; want a unmeasured and both packages' hashes", err)
	}

	code, out, errOut = wb(t, head, append([]string{"check", "--format", "json", "--measure-all"}, quick...)...)
	if d = read(out, errOut); code != exitFail || len(d.Identical) != 0 || !compared(d, "example.com/two/a") || !compared(d, "example.com/two/b") {
		t.Errorf("check --measure-all: exit %d, want 1 with both packages compared\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	code, out, errOut = wb(t, same, append([]string{"check", "--format", "json"}, quick...)...)
	if d = read(out, errOut); code != exitOK || d.Verdict != "pass" || len(d.Identical) != 2 || len(d.Comparisons) != 0 ||
		!strings.Contains(errOut, "2 packages not measured") {
		t.Errorf("check of a tree identical to the baseline's in another directory: exit %d, want 0 with nothing measured\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestCheckIdenticalSuite: the embedded suite's stored check does not
// measure the suite when this executable recorded the baseline (its hash
// is the baseline's, with the same filter): nothing a pull request
// changes reaches wirebench's own code. --measure-all measures it, and so
// does a check with another filter.
func TestCheckIdenticalSuite(t *testing.T) {
	dir := t.TempDir()
	bl := filepath.Join(dir, "baseline.json")
	run := []string{"--metric", "time", "--filter", "codec=(protobuf|raw)/dataset=small$", "--samples", "5", "--budget", "1s", "--baseline", bl}
	if code, out, errOut := wb(t, dir, append([]string{"update"}, run...)...); code != exitOK {
		t.Fatalf("update: exit %d\n%s\n%s", code, out, errOut)
	}
	stored, err := baseline.Load(bl, "default")
	if err != nil || !strings.HasPrefix(stored.Reference.Hashes[""], "sha256:") {
		t.Fatalf("the baseline's reference: %v, hashes %v; want the executable's hash", err, stored.Reference.Hashes)
	}
	var d identicalDoc
	code, out, errOut := wb(t, dir, append([]string{"check", "--format", "json"}, run...)...)
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != exitOK || d.Verdict != "pass" || len(d.Comparisons) != 0 ||
		len(d.Identical) != 1 || d.Identical[0].Package != "" || len(d.Identical[0].Benchmarks) != len(stored.Reference.Benchmarks) ||
		!strings.Contains(errOut, "the embedded suite not measured") {
		t.Errorf("check with the baseline's executable: exit %d (%v), want 0 with nothing measured\nstdout:\n%s\nstderr:\n%s", code, err, out, errOut)
	}
	md := filepath.Join(dir, "report.md")
	if code, _, errOut := wb(t, dir, append([]string{"check", "--report", md}, run...)...); code != exitOK {
		t.Errorf("check --report: exit %d\n%s", code, errOut)
	} else if b, _ := os.ReadFile(md); !strings.Contains(string(b), "the same wirebench executable as the baseline's") {
		t.Errorf("the report does not say why the suite was not measured:\n%s", b)
	}
	for _, extra := range [][]string{{"--measure-all"}, {"--filter", "codec=protobuf/dataset=small$"}} {
		args := append(append([]string{"check", "--format", "json"}, run...), extra...)
		code, out, errOut := wb(t, dir, args...)
		d.Comparisons, d.Identical = nil, nil
		if err := json.Unmarshal([]byte(out), &d); err != nil || code == exitBadInput || len(d.Comparisons) == 0 || len(d.Identical) != 0 {
			t.Errorf("check %v: exit %d (%v), want the suite measured\nstdout:\n%s\nstderr:\n%s", extra, code, err, out, errOut)
		}
	}
}
