package check

import (
	"slices"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
)

// TestOpen: a count is counted beyond the plan when its verdict is
// inconclusive after the plan's processes and twice the processes, at
// the same spread, would bring its interval inside the floor or clear of
// it; not when it is settled, counted in fewer processes (a costly
// benchmark), timed, or too wide for twice the processes to settle.
func TestOpen(t *testing.T) {
	// Paired, 5 pairs: df 4 → 9 shrinks the half-width by
	// t(9)/t(4)/√2 = 2.262/2.776/1.414 = 0.576.
	cmp := func(name string, test compare.Test, v compare.Verdict, lo, hi float64, n int) compare.Comparison {
		return compare.Comparison{Name: name, Unit: "instructions/op", Test: test, Verdict: v, Lo: lo, Hi: hi,
			Baseline: compare.Summary{N: n}, Candidate: compare.Summary{N: n}}
	}
	res := &compare.Result{Comparisons: []compare.Comparison{
		// ±1.2% around 0: ±0.69% after 10 pairs, inside the floor.
		cmp("straddles", compare.TestPairedT, compare.Inconclusive, 0.988, 1.012, 5),
		// +1.5% ± 0.8%: ±0.46% after, clear of the floor.
		cmp("beyond, not significant", compare.TestPairedT, compare.Inconclusive, 1.007, 1.023, 5),
		// ±3% around 0: ±1.7% after, still straddling.
		cmp("too wide", compare.TestPairedT, compare.Inconclusive, 0.97, 1.03, 5),
		// +1.0% ± 0.5%: on the floor, whatever the processes.
		cmp("on the floor", compare.TestPairedT, compare.Inconclusive, 1.005, 1.015, 5),
		cmp("costly, 3 processes", compare.TestPairedT, compare.Inconclusive, 0.988, 1.012, 3),
		cmp("unchanged", compare.TestPairedT, compare.Unchanged, 0.995, 1.005, 5),
		cmp("timed", "wilcoxon-signed-rank", compare.Inconclusive, 0.988, 1.012, 21),
		// Welch, 5+5: df 8 → 18, half-width × 2.101/2.306/1.414 = 0.644.
		cmp("welch straddles", compare.TestWelch, compare.Inconclusive, 0.987, 1.013, 5),
	}}
	want := []string{"straddles", "beyond, not significant", "welch straddles"}
	if got := open(res, 5, 0.01, 0.95); !slices.Equal(got, want) {
		t.Errorf("open = %q, want %q", got, want)
	}
}
