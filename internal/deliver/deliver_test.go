package deliver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/store"
)

func runOf(size float64) *results.Results {
	r := results.New("default", results.Env{Machine: "m", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	b := results.Benchmark{Name: "BenchmarkSerialize/codec=raw/dataset=small", Codec: "raw", Dataset: "small", Op: "serialize"}
	for i := range 10 {
		b.Add(results.UnitNsPerOp, 100+float64(i%3))
	}
	b.Add(results.UnitBytesPerMsg, size)
	r.Benchmarks = append(r.Benchmarks, b)
	return r
}

// slower is r with every timing multiplied by f.
func slower(r *results.Results, f float64) *results.Results {
	for i := range r.Benchmarks {
		for j := range r.Benchmarks[i].Metrics {
			if m := &r.Benchmarks[i].Metrics[j]; m.Unit == results.UnitNsPerOp {
				for k := range m.Values {
					m.Values[k] *= f
				}
			}
		}
	}
	return r
}

func outcomeOf(t *testing.T, base, cand *results.Results) *outcome.Outcome {
	t.Helper()
	var b *baseline.Baseline
	if base != nil {
		b = baseline.New(base, "")
	}
	o, err := check.Against(b, cand, compare.Defaults(), outcome.Report{Title: "wirebench: test", BaselineSource: "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestLocal(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name      string
		o         *outcome.Outcome
		format    string
		stdout    string // contained
		stderr    string
		reportHas string // "" no report file
	}{
		{"run", check.Run(runOf(26), outcome.Report{}), "text", "raw", "results written", ""},
		{"run bench", check.Run(runOf(26), outcome.Report{}), "bench", "BenchmarkSerialize/codec=raw/dataset=small\t", "", ""},
		{"no baseline", outcomeOf(t, nil, runOf(26)), "text", "FIRST RUN", "report written", "No baseline yet"},
		{"pass", outcomeOf(t, runOf(26), runOf(26)), "text", "0 regressions", "", "No regressions"},
		{"fail", outcomeOf(t, runOf(26), runOf(32)), "text", "B/msg", "the gate failed: 1 regression against b.json", "1 regression"},
		{"fail json", outcomeOf(t, runOf(26), runOf(32)), "json", `"verdict": "fail"`, "", "1 regression"},
		{"fail markdown", outcomeOf(t, runOf(26), runOf(32)), "markdown", "### ❌ 1 regression", "", "1 regression"},
		{"broken", check.Broken(outcome.Report{Title: "wirebench: go test -bench . ./..."}, "The benchmarks could not be measured",
			errors.New("build the tests of example.com/x: exit status 1\nx.go:3:1: syntax error")), "text",
			"The benchmarks could not be measured: nothing was compared, the gate failed\nbuild the tests of example.com/x", "report written", "x.go:3:1: syntax error"},
		{"broken json", check.Broken(outcome.Report{Title: "wirebench: go test -bench . ./..."}, "The benchmarks could not be measured",
			errors.New("build the tests of example.com/x: exit status 1\nx.go:3:1: syntax error")), "json",
			`"verdict": "fail"`, "The benchmarks could not be measured: nothing was compared, the gate failed: build the tests of example.com/x: exit status 1\n", "x.go:3:1: syntax error"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			l := Local{Stdout: &stdout, Stderr: &stderr, Format: tt.format, FirstRun: "FIRST RUN",
				ResultsPath: filepath.Join(dir, tt.name, "r.json"), ReportPath: filepath.Join(dir, tt.name, "r.md")}
			if err := l.Deliver(context.Background(), tt.o); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("%d: stdout %q, stderr %q; want %q and %q", i, stdout.String(), stderr.String(), tt.stdout, tt.stderr)
			}
			if tt.format == "json" {
				var doc struct {
					Verdict string
					Broken  *struct{ What, Error string }
				}
				if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
					t.Errorf("stdout is not JSON: %v\n%s", err, stdout.String())
				}
				if (doc.Broken != nil) != (tt.o.Broken != "") || doc.Broken != nil && (doc.Broken.What != tt.o.Broken || doc.Broken.Error != tt.o.Cause.Error()) {
					t.Errorf("the JSON's broken is %+v, want what %q and the cause", doc.Broken, tt.o.Broken)
				}
			}
			if _, err := results.Load(l.ResultsPath); err != nil && tt.o.Report.Candidate != nil {
				t.Errorf("results file: %v", err)
			}
			md, err := os.ReadFile(l.ReportPath)
			if tt.reportHas == "" && err == nil {
				t.Errorf("a report was written for a %s", tt.o.Verdict)
			}
			if tt.reportHas != "" && !strings.Contains(string(md), tt.reportHas) {
				t.Errorf("report %q lacks %q (%v)", md, tt.reportHas, err)
			}
		})
	}
}

