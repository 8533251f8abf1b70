package compare

import (
	"math"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// fixedSensitivity records the level Judge asks about and answers with
// fixed values.
type fixedSensitivity struct {
	mde     float64
	ok      bool
	samples int
	level   *float64
}

func (f fixedSensitivity) MDE(level, power float64) (float64, bool) {
	*f.level = level
	return f.mde, f.ok
}

func (f fixedSensitivity) SamplesFor(effect, level, power float64) int { return f.samples }

func TestComparisonLevel(t *testing.T) {
	tests := []struct {
		correction Correction
		m          int
		want       float64
	}{
		{Holm, 4, 0.0025},
		{"", 4, 0.0025}, // empty is the default, Holm
		{Holm, 0, 0.01},
		{BenjaminiHochberg, 4, 0.01},
		{NoCorrection, 4, 0.01},
	}
	for _, tt := range tests {
		o := Defaults()
		o.Correction = tt.correction
		if got := comparisonLevel(o, tt.m); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("%q, m = %d: level %v, want %v", tt.correction, tt.m, got, tt.want)
		}
	}
}

// TestJudge: the rule is the same for stored and paired comparisons; only
// the wording of the note on a significant change that is not clear of the
// threshold differs.
func TestJudge(t *testing.T) {
	tests := []struct {
		name              string
		paired            bool
		ratio, lo, hi, pa float64
		note              string // before judging
		sens              fixedSensitivity
		wantVerdict       Verdict
		wantMDE           float64
		wantSamples       int
		wantNote          string
	}{
		{name: "regression", ratio: 1.10, lo: 1.08, hi: 1.12, pa: 0.001,
			sens: fixedSensitivity{mde: 0.02, ok: true, samples: 7}, wantVerdict: Regression, wantMDE: 0.02},
		{name: "unchanged", ratio: 1.001, lo: 0.99, hi: 1.01, pa: 0.5,
			sens: fixedSensitivity{mde: 0.02, ok: true, samples: 7}, wantVerdict: Unchanged, wantMDE: 0.02},
		{name: "inconclusive wants samples", ratio: 1.04, lo: 0.98, hi: 1.10, pa: 0.2,
			sens: fixedSensitivity{mde: 0.08, ok: true, samples: 30}, wantVerdict: Inconclusive, wantMDE: 0.08, wantSamples: 30},
		{name: "no MDE", ratio: 1.04, lo: 0.98, hi: 1.10, pa: 0.2,
			sens: fixedSensitivity{mde: 0.5, ok: false}, wantVerdict: Inconclusive, wantMDE: math.NaN()},
		{name: "stored: significant, reaches past", ratio: 1.042, lo: 1.02, hi: 1.07, pa: 0.001,
			sens: fixedSensitivity{ok: true}, wantVerdict: Inconclusive, wantMDE: 0,
			wantNote: "a significant change of +4.2%, but its interval reaches past the ±5% threshold"},
		{name: "paired: significant, reaches past", paired: true, ratio: 1.042, lo: 1.02, hi: 1.07, pa: 0.001,
			sens: fixedSensitivity{ok: true}, wantVerdict: Inconclusive, wantMDE: 0,
			wantNote: "a significant change of +4.20%, but its interval reaches past the ±5% floor"},
		{name: "paired: note joined", paired: true, ratio: 1.042, lo: 1.02, hi: 1.07, pa: 0.001, note: "3 generations",
			sens: fixedSensitivity{ok: true}, wantVerdict: Inconclusive, wantMDE: 0,
			wantNote: "3 generations; a significant change of +4.20%, but its interval reaches past the ±5% floor"},
		{name: "untested", ratio: 1.10, lo: 1.08, hi: 1.12, pa: math.NaN(), note: "no test: x",
			sens: fixedSensitivity{mde: 0.02, ok: true, samples: 7}, wantVerdict: Inconclusive, wantMDE: math.NaN(), wantNote: "no test: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var level float64
			tt.sens.level = &level
			c := Comparison{Kind: Noisy, Paired: tt.paired, Ratio: tt.ratio, Lo: tt.lo, Hi: tt.hi,
				P: tt.pa, PAdjusted: tt.pa, MDE: math.NaN(), Note: tt.note}
			Judge(&c, Defaults(), 5, tt.sens)
			if c.Verdict != tt.wantVerdict {
				t.Errorf("verdict %s, want %s", c.Verdict, tt.wantVerdict)
			}
			if !(c.MDE == tt.wantMDE || math.IsNaN(c.MDE) && math.IsNaN(tt.wantMDE)) {
				t.Errorf("MDE %v, want %v", c.MDE, tt.wantMDE)
			}
			if c.SamplesNeeded != tt.wantSamples {
				t.Errorf("samples needed %d, want %d", c.SamplesNeeded, tt.wantSamples)
			}
			if c.Note != tt.wantNote {
				t.Errorf("note %q, want %q", c.Note, tt.wantNote)
			}
			if !math.IsNaN(tt.pa) && level != 0.01/5 {
				t.Errorf("MDE asked at level %v, want alpha/m = 0.002", level)
			}
		})
	}
}

// TestZeroSpreadSaysNothing: allocations that are the same in most
// samples and not in a few have a robust spread of zero, from which a
// detectable change of 0 and a sample count from complete separation
// alone would follow, beside a comparison that was not decided ("could
// detect ±0.0%, 5 samples a side would resolve it"): neither is given.
// Samples that spread give both.
func TestZeroSpreadSaysNothing(t *testing.T) {
	run := func(bytes ...float64) *results.Results {
		r := results.New("go test", results.Env{})
		b := results.Benchmark{Pkg: "example.com/x", Name: "BenchmarkMarshal"}
		for i, v := range bytes {
			b.Add(results.UnitBytesPerOp, v)
			b.Iterations = append(b.Iterations, int64(1000+100*i)) // batch sizes that differ: not exact
		}
		r.Benchmarks = append(r.Benchmarks, b)
		return r
	}
	tests := []struct {
		name       string
		base, cand []float64
		says       bool
	}{
		{"ties and a few others", []float64{56, 56, 56, 56, 56, 56, 56}, []float64{56, 56, 56, 56, 70, 70, 80}, false},
		{"samples that spread", []float64{50, 56, 61, 53, 58, 49, 60}, []float64{55, 62, 70, 58, 66, 54, 69}, true},
	}
	for _, tt := range tests {
		res, err := Compare(run(tt.base...), run(tt.cand...), Defaults())
		if err != nil {
			t.Fatal(err)
		}
		c := res.Comparisons[0]
		if c.Kind != Noisy || c.Verdict != Inconclusive {
			t.Fatalf("%s: %s %s, want an inconclusive noisy comparison", tt.name, c.Kind, c.Verdict)
		}
		if says := !math.IsNaN(c.MDE) && c.SamplesNeeded > 0; says != tt.says {
			t.Errorf("%s: could detect %v, %d samples a side; want them given: %v", tt.name, c.MDE, c.SamplesNeeded, tt.says)
		}
	}
}
