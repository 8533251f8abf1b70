package report

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// TestUnpairedSentence: a paired count whose pairs differed about as
// much as its processes, and that could not detect a tenth of the
// threshold, is named with the functions that varied; one the pairing
// sharpened, one already sharp, and an unpaired one are not.
func TestUnpairedSentence(t *testing.T) {
	varying := []results.Function{{Name: "runtime.mallocgc", Cost: results.Cost{Instructions: 120}}, {Name: "example.com/m.(*Dec).Read", Cost: results.Cost{Instructions: 31}}}
	for _, tt := range []struct {
		name string
		c    compare.Comparison
		want []string // "" for no sentence
	}{
		{"pairs as wide as processes", compare.Comparison{Name: "example.com/m BenchmarkUnmarshal", Test: compare.TestPairedT, Spread: 0.0053, PairSpread: 0.0055, MDE: 0.046, Varying: varying},
			[]string{"Unmarshal <sub>example.com/m</sub>", "within pairs 0.550%, between processes 0.530%", "`runtime.mallocgc` ±120", "(*Dec).Read` ±31", "the seed does not fix"}},
		{"pairs sharpened it", compare.Comparison{Name: "example.com/m BenchmarkMarshal", Test: compare.TestPairedT, Spread: 0.0053, PairSpread: 0.0004, MDE: 0.004, Varying: varying}, nil},
		{"sharp anyway", compare.Comparison{Name: "example.com/m BenchmarkSize", Test: compare.TestPairedT, Spread: 0.00001, PairSpread: 0.00001, MDE: 0.0001}, nil},
		{"unpaired", compare.Comparison{Name: "example.com/m BenchmarkWalk", Test: compare.TestWelch, Spread: 0.0053, MDE: 0.05}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := unpairedSentence([]compare.Comparison{tt.c}, 0.01)
			if tt.want == nil {
				if got != "" {
					t.Errorf("got %q, want none", got)
				}
				return
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
		})
	}
}
