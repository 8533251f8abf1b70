package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// e2eDir is this package's directory, where the test binary starts: the
// tests that call the commands in-process move the working directory
// (wb), and the container tests run beside one of them.
var e2eDir string

// atExit are what the tests share and TestMain removes, in reverse.
var atExit []func()

// TestMain notes the package's directory (e2eDir) and, once every test
// is done, removes what the tests shared (atExit).
func TestMain(m *testing.M) {
	var err error
	if e2eDir, err = os.Getwd(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	for i := len(atExit) - 1; i >= 0; i-- {
		atExit[i]()
	}
	os.Exit(code)
}

// cli is the wirebench binary the tests that run it as a process share,
// built once from ../../cmd/wirebench.
var cli struct {
	once sync.Once
	path string
	err  error
}

// cliBinary returns the built wirebench binary, building it on the first
// call.
func cliBinary(t *testing.T) string {
	t.Helper()
	cli.once.Do(func() {
		dir, err := os.MkdirTemp("", "wirebench-cli-test-")
		if err != nil {
			cli.err = err
			return
		}
		atExit = append(atExit, func() { os.RemoveAll(dir) })
		path := filepath.Join(dir, "wirebench")
		cmd := exec.Command("go", "build", "-o", path, "./cmd/wirebench")
		cmd.Dir = filepath.Join(e2eDir, "..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			cli.err = fmt.Errorf("go build ./cmd/wirebench: %v\n%s", err, out)
			return
		}
		cli.path = path
	})
	if cli.err != nil {
		t.Fatal(cli.err)
	}
	return cli.path
}

// wb runs Main in dir with args and returns the exit status and output.
func wb(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	// The working directory is the process's: two tests calling wb at
	// once would run each other's commands in the wrong module (a
	// recount that finds none of its benchmarks, a baseline of another
	// test's). Only one test that calls wb may be parallel.
	if !wbBusy.CompareAndSwap(false, true) {
		t.Fatal("wb called by two tests at once: it moves the process's working directory, so at most one test that calls it may run in parallel")
	}
	defer wbBusy.Store(false)
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }, fresh: inProcess}
	code := dispatch(context.Background(), e, args)
	return code, stdout.String(), stderr.String()
}

// wbBusy is set while wb runs a command.
var wbBusy atomic.Bool

// inProcess measures the embedded suite in this process: what a test
// calling the commands in-process re-measures with, where a new process
// of this binary would be the test binary.
func inProcess(ctx context.Context, p source.Plan) (*results.Results, error) {
	r, _, err := source.Embedded{}.Results(ctx, p)
	return r, err
}