// TestOwnDirIgnored: results and reports written into wirebench's own
// directory bring a .gitignore that ignores all of it, in a real git
// repository; one already there is kept, and files elsewhere bring none.
func TestOwnDirIgnored(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	if out, err := exec.Command(git, "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	own := filepath.Join(repo, "wirebench-results")
	var stdout, stderr bytes.Buffer
	l := Local{Stdout: &stdout, Stderr: &stderr, Format: "text", Own: own,
		ResultsPath: filepath.Join(own, "results.json"), ReportPath: filepath.Join(own, "report.md")}
	if err := l.Deliver(context.Background(), outcomeOf(t, runOf(26), runOf(26))); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(git, "-C", repo, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) != 0 {
		t.Errorf("git status after a check: %q (%v), want nothing", out, err)
	}
	for _, f := range []string{"results.json", "report.md"} {
		if _, err := os.Stat(filepath.Join(own, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	mine := []byte("report.md\n")
	if err := os.WriteFile(filepath.Join(own, ".gitignore"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.Deliver(context.Background(), outcomeOf(t, runOf(26), runOf(26))); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(own, ".gitignore")); !bytes.Equal(b, mine) {
		t.Errorf("a .gitignore already there became %q", b)
	}

	elsewhere := t.TempDir()
	l.ResultsPath, l.ReportPath = filepath.Join(elsewhere, "r.json"), filepath.Join(elsewhere, "r.md")
	if err := l.Deliver(context.Background(), outcomeOf(t, runOf(26), runOf(26))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, ".gitignore")); err == nil {
		t.Error("files written outside wirebench's directory brought a .gitignore")
	}
}

// TestGitHubOutputs: the outputs and the summary a workflow sees, for a
// failed check (no token: no comment, a warning) and for a run.
func TestGitHubOutputs(t *testing.T) {
	dir := t.TempDir()
	old, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(old)
	for _, tt := range []struct {
		name    string
		o       *outcome.Outcome
		verdict string
		regs    string
		summary string
	}{
		{"fail", outcomeOf(t, runOf(26), runOf(32)), "fail", "1", "### ❌ 1 regression"},
		{"timing not enforced", outcomeOf(t, runOf(26), slower(runOf(26), 1.5)), "pass", "1", "### ⚠️ 1 regression (not failing: timings are reported only"},
		{"measured", check.Run(runOf(26), outcome.Report{Title: "wirebench: default suite"}), "measured", "0", "### wirebench: default suite"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"GITHUB_OUTPUT": filepath.Join(dir, tt.name+".out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, tt.name+".sum")}
			for _, f := range files {
				os.WriteFile(f, nil, 0o644)
			}
			var log bytes.Buffer
			gha := githubactions.New(githubactions.WithGetenv(func(k string) string { return files[k] }), githubactions.WithWriter(&log))
			g := GitHub{GHA: gha, Event: &event.Event{Name: "pull_request", PR: &event.PullRequest{Number: 1}}, OutDir: "out-" + tt.name,
				Comment: "always", Marker: "<!-- m -->", Summary: true, Outputs: true, Log: &log}
			if err := g.Deliver(context.Background(), tt.o); err != nil {
				t.Fatal(err)
			}
			out, _ := os.ReadFile(files["GITHUB_OUTPUT"])
			for _, want := range []string{"verdict", tt.verdict, "regressions", tt.regs, "out-" + tt.name + "/report.md"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("outputs lack %q:\n%s", want, out)
				}
			}
			sum, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
			if !strings.Contains(string(sum), tt.summary) {
				t.Errorf("summary lacks %q:\n%s", tt.summary, sum)
			}
			if tt.verdict == "fail" && (!strings.Contains(log.String(), "::warning::no github-token") || !strings.Contains(log.String(), "::error title=wirebench regression::")) {
				t.Errorf("log lacks the no-token warning or the annotation:\n%s", log.String())
			}
			// A regression that cannot fail the run is a warning, never an
			// error annotation.
			if tt.verdict == "pass" && tt.regs != "0" && (strings.Contains(log.String(), "::error") || !strings.Contains(log.String(), "::warning title=wirebench regression (not enforced)::")) {
				t.Errorf("a regression not enforced is not a warning annotation:\n%s", log.String())
			}
			data, err := os.ReadFile(filepath.Join("out-"+tt.name, "results.json"))
			if err != nil || !json.Valid(data) {
				t.Errorf("results.json: %v", err)
			}
		})
	}
}

// TestGitHubUpdateCreep: the push whose count's creep first passes the
// limit annotates it (a warning, an error when the update fails on it)
// and reports it in the summary.
func TestGitHubUpdateCreep(t *testing.T) {
	dir := t.TempDir()
	old, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(old)
	for _, fail := range []bool{false, true} {
		st := store.File{Path: filepath.Join(dir, fmt.Sprint(fail)+".json"), Suite: "default"}
		var o *outcome.Outcome
		for i := 1; i <= 8; i++ {
			r := runOf(26)
			r.Benchmarks[0].Metrics = []results.Metric{{Unit: results.UnitInstructionsPerOp}}
			for p := range 5 {
				r.Benchmarks[0].Add(results.UnitInstructionsPerOp, 20000*math.Pow(1.005, float64(i))*(1+1e-4*float64(p-2)))
			}
			r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Minute)
			var err error
			u := check.UpdateOptions{Creep: history.CreepOptions{Limit: 0.02, Runs: 20}, FailOnCreep: fail}
			if o, err = check.Update(context.Background(), st, r, u, outcome.Report{}); err != nil {
				t.Fatal(err)
			}
			if c := o.Report.ChangePoints.Creep; c != nil && len(c.Found) > 0 {
				break
			}
		}
		sum := filepath.Join(dir, fmt.Sprint(fail)+".sum")
		os.WriteFile(sum, nil, 0o644)
		var log bytes.Buffer
		gha := githubactions.New(githubactions.WithGetenv(func(k string) string { return map[string]string{"GITHUB_STEP_SUMMARY": sum}[k] }), githubactions.WithWriter(&log))
		g := GitHub{GHA: gha, Event: &event.Event{Name: "push"}, OutDir: "out-creep", Summary: true, Log: &log}
		if err := g.Deliver(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: "::warning title=wirebench creep::", true: "::error title=wirebench creep::"}[fail]
		if !strings.Contains(log.String(), want) || !strings.Contains(log.String(), "Serialize raw/small instructions/op +2.0%25 over the last 4 merges") {
			t.Errorf("fail %v: log lacks %q for the creep:\n%s", fail, want, log.String())
		}
		if o.Failed() != fail {
			t.Errorf("failed %v, want %v", o.Failed(), fail)
		}
		if s, _ := os.ReadFile(sum); !strings.Contains(string(s), "#### Creep") || !strings.Contains(string(s), "🆕 **1 new creep** on this push") {
			t.Errorf("summary lacks the creep:\n%s", s)
		}
	}
}

// TestGitHubUpdateChangePoints: a push whose history shows a step for the
// first time annotates it (a warning, an error when the update fails on
// it, a notice when the merge accepted it), draws every benchmark's
// history and puts the change points in the summary.
func TestGitHubUpdateChangePoints(t *testing.T) {
	dir := t.TempDir()
	old, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(old)
	for _, tt := range []struct {
		name     string
		fail     bool
		accepted bool
		want     string
	}{
		{"unexplained", false, false, "::warning title=wirebench change point::"},
		{"failing", true, false, "::error title=wirebench change point::"},
		{"accepted", true, true, "::notice title=wirebench change point (explained)::"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := store.File{Path: filepath.Join(dir, tt.name+".json"), Suite: "default"}
			var o *outcome.Outcome
			for i := 1; i <= 22; i++ { // the message grows at run 19, an exact step seen at once
				size := 26.0
				if i >= 19 {
					size = 30
				}
				r := runOf(size)
				r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Minute)
				var acc accept.Set
				if i == 19 && tt.accepted {
					acc = accept.Set{{Source: "label wirebench:accept", PR: 9}}
				}
				var err error
				if o, err = check.Update(context.Background(), st, r, check.UpdateOptions{Accepted: acc, FailOnChangePoint: tt.fail}, outcome.Report{}); err != nil {
					t.Fatal(err)
				}
				if len(o.Report.ChangePoints.NewPoints()) > 0 {
					break
				}
			}
			if len(o.Report.ChangePoints.NewPoints()) != 1 {
				t.Fatalf("no new change point by run 22: %+v", o.Report.ChangePoints)
			}
			sum := filepath.Join(dir, tt.name+".sum")
			os.WriteFile(sum, nil, 0o644)
			var log bytes.Buffer
			gha := githubactions.New(githubactions.WithGetenv(func(k string) string { return map[string]string{"GITHUB_STEP_SUMMARY": sum}[k] }), githubactions.WithWriter(&log))
			g := GitHub{GHA: gha, Event: &event.Event{Name: "push"}, OutDir: "out-" + tt.name, Summary: true, Log: &log}
			if err := g.Deliver(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(log.String(), tt.want) || !strings.Contains(log.String(), "Serialize raw/small B/msg stepped +15.4%25 (26 B → 30 B)") {
				t.Errorf("log lacks %q for the step:\n%s", tt.want, log.String())
			}
			if o.Failed() != (tt.fail && !tt.accepted) {
				t.Errorf("failed %v", o.Failed())
			}
			s, _ := os.ReadFile(sum)
			if !strings.Contains(string(s), "#### Change points in the history") || !strings.Contains(string(s), "| 🆕 | Serialize raw/small | B/msg |") {
				t.Errorf("summary lacks the change point:\n%s", s)
			}
			pngs, _ := filepath.Glob(filepath.Join("out-"+tt.name, HistoryDir, "*.png"))
			if len(pngs) != 1 {
				t.Errorf("history charts %q, want the one benchmark's", pngs)
			}
		})
	}
}
