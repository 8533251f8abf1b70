package stats

import (
	"errors"
	"math"
	"testing"
)

var (
	nan  = math.NaN()
	inf  = math.Inf(1)
	some = []float64{1, 2, 3, 4, 5}
)

// TestBadInput checks that every function rejects bad input with the
// documented error instead of panicking or returning NaN.
func TestBadInput(t *testing.T) {
	mw := func(x, y []float64) error { _, err := MannWhitney(x, y); return err }
	hl := func(x, y []float64) error { _, err := HodgesLehmann(x, y, 0.95); return err }
	ratio := func(x, y []float64) error { _, err := RatioHL(x, y, 0.95); return err }
	sr := func(d []float64) error { _, err := WilcoxonSignedRank(d); return err }
	pm := func(d []float64) error { _, err := PseudoMedian(d, 0.95); return err }
	mde := func(x, y []float64) error { _, err := MDE(x, y, 0.05, 0.8); return err }
	sf := func(x, y []float64) error { _, err := SamplesFor(x, y, 0.05, 0.05, 0.8); return err }
	pmde := func(d []float64) error { _, err := PairedMDE(d, 0.05, 0.8); return err }
	med := func(d []float64) error { _, err := Median(d); return err }
	mad := func(d []float64) error { _, err := MAD(d); return err }
	mci := func(d []float64) error { _, err := MedianCI(d, 0.95); return err }
	geo := func(d []float64) error { _, err := GeoMean(d, 0.95); return err }

	tests := []struct {
		name string
		err  error
		want error
	}{
		{"MannWhitney empty x", mw(nil, some), ErrTooFew},
		{"MannWhitney empty y", mw(some, []float64{}), ErrTooFew},
		{"MannWhitney NaN", mw([]float64{1, nan}, some), ErrNotFinite},
		{"MannWhitney Inf", mw(some, []float64{-inf, 1}), ErrNotFinite},
		{"MannWhitney all equal", mw([]float64{2, 2, 2}, []float64{2, 2}), ErrAllEqual},
		{"MannWhitney n=1 all equal", mw([]float64{2}, []float64{2}), ErrAllEqual},
		{"HodgesLehmann empty", hl(some, nil), ErrTooFew},
		{"HodgesLehmann NaN", hl(some, []float64{nan}), ErrNotFinite},
		{"HodgesLehmann all equal", hl([]float64{3, 3}, []float64{3, 3, 3}), ErrAllEqual},
		{"HodgesLehmann overflow", hl([]float64{-1.5e308, -1e308}, []float64{1e308, 1.5e308}), ErrNotFinite},
		{"RatioHL zero", ratio([]float64{0, 1}, some), ErrNotPositive},
		{"RatioHL negative", ratio(some, []float64{1, -1}), ErrNotPositive},
		{"RatioHL NaN", ratio(some, []float64{nan}), ErrNotFinite},
		{"RatioHL Inf", ratio([]float64{inf}, some), ErrNotFinite},
		{"RatioHL empty", ratio(nil, some), ErrTooFew},
		{"RatioHL all equal", ratio([]float64{7, 7}, []float64{7}), ErrAllEqual},
		{"WilcoxonSignedRank empty", sr(nil), ErrTooFew},
		{"WilcoxonSignedRank NaN", sr([]float64{1, nan}), ErrNotFinite},
		{"WilcoxonSignedRank Inf", sr([]float64{inf, 1}), ErrNotFinite},
		{"WilcoxonSignedRank all zero", sr([]float64{0, 0, 0}), ErrAllEqual},
		{"PseudoMedian empty", pm(nil), ErrTooFew},
		{"PseudoMedian all zero", pm([]float64{0, 0}), ErrAllEqual},
		{"PseudoMedian all equal (normal)", pm([]float64{0.5, 0.5, 0.5}), ErrAllEqual},
		{"PseudoMedian overflow", pm([]float64{1.5e308, 1.6e308}), ErrNotFinite},
		{"MDE empty", mde(nil, some), ErrTooFew},
		{"MDE non-positive", mde(some, []float64{0, 1}), ErrNotPositive},
		{"MDE n=1", mde([]float64{1}, []float64{2}), ErrUnreachable},
		{"SamplesFor NaN", sf([]float64{nan}, some), ErrNotFinite},
		{"PairedMDE empty", pmde(nil), ErrTooFew},
		{"PairedMDE Inf", pmde([]float64{inf}), ErrNotFinite},
		{"PairedMDE n=1", pmde([]float64{0.01}), ErrUnreachable},
		{"PairedMDE all zero", pmde([]float64{0, 0, 0, 0, 0, 0, 0, 0}), ErrUnreachable},
		{"Median empty", med(nil), ErrTooFew},
		{"Median NaN", med([]float64{nan}), ErrNotFinite},
		{"MAD empty", mad(nil), ErrTooFew},
		{"MedianCI n=5 at 95%", mci(some), ErrTooFew},
		{"MedianCI Inf", mci([]float64{1, 2, 3, 4, 5, inf}), ErrNotFinite},
		{"GeoMean n=1", geo([]float64{1.1}), ErrTooFew},
		{"GeoMean zero", geo([]float64{1.1, 0}), ErrNotPositive},
		{"GeoMean NaN", geo([]float64{1.1, nan}), ErrNotFinite},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, tt.err, tt.want)
		}
	}
}

