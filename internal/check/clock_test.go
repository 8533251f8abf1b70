package check

import (
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/results"
)

// clockedRun is countedRun (BenchmarkA's processes given) with a
// wall-time check: BenchmarkA at 1,000 ns/op times slow, BenchmarkB at
// 2,000, ten samples each within ±0.1%, moving by a fraction of a percent
// between runs (hour).
func clockedRun(hour int, slow float64, a ...float64) *results.Results {
	r := countedRun(hour, a...)
	k := results.New("default", r.Env)
	k.Settings.Budget, k.Settings.Samples = 20e9, 10
	for i, name := range []string{"BenchmarkA", "BenchmarkB"} {
		b := results.Benchmark{Name: name}
		level := 1000 * float64(i+1) * (1 + 0.002*float64((hour*3+i*5)%5-2))
		if i == 0 {
			level *= slow
		}
		for j := range 10 {
			b.Iterations = append(b.Iterations, 1000)
			b.Add(results.UnitNsPerOp, level*(1+0.001*float64(j%3-1)))
		}
		k.Benchmarks = append(k.Benchmarks, b)
	}
	r.Clock = k
	return r
}

// TestJoinClock: against a stored baseline whose runs were counted and
// timed, a wall-time change beyond the clock's floor fails the run even
// when the count did not move, and says the count could not see it; one
// inside the floor does not; a baseline without wall times has no
// Clocked baseline.
func TestJoinClock(t *testing.T) {
	var base *baseline.Baseline
	procs := []float64{10000, 10002, 9999, 10001, 10000}
	base = baseline.Refresh(base, countedRun(0, procs...), "", 50) // before the wall-time check
	if base.Clocked() != nil {
		t.Fatal("a baseline without wall times has a clocked baseline")
	}
	for k := 1; k <= 6; k++ {
		base = baseline.Refresh(base, clockedRun(k, 1, procs...), "", 50)
	}
	cb := base.Clocked()
	if cb == nil || len(cb.History) != 6 || cb.ReferenceEntry() != 5 {
		t.Fatalf("clocked baseline: %v, want the 6 timed runs with the newest as its reference", cb)
	}
	counted := compare.Defaults()
	counted.Threshold, counted.CountedUnit = config.CountedThreshold, results.UnitInstructionsPerOp
	timed := compare.Defaults()
	timed.Threshold = config.ClockThreshold
	tests := []struct {
		name    string
		slow    float64
		fail    bool
		verdict compare.Verdict
		note    string
	}{
		{"a sleep the count cannot see", 3, true, compare.Regression, "unchanged: " + compare.CountBlind},
		{"5% slower, inside the floor", 1.05, false, "", ""},
		{"unchanged", 1, false, compare.Unchanged, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cand := clockedRun(9, tt.slow, procs...)
			o, err := Against(base, cand, counted, outcome.Report{BaselineSource: "b.json", Notes: []string{"run note"}})
			if err != nil {
				t.Fatal(err)
			}
			if o.Failed() {
				t.Fatalf("the unchanged count failed the run: %s", o.Verdict)
			}
			to, err := Against(cb, cand.Clock, timed, outcome.Report{BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			o = joinClock(o, to, compare.Clock{Budget: 20e9, Rounds: 10})
			c, ok := lookup(o.Report.Result, "BenchmarkA", results.UnitNsPerOp)
			if !ok {
				t.Fatal("no wall-time comparison of BenchmarkA")
			}
			if o.Failed() != tt.fail || tt.verdict != "" && c.Verdict != tt.verdict || !strings.Contains(c.Note, tt.note) {
				t.Errorf("failed %v, %s %+.1f%% (%s), note %q; want failed %v, %q noting %q", o.Failed(), c.Verdict, 100*(c.Ratio-1), c.Test, c.Note, tt.fail, tt.verdict, tt.note)
			}
			if k := o.Report.Result.Clock; k == nil || !k.History || k.Threshold != config.ClockThreshold {
				t.Errorf("clock %+v, want judged against the history with the %.0f%% floor", k, 100*config.ClockThreshold)
			}
			if n := o.Report.Notes; len(n) == 0 || n[0] != "run note" || strings.Count(strings.Join(n, "\n"), "run note") != 1 {
				t.Errorf("notes %q: want the run's once", n)
			}
		})
	}
}

// TestShiftFromUnchangedCounts: a pull request that slows most
// benchmarks is not a slower machine. Judged by all benchmarks' typical
// shift, four of six ×3 slower look like a machine three times slower:
// the run is outside the history's speed and nothing gates (the other
// two come out as improvements of 66%). Estimated
// from the benchmarks whose counts did not change (ShiftFrom), the four
// are regressions and the other two unchanged, with and without enough
// of them to estimate a shift from.
func TestShiftFromUnchangedCounts(t *testing.T) {
	names := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF"}
	run := func(k, slowed int) *results.Results {
		r := results.New("default", results.Env{Machine: "m", Commit: "c", Time: time.Date(2026, 1, 1, k, 0, 0, 0, time.UTC)})
		r.Settings.Budget, r.Settings.Samples = 10e9, 10
		for i, name := range names {
			b := results.Benchmark{Name: name}
			level := 100 * float64(i+1) * (1 + 0.003*float64((k*3+i*5)%7-3))
			if i < slowed {
				level *= 3
			}
			for j := range 10 {
				b.Add(results.UnitNsPerOp, level*(1+0.001*float64(j%3-1)))
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	var base *baseline.Baseline
	for k := range 6 {
		base = baseline.Refresh(base, run(k, 0), "", 50)
	}
	opts := compare.Defaults()
	opts.Threshold = config.ClockThreshold
	tests := []struct {
		name      string
		from      map[string]bool
		regressed int
	}{
		{"every benchmark", nil, 0},
		{"the two unchanged: no shift", map[string]bool{"BenchmarkE": true, "BenchmarkF": true}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := opts
			o.ShiftFrom = tt.from
			out, err := Against(base, run(9, 4), o, outcome.Report{BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			r := out.Report.Result
			n := 0
			for _, c := range r.Comparisons {
				switch {
				case c.Verdict == compare.Regression && r.Fails(c):
					n++
				case tt.from != nil && c.Name >= "BenchmarkE" && c.Verdict != compare.Unchanged:
					t.Errorf("%s: %s %+.1f%%, want unchanged", c.Name, c.Verdict, 100*(c.Ratio-1))
				}
			}
			if n != tt.regressed {
				t.Errorf("%d regressions that fail the run, want %d", n, tt.regressed)
			}
		})
	}
}

// TestBusyHoldsBackParallel: a benchmark that runs on every CPU, timed
// while other processes kept the machine busy (results.Settings.OtherCPUs
// at compare.BusyLimit or more, in the candidate or the reference), is
// reported, not enforced, against a stored history, and says why; a
// serial benchmark's timing beside the same work, and the parallel one's
// on a quiet machine, still fail the run.
func TestBusyHoldsBackParallel(t *testing.T) {
	names := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF"}
	run := func(k int, other float64, slowed string) *results.Results {
		r := results.New("default", results.Env{Machine: "m", Commit: "c", Time: time.Date(2026, 1, 1, k, 0, 0, 0, time.UTC)})
		r.Settings.Budget, r.Settings.Samples, r.Settings.OtherCPUs = 10e9, 10, other
		for i, name := range names {
			b := results.Benchmark{Name: name, Parallel: name == "BenchmarkA"}
			level := 100 * float64(i+1) * (1 + 0.003*float64((k*3+i*5)%7-3))
			if name == slowed {
				level *= 1.9
			}
			for j := range 10 {
				b.Add(results.UnitNsPerOp, level*(1+0.001*float64(j%3-1)))
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	opts := compare.Defaults()
	opts.Threshold = config.ClockThreshold
	tests := []struct {
		name           string
		history, cand  float64
		slowed         string
		fails, heldFor bool
	}{
		{"parallel, quiet", 0.02, 0.02, "BenchmarkA", true, false},
		{"parallel, busy candidate", 0.02, 0.95, "BenchmarkA", false, true},
		{"parallel, busy baseline", 0.95, 0.02, "BenchmarkA", false, true},
		{"parallel, just under the limit", 0.02, compare.BusyLimit - 0.01, "BenchmarkA", true, false},
		{"serial, busy candidate", 0.02, 0.95, "BenchmarkB", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base *baseline.Baseline
			for k := range 6 {
				base = baseline.Refresh(base, run(k, tt.history, ""), "", 50)
			}
			out, err := Against(base, run(9, tt.cand, tt.slowed), opts, outcome.Report{BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			r := out.Report.Result
			var c *compare.Comparison
			for i := range r.Comparisons {
				if r.Comparisons[i].Name == tt.slowed && r.Comparisons[i].Unit == results.UnitNsPerOp {
					c = &r.Comparisons[i]
				}
			}
			if c == nil || c.Verdict != compare.Regression {
				t.Fatalf("%s: %+v, want a regression", tt.slowed, c)
			}
			if got := r.Fails(*c); got != tt.fails {
				t.Errorf("%s %+.1f%% fails the run: %v, want %v (not enforced: %q)", c.Name, 100*(c.Ratio-1), got, tt.fails, c.NotEnforced)
			}
			if held := strings.Contains(c.NotEnforced, "runs on every CPU"); held != tt.heldFor {
				t.Errorf("held back for the machine's other work: %v, want %v (%q)", held, tt.heldFor, c.NotEnforced)
			}
			if out.Failed() != tt.fails {
				t.Errorf("the run failed: %v, want %v", out.Failed(), tt.fails)
			}
		})
	}
}
