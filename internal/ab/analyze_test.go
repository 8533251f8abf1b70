package ab

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
)

// TestReconcile: the confirmation claims only what the main phase
// flagged and the re-measurement held; a regression that did not hold
// is reported, not enforced; a benchmark the main phase did not flag
// takes its judgement on all generations, unless that judgement is a
// change, which nothing re-measured: it keeps its main-phase verdict.
func TestReconcile(t *testing.T) {
	cmp := func(v compare.Verdict, ratio float64) compare.Comparison {
		return compare.Comparison{Name: "BenchmarkA", Unit: "ns/op", Kind: compare.Noisy, Verdict: v, Ratio: ratio, Lo: ratio - 0.01, Hi: ratio + 0.01, PAdjusted: 0.001}
	}
	tests := []struct {
		name        string
		main, final compare.Comparison
		verdict     compare.Verdict
		unconfirmed bool
		note        string
	}{
		{"a regression that held", cmp(compare.Regression, 1.05), cmp(compare.Regression, 1.04), compare.Regression, false, "confirmed on re-measurement"},
		{"a regression that did not", cmp(compare.Regression, 1.05), cmp(compare.Inconclusive, 1.01), compare.Regression, true, "did not hold on re-measurement"},
		{"an improvement that held", cmp(compare.Improvement, 0.95), cmp(compare.Improvement, 0.96), compare.Improvement, false, "confirmed on re-measurement"},
		{"an improvement that did not", cmp(compare.Improvement, 0.95), cmp(compare.Unchanged, 0.995), compare.Unchanged, false, "did not hold on re-measurement"},
		{"unflagged, unchanged on all", cmp(compare.Inconclusive, 1.01), cmp(compare.Unchanged, 1.002), compare.Unchanged, false, ""},
		{"unflagged, an improvement only on all", cmp(compare.Inconclusive, 0.985), cmp(compare.Improvement, 0.98), compare.Inconclusive, false, "improvement only with the confirmation's generations added"},
		{"unflagged, a regression only on all", cmp(compare.Unchanged, 1.003), cmp(compare.Regression, 1.02), compare.Unchanged, false, "regression only with the confirmation's generations added"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := reconcile([]compare.Comparison{tt.main}, []compare.Comparison{tt.final}, 2)[0]
			if got.Verdict != tt.verdict || got.Unconfirmed != tt.unconfirmed || !strings.Contains(got.Note, tt.note) {
				t.Errorf("%s, unconfirmed %v, note %q; want %s, %v, a note with %q", got.Verdict, got.Unconfirmed, got.Note, tt.verdict, tt.unconfirmed, tt.note)
			}
		})
	}
}