func TestBadArguments(t *testing.T) {
	var errs []error
	for _, c := range []float64{0, 1, -0.5, 1.5, nan} {
		_, err := HodgesLehmann(some, some, c)
		errs = append(errs, err)
		_, err = PseudoMedian(some, c)
		errs = append(errs, err)
		_, err = MedianCI(some, c)
		errs = append(errs, err)
		_, err = GeoMean(some, c)
		errs = append(errs, err)
		_, err = MDE(some, some, c, 0.8)
		errs = append(errs, err)
		_, err = MDE(some, some, 0.05, c)
		errs = append(errs, err)
		_, err = PairedMDE(some, c, 0.8)
		errs = append(errs, err)
	}
	for _, e := range []float64{0, -0.1, nan, inf} {
		_, err := SamplesFor(some, some, e, 0.05, 0.8)
		errs = append(errs, err)
	}
	_, err := MannWhitneyMethod(some, some, "bootstrap")
	errs = append(errs, err)
	_, err = WilcoxonSignedRankMethod(some, "t")
	errs = append(errs, err)
	big := make([]float64, 101)
	for i := range big {
		big[i] = float64(i)
	}
	half := make([]float64, 100)
	for i := range half {
		half[i] = float64(i) + 0.5
	}
	_, err = MannWhitneyMethod(big, half, MethodExact)
	errs = append(errs, err)
	for i, err := range errs {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("case %d: err = %v, want ErrArgument", i, err)
		}
	}
}

// TestErrorContext checks that errors say which function and which input.
func TestErrorContext(t *testing.T) {
	_, err := MannWhitney([]float64{1, nan}, some)
	if got, want := err.Error(), "stats: Mann-Whitney test: x[1] = NaN: value is NaN or infinite"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	_, err = RatioHL(some, []float64{2, 0}, 0.95)
	if got, want := err.Error(), "stats: Hodges-Lehmann ratio: cand[1] = 0: value is not positive"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}