// benchText writes Go benchmark output with n samples per benchmark, ns/op
// drawn around the given medians with 2% noise.
func benchText(t *testing.T, path string, n int, medians map[string]float64, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/codec\ncpu: Test CPU\n")
	for i := 0; i < n; i++ {
		// In name order: the seeded rng must be consumed in the same order
		// every time for the samples (and the verdicts) to repeat.
		for _, name := range slices.Sorted(maps.Keys(medians)) {
			fmt.Fprintf(&b, "%s-2\t1000\t%.2f ns/op\t64 B/op\t2 allocs/op\n", name, medians[name]*(1+0.02*rng.NormFloat64()))
		}
	}
	b.WriteString("PASS\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// historyBaseline writes a baseline file at path whose history holds runs
// go test outputs of the same code, a minute apart, the last the
// reference.
func historyBaseline(t *testing.T, dir, path string, runs int, medians map[string]float64) {
	t.Helper()
	var b *baseline.Baseline
	for i := range runs {
		text := filepath.Join(dir, fmt.Sprintf("history-%d.txt", i))
		benchText(t, text, 10, medians, uint64(100+i))
		data, err := os.ReadFile(text)
		if err != nil {
			t.Fatal(err)
		}
		r, err := results.Read(text, data)
		if err != nil {
			t.Fatal(err)
		}
		r.Env.Time = time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC)
		b = baseline.Refresh(b, r, "", 50)
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
}

// TestCompareCommand: two go test outputs, one run each, have no history
// of how much a timing moves between runs: a 20% slowdown is reported,
// not enforced. Against a baseline file whose history holds six runs it
// fails.
func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	base := map[string]float64{"BenchmarkEncode": 1000, "BenchmarkDecode": 2000, "BenchmarkSize": 500}
	slow := map[string]float64{"BenchmarkEncode": 1200, "BenchmarkDecode": 2000, "BenchmarkSize": 500}
	benchText(t, filepath.Join(dir, "old.txt"), 10, base, 1)
	benchText(t, filepath.Join(dir, "same.txt"), 10, base, 2)
	benchText(t, filepath.Join(dir, "slow.txt"), 10, slow, 3)
	historyBaseline(t, dir, filepath.Join(dir, "history.json"), 6, base)
	os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "garbage.txt"), []byte("BenchmarkX 10 lots ns/op\n"), 0o644)
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"same code passes", []string{"compare", "old.txt", "same.txt"}, 0, "0 regressions"},
		{"20% slower without history is reported", []string{"compare", "old.txt", "slow.txt"}, 0, "regression (not enforced)"},
		{"the report says how to make timings gate", []string{"compare", "old.txt", "slow.txt"}, 0, "the baseline holds 1 go test process, of the 5 needed"},
		{"20% slower against a history fails", []string{"compare", "history.json", "slow.txt"}, 1, "regression"},
		{"same code against a history passes", []string{"compare", "history.json", "same.txt"}, 0, "0 regressions"},
		{"fail-on never", []string{"compare", "--fail-on", "never", "history.json", "slow.txt"}, 0, "regression"},
		{"json", []string{"compare", "--format", "json", "history.json", "slow.txt"}, 1, `"p_adjusted"`},
		{"markdown", []string{"compare", "--format", "markdown", "history.json", "slow.txt"}, 1, "### ❌"},
		{"empty file", []string{"compare", "old.txt", "empty.txt"}, 2, "empty.txt is empty"},
		{"garbage", []string{"compare", "old.txt", "garbage.txt"}, 2, "garbage.txt:1"},
		{"missing file", []string{"compare", "old.txt", "nope.txt"}, 2, "nope.txt"},
		{"one argument", []string{"compare", "old.txt"}, 2, "needs two files"},
		{"bad threshold", []string{"compare", "--threshold", "5", "old.txt", "same.txt"}, 2, "ambiguous"},
		{"bad alpha", []string{"compare", "--alpha", "2", "old.txt", "same.txt"}, 2, "alpha"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := wb(t, dir, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			// The report's prose is wrapped for a terminal.
			if flat := strings.Join(strings.Fields(out+errOut), " "); !strings.Contains(flat, tt.contains) {
				t.Errorf("output lacks %q\nstdout:\n%s\nstderr:\n%s", tt.contains, out, errOut)
			}
			if code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 && !strings.Contains(errOut, "Usage") && !strings.Contains(errOut, "usage") {
				t.Errorf("bad input gave more than one line:\n%s", errOut)
			}
		})
	}
	// The JSON format is machine-readable.
	_, out, _ := wb(t, dir, "compare", "--format", "json", "history.json", "slow.txt")
	var doc struct {
		Verdict     string `json:"verdict"`
		Comparisons []struct {
			Name    string `json:"name"`
			Unit    string `json:"unit"`
			Verdict string `json:"verdict"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Verdict != "fail" {
		t.Fatalf("json: %v, verdict %q", err, doc.Verdict)
	}
}

// TestCheckAndUpdate runs the local workflow on a few real benchmarks:
// update twice then check passes with two history entries; a baseline
// whose encoded size is smaller than the real one fails the check; a
// truncated baseline is one clear error and is left untouched.
func TestCheckAndUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("measures")
	}
	dir := t.TempDir()
	run := []string{"--metric", "time", "--filter", "codec=(protobuf|raw)/dataset=small$", "--samples", "5", "--budget", "1s"}
	for i := 1; i <= 2; i++ {
		code, out, errOut := wb(t, dir, append([]string{"update"}, run...)...)
		if code != 0 || !strings.Contains(out, fmt.Sprintf("%d run", i)) {
			t.Fatalf("update %d: exit %d\n%s\n%s", i, code, out, errOut)
		}
	}
	code, out, errOut := wb(t, dir, append([]string{"check"}, run...)...)
	if code != 0 {
		t.Fatalf("check on the same code: exit %d\n%s\n%s", code, out, errOut)
	}
	path := filepath.Join(dir, "baseline", "default.json")
	data, _ := os.ReadFile(path)
	var b map[string]any
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	if h := b["history"].([]any); len(h) != 2 {
		t.Errorf("history has %d entries, want 2", len(h))
	}
	if _, err := os.Stat(filepath.Join(dir, "wirebench-results", "report.md")); err != nil {
		t.Errorf("no report: %v", err)
	}

	// Make the stored protobuf/small size smaller than the real 26 bytes
	// (measured again with --measure-all: this executable recorded the
	// baseline, so a check would not measure the suite).
	bl, err := baseline.Decode(path, data, "")
	if err != nil {
		t.Fatal(err)
	}
	sizes := bl.Reference.Lookup("BenchmarkSerialize/codec=protobuf/dataset=small").Metric(results.UnitBytesPerMsg)
	if len(sizes) != 1 || sizes[0] != 26 {
		t.Fatalf("stored size %v, want [26]", sizes)
	}
	sizes[0] = 20
	edited, err := bl.Encode()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "edited.json"), edited, 0o644)
	code, out, errOut = wb(t, dir, append([]string{"check", "--baseline", "edited.json", "--measure-all"}, run...)...)
	if code != 1 || !strings.Contains(out, "B/msg") || !strings.Contains(out, "protobuf") {
		t.Errorf("size regression: exit %d, want 1 naming protobuf B/msg\n%s\n%s", code, out, errOut)
	}

	os.WriteFile(filepath.Join(dir, "cut.json"), data[:len(data)/3], 0o644)
	before, _ := os.ReadFile(filepath.Join(dir, "cut.json"))
	code, out, errOut = wb(t, dir, append([]string{"check", "--baseline", "cut.json"}, run...)...)
	after, _ := os.ReadFile(filepath.Join(dir, "cut.json"))
	if code != 2 || !strings.Contains(errOut, "cut.json") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !bytes.Equal(before, after) {
		t.Errorf("truncated baseline: exit %d, stderr %q, file untouched %v", code, errOut, bytes.Equal(before, after))
	}
	code, _, errOut = wb(t, dir, append([]string{"update", "--baseline", "cut.json"}, run...)...)
	after, _ = os.ReadFile(filepath.Join(dir, "cut.json"))
	if code != 2 || !bytes.Equal(before, after) {
		t.Errorf("update over a truncated baseline: exit %d (%s), file untouched %v", code, errOut, bytes.Equal(before, after))
	}
}

// TestStderrLogSafe: under GitHub Actions stderr is the job log, and an
// error quoting text from elsewhere (here a file name with a line break)
// cannot start a workflow command there; outside Actions it is left as
// it is.
func TestStderrLogSafe(t *testing.T) {
	hostile := "nope\n::error::pwned ##[add-mask]x"
	for _, tt := range []struct {
		actions bool
		want    string
	}{
		{true, "\n› ::error::pwned ##\u200b[add-mask]x"},
		{false, "\n::error::pwned ##[add-mask]x"},
	} {
		var stdout, stderr bytes.Buffer
		getenv := func(k string) string {
			if k == "GITHUB_ACTIONS" && tt.actions {
				return "true"
			}
			return ""
		}
		code := Run(context.Background(), []string{"compare", hostile, hostile}, strings.NewReader(""), &stdout, &stderr, getenv)
		if code != exitBadInput || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("actions=%v: exit %d, stderr %q; want exit %d and %q", tt.actions, code, stderr.String(), exitBadInput, tt.want)
		}
	}
}
