package check

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
)

// TestSettle: a counted change is judged again on all processes of both
// builds; a regression that does not hold is reported, not enforced, and
// an improvement that does not hold is not claimed.
func TestSettle(t *testing.T) {
	cmp := func(v compare.Verdict, ratio float64, n int) compare.Comparison {
		return compare.Comparison{Name: "BenchmarkA", Unit: "instructions/op", Kind: compare.Noisy, Test: compare.TestWelch, Verdict: v,
			Ratio: ratio, Lo: ratio - 0.001, Hi: ratio + 0.001, Baseline: compare.Summary{N: n}, Candidate: compare.Summary{N: n}}
	}
	tests := []struct {
		name        string
		first, all  compare.Comparison
		verdict     compare.Verdict
		unconfirmed bool
		note        string
		used        int
	}{
		{"a regression that holds", cmp(compare.Regression, 1.02, 5), cmp(compare.Regression, 1.02, 10), compare.Regression, false, "held on all processes: +2.00%", 1},
		{"a regression that does not", cmp(compare.Regression, 1.04, 5), cmp(compare.Inconclusive, 1.01, 10), compare.Regression, true, "did not hold on all processes (+1.00%", 1},
		{"an improvement that holds", cmp(compare.Improvement, 0.9, 5), cmp(compare.Improvement, 0.9, 10), compare.Improvement, false, "held on all processes: -10.00%", 1},
		{"an improvement that does not", cmp(compare.Improvement, 0.95, 5), cmp(compare.Inconclusive, 0.99, 10), compare.Inconclusive, false, "an improvement of -5.00% [-5.10%, -4.90%] over 5+5 processes that did not hold", 1},
		{"unchanged: not counted again", cmp(compare.Unchanged, 1, 5), cmp(compare.Unchanged, 1, 10), compare.Unchanged, false, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &compare.Result{Comparisons: []compare.Comparison{tt.first}}
			all := &compare.Result{Comparisons: []compare.Comparison{tt.all}}
			if got := confirmables(res); len(got) != tt.used {
				t.Errorf("counted again %v, want %d benchmarks", got, tt.used)
			}
			_, _, used := settle(res, all)
			c := res.Comparisons[0]
			if len(used) != tt.used || c.Verdict != tt.verdict || c.Unconfirmed != tt.unconfirmed || !strings.Contains(c.Note, tt.note) {
				t.Errorf("%d used, %s, unconfirmed %v, note %q; want %d, %s, %v, a note with %q", len(used), c.Verdict, c.Unconfirmed, c.Note, tt.used, tt.verdict, tt.unconfirmed, tt.note)
			}
			if tt.verdict == compare.Inconclusive && c.Candidate.N != 10 {
				t.Errorf("an improvement that did not hold keeps the first processes' summary (n %d), want all processes' (10)", c.Candidate.N)
			}
		})
	}
}