// TestSmallSamples checks defined results at the smallest sizes, where R
// reports that the requested confidence cannot be reached.
func TestSmallSamples(t *testing.T) {
	rs, err := MannWhitney([]float64{1}, []float64{2})
	if err != nil || rs.P != 1 || rs.Method != MethodExact || rs.U != 0 {
		t.Errorf("MannWhitney(1 vs 1) = %+v, %v; want U=0 P=1 exact", rs, err)
	}
	s, err := HodgesLehmann([]float64{1}, []float64{2.5}, 0.95)
	if want := (Interval{1.5, 1.5, 1.5, 0}); err != nil || s != want {
		t.Errorf("HodgesLehmann(1 vs 1) = %+v, %v; want %+v", s, err, want)
	}
	sr, err := WilcoxonSignedRank([]float64{-3})
	if err != nil || sr.P != 1 || sr.V != 0 || sr.N != 1 {
		t.Errorf("WilcoxonSignedRank(n=1) = %+v, %v; want V=0 P=1 N=1", sr, err)
	}
	// Two-sample all tied within each sample: R stops, we return the one
	// pairwise difference.
	s, err = HodgesLehmann([]float64{1, 1}, []float64{4, 4}, 0.9)
	if want := (Interval{3, 3, 3, 0.9}); err != nil || s != want {
		t.Errorf("HodgesLehmann(tied blocks) = %+v, %v; want %+v", s, err, want)
	}
}

func TestMedianCIExactLevel(t *testing.T) {
	// P(B <= 0) = 1/8 exactly for n = 3, so [x(1), x(3)] has exactly 75%.
	s, err := MedianCI([]float64{3, 1, 2}, 0.75)
	if want := (Interval{2, 1, 3, 0.75}); err != nil || s != want {
		t.Errorf("MedianCI(n=3, 75%%) = %+v, %v; want %+v", s, err, want)
	}
	// benchstat's documented values: n=6 -> [x(1), x(6)] at 96.9%, n=10 -> [x(2), x(9)] at 97.9%.
	s, err = MedianCI([]float64{6, 5, 4, 3, 2, 1}, 0.95)
	if err != nil || s.Lo != 1 || s.Hi != 6 || math.Abs(s.Confidence-0.96875) > 1e-15 {
		t.Errorf("MedianCI(n=6) = %+v, %v", s, err)
	}
	s, err = MedianCI([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.95)
	if err != nil || s.Lo != 2 || s.Hi != 9 || math.Abs(s.Confidence-0.978515625) > 1e-12 {
		t.Errorf("MedianCI(n=10) = %+v, %v", s, err)
	}
}

func TestAdjustEdges(t *testing.T) {
	if got := Holm(nil); len(got) != 0 {
		t.Errorf("Holm(nil) = %v", got)
	}
	if got := BenjaminiHochberg([]float64{}); len(got) != 0 {
		t.Errorf("BenjaminiHochberg([]) = %v", got)
	}
	p := []float64{0.04, nan, 0.01}
	h := Holm(p)
	if !math.IsNaN(h[1]) || h[0] != 0.04 || h[2] != 0.02 {
		t.Errorf("Holm(%v) = %v, want [0.04 NaN 0.02]", p, h)
	}
	if p[1] == p[1] || p[2] != 0.01 {
		t.Errorf("Holm modified its input: %v", p)
	}
	b := BenjaminiHochberg([]float64{0.5, 0.5, 0.5})
	for _, v := range b {
		if v != 0.5 {
			t.Errorf("BH(0.5 x3) = %v, want all 0.5", b)
		}
	}
}

// TestInputsUnchanged checks that no function reorders its arguments.
func TestInputsUnchanged(t *testing.T) {
	x := []float64{5, 1, 4, 2, 3}
	y := []float64{9, 6, 8, 7, 10}
	d := []float64{0.3, -0.1, 0.2, 0, 0.5}
	MannWhitney(x, y)
	HodgesLehmann(x, y, 0.95)
	RatioHL(x, y, 0.95)
	WilcoxonSignedRank(d)
	PseudoMedian(d, 0.95)
	Median(x)
	MedianCI(y, 0.5)
	MAD(x)
	MDE(x, y, 0.05, 0.8)
	PairedMDE(d, 0.05, 0.8)
	if x[0] != 5 || x[1] != 1 || y[0] != 9 || d[0] != 0.3 || d[3] != 0 {
		t.Errorf("inputs modified: %v %v %v", x, y, d)
	}
}
