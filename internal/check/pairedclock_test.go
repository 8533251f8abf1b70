package check

import (
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// TestJoinPairedClock: the clock's ns/op comparisons join the counted ones,
// each wall-time change says whether the count saw it, a counted change
// says what the clock saw, and the clock's noisy A/A check holds back
// the timings only.
func TestJoinPairedClock(t *testing.T) {
	cmp := func(name, unit string, v compare.Verdict, ratio float64) compare.Comparison {
		return compare.Comparison{Name: name, Unit: unit, Kind: compare.Noisy, Verdict: v, Ratio: ratio, Lo: ratio - 0.01, Hi: ratio + 0.01}
	}
	ins, ns := results.UnitInstructionsPerOp, results.UnitNsPerOp
	counted := &ab.Outcome{Elapsed: time.Minute, Result: &compare.Result{
		Options: compare.Options{CountedUnit: ins},
		Comparisons: []compare.Comparison{
			cmp("Walk", ins, compare.Unchanged, 1.0),
			cmp("Sleep", ins, compare.Regression, 1.5),
			cmp("Plain", ins, compare.Regression, 1.02),
			{Name: "Walk", Unit: "B/op", Kind: compare.Exact, Verdict: compare.Unchanged, Ratio: 1},
		},
	}}
	noisy := &compare.AACheck{Benchmarks: 3, Flagged: []string{"Plain"}, Noisy: true}
	timed := &ab.Outcome{Elapsed: 15 * time.Second, Rounds: 20, Generations: 2, ConfirmRounds: 4, ConfirmGenerations: 1, Result: &compare.Result{
		Options: compare.Options{Threshold: 0.15},
		AA:      noisy,
		Comparisons: []compare.Comparison{
			cmp("Walk", ns, compare.Regression, 4.6),
			cmp("Sleep", ns, compare.Regression, 5.0),
			cmp("Plain", ns, compare.Inconclusive, 1.03),
			{Name: "Walk", Unit: "B/op", Kind: compare.Exact, Verdict: compare.Regression, Ratio: 2},
		},
	}}
	o := joinPairedClock(counted, timed, 12*time.Second)
	r := o.Result
	if len(r.Comparisons) != 7 {
		t.Fatalf("%d comparisons, want the 4 counted and the 3 ns/op: %+v", len(r.Comparisons), r.Comparisons)
	}
	find := func(name, unit string) compare.Comparison {
		for _, c := range r.Comparisons {
			if c.Name == name && c.Unit == unit {
				return c
			}
		}
		t.Fatalf("no %s %s", name, unit)
		return compare.Comparison{}
	}
	for _, tc := range []struct {
		name, unit, says string
		fails            bool
	}{
		{"Walk", ns, "unchanged: a change counting cannot see", false}, // noisy A/A: timings held back
		{"Sleep", ns, "counted too: instructions/op +50.00%", false},
		{"Sleep", ins, "the clock saw it too", true},
		{"Plain", ins, "inconclusive beside the clock's ±15% floor", true},
		{"Plain", ns, "", false},
	} {
		c := find(tc.name, tc.unit)
		if !strings.Contains(c.Note, tc.says) {
			t.Errorf("%s %s: note %q does not say %q", tc.name, tc.unit, c.Note, tc.says)
		}
		if r.Fails(c) != tc.fails {
			t.Errorf("%s %s: fails %v, want %v", tc.name, tc.unit, r.Fails(c), tc.fails)
		}
	}
	if find("Walk", "B/op").Verdict != compare.Unchanged {
		t.Error("the exact metrics must stay the count's")
	}
	if k := r.Clock; k == nil || k.Threshold != 0.15 || k.Rounds != 24 || k.Generations != 3 || k.Budget != 12*time.Second || k.Elapsed != 15*time.Second {
		t.Errorf("clock %+v", r.Clock)
	}
	if r.AA != noisy || o.Elapsed != 75*time.Second {
		t.Errorf("AA %+v, elapsed %s", r.AA, o.Elapsed)
	}
	// A quiet A/A check lets the wall time fail the run.
	noisy.Noisy = false
	if !r.Fails(find("Walk", ns)) {
		t.Error("a wall-time regression the count did not see must fail the run when the A/A check is quiet")
	}
}

func TestClockBudget(t *testing.T) {
	for _, tc := range []struct{ counting, want time.Duration }{
		{time.Second, MinClockBudget},
		{5 * time.Minute, time.Minute},
		{time.Hour, ab.DefaultBudget},
	} {
		if got := pairedClockBudget(tc.counting); got != tc.want {
			t.Errorf("pairedClockBudget(%s) = %s, want %s", tc.counting, got, tc.want)
		}
	}
}
