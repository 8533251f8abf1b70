package check

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/baseline/baselinetest"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/store"
)

// runOf is a run of one benchmark with 10 samples around ns and an
// encoded size.
func runOf(ns, size float64) *results.Results {
	r := results.New("default", results.Env{Machine: "m", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	b := results.Benchmark{Name: "BenchmarkSerialize/codec=raw/dataset=small"}
	for i := range 10 {
		b.Add(results.UnitNsPerOp, ns*(1+0.001*float64(i%3-1)))
	}
	b.Add(results.UnitBytesPerMsg, size)
	r.Benchmarks = append(r.Benchmarks, b)
	return r
}

func TestAgainst(t *testing.T) {
	tests := []struct {
		name         string
		base         *baseline.Baseline
		cand         *results.Results
		failOn       compare.FailOn
		verdict      outcome.Verdict
		regressions  int
		improvements int
	}{
		{"no baseline yet", nil, runOf(100, 26), "", outcome.NoBaseline, 0, 0},
		{"unchanged", baseline.New(runOf(100, 26), ""), runOf(100, 26), "", outcome.Pass, 0, 0},
		{"bigger message", baseline.New(runOf(100, 26), ""), runOf(100, 32), "", outcome.Fail, 1, 0},
		{"fail-on never", baseline.New(runOf(100, 26), ""), runOf(100, 32), compare.FailOnNever, outcome.Pass, 1, 0},
		{"faster", baseline.New(runOf(100, 26), ""), runOf(50, 26), "", outcome.Pass, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Against(tt.base, tt.cand, compare.Defaults(), outcome.Report{FailOn: tt.failOn, BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			regs, imps := o.Counts()
			if o.Verdict != tt.verdict || regs != tt.regressions || imps != tt.improvements || o.Failed() != (tt.verdict == outcome.Fail) {
				t.Errorf("verdict %s, %d regressions, %d improvements; want %s, %d, %d", o.Verdict, regs, imps, tt.verdict, tt.regressions, tt.improvements)
			}
			if o.Report.Candidate != tt.cand || (tt.base != nil) != (o.Report.Result != nil) {
				t.Errorf("report input %+v", o.Report)
			}
		})
	}
	// Benchmarks in common are required.
	other := runOf(100, 26)
	other.Benchmarks[0].Name = "BenchmarkOther"
	if _, err := Against(baseline.New(runOf(100, 26), ""), other, compare.Defaults(), outcome.Report{BaselineSource: "b.json"}); err == nil {
		t.Error("no benchmark in common compared")
	}
}

func TestUpdate(t *testing.T) {
	st := store.File{Path: filepath.Join(t.TempDir(), "b.json"), Suite: "default"}
	ctx := context.Background()
	merged := accept.Set{{Source: "label wirebench:accept", PR: 42}}
	for i := 1; i <= 2; i++ {
		r := runOf(100, 26)
		r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Minute)
		var acc accept.Set
		if i == 2 {
			acc = merged // the second push merges a pull request that accepted a change
		}
		o, err := Update(ctx, st, r, UpdateOptions{History: 50, Accepted: acc}, outcome.Report{})
		if err != nil {
			t.Fatal(err)
		}
		if o.Verdict != outcome.Updated || o.Updated != st.Path || len(o.Stored.History) != i {
			t.Errorf("update %d: %s at %q, %d in the history", i, o.Verdict, o.Updated, len(o.Stored.History))
		}
	}
	b, err := st.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h := b.History; len(h[0].Accepted) != 0 || len(h[1].Accepted) != 1 || h[1].Accepted[0] != merged[0] {
		t.Errorf("stored acceptances %+v and %+v, want none and %+v", h[0].Accepted, h[1].Accepted, merged[0])
	}
	if o := Run(runOf(1, 1), outcome.Report{}); o.Verdict != outcome.Measured || o.Failed() {
		t.Errorf("run: %s", o.Verdict)
	}
}

// TestUpdateChangePoints: a message that grew at the 19th push (the gate
// red, or never run) is a change point of an exact series at once: new
// on exactly that push, failing it when asked to, explained when the
// merge accepted it, and recorded with its pull request.
func TestUpdateChangePoints(t *testing.T) {
	for _, accepted := range []bool{false, true} {
		st := store.File{Path: filepath.Join(t.TempDir(), "b.json"), Suite: "default"}
		ctx := context.Background()
		var newAt []int
		for i := 1; i <= 25; i++ {
			size := 26.0
			if i >= 19 {
				size = 30
			}
			r := runOf(100, size)
			r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Minute)
			var acc accept.Set
			if i == 19 && accepted {
				acc = accept.Set{{Source: "label wirebench:accept", PR: 7}}
			}
			o, err := Update(ctx, st, r, UpdateOptions{Accepted: acc, PullRequests: []int{100 + i}, FailOnChangePoint: true}, outcome.Report{})
			if err != nil {
				t.Fatal(err)
			}
			a := o.Report.ChangePoints
			if a == nil || a.Runs != i {
				t.Fatalf("push %d: analysis %+v", i, a)
			}
			if n := len(a.NewPoints()); n > 0 {
				newAt = append(newAt, i)
				p := a.NewPoints()[0]
				if p.Unit != results.UnitBytesPerMsg || p.Run != 18 || p.Before != 26 || p.After != 30 || (p.Accepted != nil) != accepted ||
					len(p.PullRequests) != 1 || p.PullRequests[0] != 119 {
					t.Errorf("push %d: new point %+v", i, p)
				}
			}
			if o.Failed() != (len(a.NewPoints()) > 0 && !accepted) {
				t.Errorf("push %d: failed %v with %d new points (accepted %v)", i, o.Failed(), len(a.NewPoints()), accepted)
			}
			if o.Verdict != outcome.Updated {
				t.Errorf("push %d: verdict %s, want updated (stored all the same)", i, o.Verdict)
			}
		}
		if len(newAt) != 1 || newAt[0] != 19 {
			t.Errorf("accepted %v: the step was new on pushes %v, want once, on the push that made it (19)", accepted, newAt)
		}
	}
}

// TestUpdateCreep: a count that grows by 0.5% a push, none a change
// point, fails the first push whose creep passes the limit when asked
// to, and only that one; its report carries the creep.
func TestUpdateCreep(t *testing.T) {
	st := store.File{Path: filepath.Join(t.TempDir(), "b.json"), Suite: "default"}
	ctx := context.Background()
	var failed []int
	for i := 1; i <= 10; i++ {
		r := runOf(100, 26)
		r.Benchmarks[0].Metrics = []results.Metric{{Unit: results.UnitInstructionsPerOp, Values: []float64{}}}
		for p := range 5 {
			r.Benchmarks[0].Add(results.UnitInstructionsPerOp, 20000*math.Pow(1.005, float64(i))*(1+1e-4*float64(p-2)))
		}
		r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Minute)
		o, err := Update(ctx, st, r, UpdateOptions{Creep: history.CreepOptions{Limit: 0.02, Runs: 20}, FailOnCreep: true}, outcome.Report{})
		if err != nil {
			t.Fatal(err)
		}
		if o.Failed() {
			failed = append(failed, i)
			if c := o.Report.ChangePoints.Creep; c == nil || len(c.Found) != 1 || !c.Found[0].New || c.Found[0].Change < 0.02 {
				t.Errorf("push %d failed with creep %+v", i, c)
			}
		}
		if len(o.Report.ChangePoints.Points) != 0 {
			t.Errorf("push %d: change points %+v, want none (0.5%% a push)", i, o.Report.ChangePoints.Points)
		}
	}
	if len(failed) != 1 || failed[0] != 5 {
		t.Errorf("failed on pushes %v, want once, when the creep passed 2%% (the 5th: 4 steps of 0.5%%, +2.02%%)", failed)
	}
}

