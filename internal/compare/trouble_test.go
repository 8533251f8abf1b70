package compare

import (
	"slices"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// countedRun is a counted run of the benchmarks names (5 processes of
// 1,000 instructions/op and 2 allocs/op each) with the troubles given.
func countedRun(names []string, troubles ...results.Trouble) *results.Results {
	r := results.New("go test", results.Env{})
	for _, n := range names {
		pkg, name := results.SplitKey(n)
		b := results.Benchmark{Pkg: pkg, Name: name}
		for _, x := range []float64{1000, 1000.2, 999.9, 1000.1, 999.8} {
			b.Add(results.UnitInstructionsPerOp, x)
			b.Add(results.UnitAllocsPerOp, 2)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	for _, t := range troubles {
		r.AddTrouble(t)
	}
	return r
}

// TestTroubles: each trouble is a row of its own; the run fails on what
// the candidate broke (a benchmark failing natively, a package not
// building, where the baseline's did not) and on a count the candidate
// lost where no wall time judged it, and on nothing else.
func TestTroubles(t *testing.T) {
	const (
		a   = "example.com/m BenchmarkA"
		b   = "example.com/m BenchmarkB"
		pkg = "example.com/m/other"
		c   = "example.com/m/other BenchmarkC"
	)
	notCounted := func(n string) results.Trouble {
		return results.NewTrouble(n, results.TroubleNotCounted, "skipped under Valgrind: no AVX-512")
	}
	failed := func(n string) results.Trouble {
		return results.NewTrouble(n, results.TroubleFailed, "x_test.go:3: broken")
	}
	skipped := func(n string) results.Trouble { return results.NewTrouble(n, results.TroubleSkipped, "needs testdata") }
	notBuilt := func(n string) results.Trouble {
		return results.NewTrouble(n, results.TroubleNotBuilt, "x.go:1: undefined: y")
	}
	tests := []struct {
		name       string
		base, cand *results.Results
		// clocked adds an enforced ns/op comparison of b, as the
		// wall-time check beside a count does.
		clocked bool
		failing []string
		missing []string
	}{
		{"not counted on both sides", countedRun([]string{a}, notCounted(b)), countedRun([]string{a}, notCounted(b)), false, nil, nil},
		{"the head lost a count, no clock", countedRun([]string{a, b}), countedRun([]string{a, b}, notCounted(b)), false, []string{b}, nil},
		{"the head lost a count, judged by the clock", countedRun([]string{a, b}), countedRun([]string{a, b}, notCounted(b)), true, nil, nil},
		{"the base lost a count", countedRun([]string{a, b}, notCounted(b)), countedRun([]string{a, b}), false, nil, nil},
		{"fails natively in the head only", countedRun([]string{a, b}), countedRun([]string{a}, failed(b)), false, []string{b}, nil},
		{"fails natively on both sides", countedRun([]string{a}, failed(b)), countedRun([]string{a}, failed(b)), false, nil, nil},
		{"the head skips what the base ran", countedRun([]string{a, b}), countedRun([]string{a}, skipped(b)), false, nil, nil},
		{"a package the head cannot build", countedRun([]string{a, c}), countedRun([]string{a}, notBuilt(pkg)), false, []string{pkg}, nil},
		{"a package neither side builds", countedRun([]string{a}, notBuilt(pkg)), countedRun([]string{a}, notBuilt(pkg)), false, nil, nil},
		{"a package only the head builds", countedRun([]string{a}, notBuilt(pkg)), countedRun([]string{a, c}), false, nil, nil},
		{"a benchmark removed is missing, not a trouble", countedRun([]string{a, b}), countedRun([]string{a}), false, nil, []string{b}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compare(tt.base, tt.cand, Defaults())
			if err != nil {
				t.Fatal(err)
			}
			if tt.clocked {
				r.Comparisons = append(r.Comparisons, Comparison{Name: b, Unit: results.UnitNsPerOp, Kind: Noisy, Verdict: Unchanged})
			}
			var failing []string
			for _, tr := range r.FailingTroubles() {
				failing = append(failing, tr.Name)
			}
			if !slices.Equal(failing, tt.failing) {
				t.Errorf("failing troubles %q, want %q (troubles %+v)", failing, tt.failing, r.Troubles)
			}
			if got := r.Failed(FailOnRegression); got != (len(tt.failing) > 0) {
				t.Errorf("Failed = %v, want %v", got, len(tt.failing) > 0)
			}
			if r.Failed(FailOnNever) {
				t.Error("failed under fail-on never")
			}
			if !slices.Equal(r.Missing, tt.missing) || len(r.New) > 0 {
				t.Errorf("missing %q, new %q: want missing %q, and no trouble among them", r.Missing, r.New, tt.missing)
			}
			for _, cmp := range r.Comparisons {
				if results.IsCounted(cmp.Unit) && (tt.base.TroubleOf(cmp.Name) != nil || tt.cand.TroubleOf(cmp.Name) != nil) {
					t.Errorf("%s: counts compared though a side has a trouble of it", cmp.Name)
				}
			}
		})
	}
}
