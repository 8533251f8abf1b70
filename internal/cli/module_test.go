package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// writeModule writes a Go module of files (slash-separated paths to
// contents) into a new directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// twoPackages is a module whose packages a and b each have a
// BenchmarkJSONEncode, of messages of different sizes.
var twoPackages = map[string]string{
	"go.mod": "module example.com/two\n\ngo 1.22\n",
	"a/a.go": "package a\n\ntype Msg struct{ ID int }\n",
	"b/b.go": "package b\n\ntype Msg struct {\n\tID   int\n\tName string\n}\n",
	"a/a_test.go": `package a

import (
	"encoding/json"
	"testing"
)

func BenchmarkJSONEncode(b *testing.B) {
	var n int
	for i := 0; i < b.N; i++ {
		d, _ := json.Marshal(Msg{ID: 7})
		n = len(d)
	}
	b.ReportMetric(float64(n), "B/msg")
}
`,
	"b/b_test.go": `package b

import (
	"encoding/json"
	"testing"
)

func BenchmarkJSONEncode(b *testing.B) {
	var n int
	for i := 0; i < b.N; i++ {
		d, _ := json.Marshal(Msg{ID: 7, Name: "seven"})
		n = len(d)
	}
	b.ReportMetric(float64(n), "B/msg")
}
`,
}

// TestPackagesKept: two packages' benchmarks of one name stay two
// benchmarks from the measurement to the comparison. run --format bench
// writes each under its package's pkg: line, with the machine's cpu:
// line; compare reads them back as two benchmarks, each with its own
// exact size; check records the CPU in its results too.
func TestPackagesKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module's benchmarks")
	}
	dir := writeModule(t, twoPackages)
	code, out, errOut := wb(t, dir, "run", "--bench", ".", "--metric", "time", "--budget", "1s", "--samples", "3", "--format", "bench")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"\npkg: example.com/two/a\nBenchmarkJSONEncode\t", "\npkg: example.com/two/b\nBenchmarkJSONEncode\t", "\ncpu: "} {
		if !strings.Contains(out, want) {
			t.Errorf("run --format bench lacks %q:\n%s", want, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "run.txt"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = wb(t, dir, "compare", "--format", "json", "run.txt", "run.txt")
	var doc struct {
		Comparisons []struct{ Name, Unit, Verdict string } `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil {
		t.Fatalf("compare: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	var sizes []string
	for _, c := range doc.Comparisons {
		if c.Unit == results.UnitBytesPerMsg {
			sizes = append(sizes, c.Name+" "+c.Verdict)
		}
	}
	slices.Sort(sizes)
	if want := []string{"example.com/two/a BenchmarkJSONEncode unchanged", "example.com/two/b BenchmarkJSONEncode unchanged"}; !slices.Equal(sizes, want) {
		t.Errorf("compare judged the sizes %q, want %q", sizes, want)
	}
	code, _, errOut = wb(t, dir, "check", "--bench", ".", "--metric", "time", "--budget", "1s", "--samples", "3")
	if code != exitOK {
		t.Fatalf("check without a baseline: exit %d\n%s", code, errOut)
	}
	r, err := results.Load(filepath.Join(dir, "wirebench-results", "results.json"))
	if err != nil || r.Env.CPU == "" || len(r.Benchmarks) != 2 {
		t.Errorf("check's results: %v, CPU %q, %d benchmarks", err, r.Env.CPU, len(r.Benchmarks))
	}
}

// TestCompareProcesses: compare of Go benchmark text whose sides each hold
// five go test processes of a real benchmark (testdata/processes, written
// by its record.sh: the module as it is twice, and with BenchmarkEncode
// 30% slower) takes the processes as replicates and gates timings: the
// A/A pair passes with every timing enforced, the slowdown fails as a
// regression of BenchmarkEncode. (Recorded 2026-12-01 on the 2-core
// machine, idle: the processes moved ±6-12% between them, the A/A pair
// was inconclusive on all three timings, the slowdown came out +30.4%
// [+21.4%, +40.0%]. Recorded earlier the same day under load from other
// jobs, the processes moved ±10-30% and the same method reported every
// timing inconclusive, or not enforced when the candidate's typical speed
// fell outside the baseline's: no false alarm, and no 30% seen.) The first process of each side alone is
// one process's -count samples: its timings are reported, not enforced,
// with the advice to write several processes.
func TestCompareProcesses(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"old.txt", "same.txt", "slow.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", "processes", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The first process: the lines up to its "ok" line.
		first, _, _ := strings.Cut(string(data), "\nok ")
		if err := os.WriteFile(filepath.Join(dir, "one-"+name), []byte(first+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type doc struct {
		Verdict string `json:"verdict"`
		Judged  struct {
			Timings            int `json:"timings"`
			TimingsGated       int `json:"timings_gated"`
			TimingsNotEnforced int `json:"timings_not_enforced"`
		} `json:"judged"`
		History struct {
			Runs          int  `json:"runs"`
			Processes     bool `json:"processes"`
			CandidateRuns int  `json:"candidate_runs"`
		} `json:"history"`
		Comparisons []struct{ Name, Unit, Verdict string } `json:"comparisons"`
	}
	compare := func(old, new string) (int, doc, string) {
		code, out, errOut := wb(t, dir, "compare", "--format", "json", old, new)
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("compare %s %s: exit %d, %v\n%s%s", old, new, code, err, out, errOut)
		}
		_, text, _ := wb(t, dir, "compare", old, new)
		return code, d, text
	}
	regressions := func(d doc) (names []string) {
		for _, c := range d.Comparisons {
			if c.Verdict == "regression" {
				names = append(names, c.Name+" "+c.Unit)
			}
		}
		return names
	}

	code, d, text := compare("old.txt", "same.txt")
	if code != exitOK || d.Verdict != "pass" || d.Judged.Timings != 3 || d.Judged.TimingsNotEnforced != 0 ||
		!d.History.Processes || d.History.Runs != 5 || d.History.CandidateRuns != 5 {
		t.Errorf("A/A: exit %d, %+v\n%s", code, d, text)
	}
	code, d, text = compare("old.txt", "slow.txt")
	if got := regressions(d); code != exitFail || d.Verdict != "fail" || !slices.Equal(got, []string{"example.com/processes BenchmarkEncode ns/op"}) {
		t.Errorf("30%% slower: exit %d, regressions %q\n%s", code, got, text)
	}
	code, d, text = compare("one-old.txt", "one-slow.txt")
	if code != exitOK || d.Judged.TimingsGated != 0 || !d.History.Processes || d.History.Runs != 1 || !strings.Contains(text, "for i in 1 2 3 4 5; do go test") || strings.Contains(text, "update") {
		t.Errorf("one process a side: exit %d, %+v\n%s", code, d, text)
	}
}