// TestAgainstHistory: the baseline's history reaches the comparison, its
// reference counted once; a history of one run reports timings without
// enforcing them, and says how many more runs would make them gate; five
// runs make them gate.
func TestAgainstHistory(t *testing.T) {
	b := baseline.New(runOf(100, 26), "")
	o, err := Against(b, runOf(130, 26), compare.Defaults(), outcome.Report{BaselineSource: "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	g := o.Report.Result.Gate
	if g == nil || g.Runs != 1 || g.MoreRuns() != compare.MinHistoryRuns-1 {
		t.Fatalf("gate %+v, want 1 run and %d more", g, compare.MinHistoryRuns-1)
	}
	if regs, _ := o.Counts(); regs != 1 || o.Failed() {
		t.Errorf("+30%% with one run of history: %d regressions, failed %v; want 1, reported, not failing", regs, o.Failed())
	}
	for i := 1; i < compare.MinHistoryRuns; i++ {
		r := runOf(100*(1+0.01*float64(i%3-1)), 26)
		r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Hour)
		b = baseline.Refresh(b, r, "", 50)
	}
	if h := History(b); len(h.Runs) != compare.MinHistoryRuns || !h.Runs[len(h.Runs)-1].Reference {
		t.Fatalf("history of %d runs, the newest the reference: %+v", compare.MinHistoryRuns, h.Runs)
	}
	o, err = Against(b, runOf(101, 26), compare.Defaults(), outcome.Report{BaselineSource: "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if g := o.Report.Result.Gate; g.Runs != compare.MinHistoryRuns || g.MoreRuns() != 0 || !g.SettingsMatch() {
		t.Errorf("gate %+v, want %d runs, enforced", g, compare.MinHistoryRuns)
	}
	c := o.Report.Result.Comparisons[0]
	if c.Unit != results.UnitNsPerOp || c.Test != compare.TestNewRun || c.NotEnforced != "" {
		t.Errorf("timing %s by %q, not enforced %q: want the new-run test, enforced", c.Unit, c.Test, c.NotEnforced)
	}
}

// TestMeasureLike: a check measures with the baseline's budget and
// samples unless the user gave them, and says when it took them.
func TestMeasureLike(t *testing.T) {
	ref := runOf(100, 26)
	ref.Settings = results.Settings{Budget: 20 * time.Second, Samples: 9}
	fallback := Harness{Budget: time.Minute, Samples: 15}
	tests := []struct {
		name  string
		ref   *results.Results
		given Harness
		want  Harness
		note  string
	}{
		{"both from the baseline", ref, Harness{}, Harness{20 * time.Second, 9}, "baseline's budget 20s and 9 samples, so that its timings are comparable"},
		{"budget given", ref, Harness{Budget: 5 * time.Second}, Harness{5 * time.Second, 9}, "baseline's 9 samples."},
		{"the baseline's budget given", ref, Harness{Budget: 20 * time.Second}, Harness{20 * time.Second, 9}, "baseline's 9 samples, so that"},
		{"both given", ref, Harness{3 * time.Second, 4}, Harness{3 * time.Second, 4}, ""},
		{"no baseline", nil, Harness{}, fallback, ""},
		{"baseline records none", runOf(100, 26), Harness{}, fallback, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, note := MeasureLike(tt.ref, tt.given, fallback)
			if got != tt.want {
				t.Errorf("measure %+v, want %+v", got, tt.want)
			}
			if (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("note %q, want one with %q", note, tt.note)
			}
		})
	}
}

// confirmWorld is a baseline with eight runs of history of four
// benchmarks, each within a fraction of a percent between runs, and a
// candidate whose first benchmark is slow by the factor given.
func confirmWorld() (*baseline.Baseline, func(slow float64) *results.Results) {
	return baselinetest.History([]string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD"},
		func(k, i int) float64 { return 0.003 * float64((k*3+i*5)%7-3) })
}

// TestConfirm: a timing regression that fails the run is measured again
// in a second process; it fails the run only if it reproduces there.
func TestConfirm(t *testing.T) {
	base, cand := confirmWorld()
	tests := []struct {
		name       string
		first, re  float64
		fail       bool
		note       string
		needsAgain bool
		// busyAgain measures the second process beside other work, the
		// benchmark running on every CPU: its regression is not
		// enforced there (compare.BusyCheck).
		busyAgain bool
	}{
		{"a slow process", 1.5, 1, false, "did not reproduce in a second process", true, false},
		{"a real regression", 1.5, 1.5, true, "confirmed in a second process", true, false},
		{"again, but on a busy machine", 1.5, 1.5, false, "a regression in a second process too", true, true},
		{"nothing flagged", 1, 1, false, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Against(base, cand(tt.first), compare.Defaults(), outcome.Report{BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			if NeedsConfirmation(o) != tt.needsAgain {
				t.Fatalf("needs confirmation %v, want %v (verdict %s)", NeedsConfirmation(o), tt.needsAgain, o.Verdict)
			}
			if !tt.needsAgain {
				return
			}
			again := cand(tt.re)
			if tt.busyAgain {
				again.Settings.OtherCPUs, again.Benchmarks[0].Parallel = 0.99, true
			}
			o, err = Confirm(o, base, again, compare.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			c, _ := lookup(o.Report.Result, "BenchmarkA", results.UnitNsPerOp)
			if o.Failed() != tt.fail || c.Verdict != compare.Regression || c.Unconfirmed == tt.fail || !strings.Contains(c.Note, tt.note) {
				t.Errorf("failed %v, %s, unconfirmed %v, note %q; want failed %v, a regression noting %q", o.Failed(), c.Verdict, c.Unconfirmed, c.Note, tt.fail, tt.note)
			}
			if tt.busyAgain && !strings.Contains(c.Note, "but that measurement could not be enforced (it runs on every CPU") {
				t.Errorf("note %q does not say why the second measurement could not be enforced", c.Note)
			}
			if n := o.Report.Notes; len(n) == 0 || !strings.Contains(n[len(n)-1], "measured again in a new process") {
				t.Errorf("notes %q do not say the suite was measured again", n)
			}
			if NeedsConfirmation(o) {
				t.Error("a confirmed outcome asks for confirmation again")
			}
		})
	}
}

// countedRun is a counted run of BenchmarkA and BenchmarkB: per process
// one instructions/op value, BenchmarkA's of each process given, BenchmarkB
// steady at 50,000 (±0.01%).
func countedRun(hour int, a ...float64) *results.Results {
	r := results.New("default", results.Env{Machine: "m", Commit: "c", GOOS: "linux", GOARCH: "amd64", Time: time.Date(2026, 1, 1, hour, 0, 0, 0, time.UTC)})
	r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: len(a), Blocks: 3}
	ba, bb := results.Benchmark{Name: "BenchmarkA"}, results.Benchmark{Name: "BenchmarkB"}
	for i, v := range a {
		ba.Iterations, bb.Iterations = append(ba.Iterations, 64), append(bb.Iterations, 64)
		ba.Add(results.UnitInstructionsPerOp, v)
		bb.Add(results.UnitInstructionsPerOp, 50000*(1+0.0001*float64(i%3-1)))
	}
	r.Benchmarks = append(r.Benchmarks, ba, bb)
	return r
}

// TestConfirmCountedImprovement: a counted improvement is counted again
// in more processes before a report claims it; one that two modes of a
// bimodal count made (the history's processes all in one mode, the
// candidate's first five in the other) is judged on all processes, and
// nothing fails either way.
func TestConfirmCountedImprovement(t *testing.T) {
	var base *baseline.Baseline
	for k := range 5 {
		// A bimodal count whose history happened to hold only its high
		// mode.
		base = baseline.Refresh(base, countedRun(k, 10000, 10002, 9999, 10001, 10000), "", 50)
	}
	low := []float64{9500, 9501, 9499, 9502, 9500}
	opts := compare.Defaults()
	opts.Threshold = config.CountedThreshold
	tests := []struct {
		name    string
		again   []float64 // the further processes
		verdict compare.Verdict
		note    string
	}{
		{"a real improvement", []float64{9501, 9500, 9499, 9500, 9502}, compare.Improvement, "held on all processes"},
		{"five processes in the low mode", []float64{10000, 10001, 9999, 10002, 10000}, "", "that did not hold when counted again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Against(base, countedRun(9, low...), opts, outcome.Report{BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			if c, _ := lookup(o.Report.Result, "BenchmarkA", results.UnitInstructionsPerOp); c.Verdict != compare.Improvement || c.Test != compare.TestWelch {
				t.Fatalf("first count: %s by %s (%+.2f%%), want a counted improvement", c.Verdict, c.Test, 100*(c.Ratio-1))
			}
			if !NeedsConfirmation(o) || !slices.Equal(Recount(o), []string{"BenchmarkA"}) {
				t.Fatalf("needs confirmation %v, recount %v; want BenchmarkA counted again", NeedsConfirmation(o), Recount(o))
			}
			o, err = Confirm(o, base, countedRun(9, append(slices.Clone(low), tt.again...)...), opts)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := lookup(o.Report.Result, "BenchmarkA", results.UnitInstructionsPerOp)
			if tt.verdict != "" && c.Verdict != tt.verdict || tt.verdict == "" && c.Verdict == compare.Improvement || !strings.Contains(c.Note, tt.note) {
				t.Errorf("%s (%+.2f%% over %d processes), note %q; want %q, a note with %q", c.Verdict, 100*(c.Ratio-1), c.Candidate.N, c.Note, tt.verdict, tt.note)
			}
			t.Logf("%s %+.2f%% over %d processes: %s", c.Verdict, 100*(c.Ratio-1), c.Candidate.N, c.Note)
			if o.Failed() {
				t.Error("an improvement failed the run")
			}
			if NeedsConfirmation(o) {
				t.Error("a confirmed outcome asks for confirmation again")
			}
		})
	}
}
