package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// lognormal returns n values median*exp(sigma*N(0,1)), the shape of
// benchmark timings.
func lognormal(r *rand.Rand, n int, median, sigma float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = median * math.Exp(sigma*r.NormFloat64())
	}
	return v
}

// suite runs one simulated CI run: comparisons of base and candidate
// samples, p-values adjusted with Holm over the run, and a regression
// flagged when the adjusted p-value is below alpha AND the ratio estimate
// exceeds the threshold — the gate wirebench applies.
type suite struct {
	alpha, threshold float64
}

type suiteResult struct {
	adjusted  []float64
	estimates []float64
}

func (s suite) run(t *testing.T, base, cand [][]float64) suiteResult {
	t.Helper()
	p := make([]float64, len(base))
	est := make([]float64, len(base))
	for i := range base {
		rs, err := MannWhitney(base[i], cand[i])
		if err != nil {
			t.Fatalf("MannWhitney: %v", err)
		}
		p[i] = rs.P
		sh, err := RatioHL(base[i], cand[i], 0.95)
		if err != nil {
			t.Fatalf("RatioHL: %v", err)
		}
		est[i] = sh.Estimate
	}
	return suiteResult{adjusted: Holm(p), estimates: est}
}

func (r suiteResult) significant(i int, alpha float64) bool { return r.adjusted[i] < alpha }

func (r suiteResult) regression(i int, s suite) bool {
	return r.adjusted[i] < s.alpha && r.estimates[i] > s.threshold
}

const (
	comparisons = 40
	perSide     = 10
	noise       = 0.02
)

// TestAAFalseAlarms runs many A/A suites (candidate and baseline drawn from
// the same lognormal distribution) and checks the false-alarm rate of the
// whole gate, and of the significance test alone against Holm's bound.
func TestAAFalseAlarms(t *testing.T) {
	trials := 2000
	if testing.Short() {
		trials = 300
	}
	g := suite{alpha: 0.01, threshold: 1.05}
	r := rand.New(rand.NewPCG(1, 2))
	var anyRegression, anySignificant int
	for range trials {
		base := make([][]float64, comparisons)
		cand := make([][]float64, comparisons)
		for i := range base {
			base[i] = lognormal(r, perSide, 1000, noise)
			cand[i] = lognormal(r, perSide, 1000, noise)
		}
		res := g.run(t, base, cand)
		reg, sig := false, false
		for i := range base {
			reg = reg || res.regression(i, g)
			sig = sig || res.significant(i, g.alpha)
		}
		if reg {
			anyRegression++
		}
		if sig {
			anySignificant++
		}
	}
	regRate := float64(anyRegression) / float64(trials)
	sigRate := float64(anySignificant) / float64(trials)
	t.Logf("A/A: %d trials of %d comparisons, n=%d per side, sigma=%.0f%%: any regression %.2f%%, any Holm-adjusted p < %v %.2f%%",
		trials, comparisons, perSide, 100*noise, 100*regRate, g.alpha, 100*sigRate)
	if regRate > 0.01 {
		t.Errorf("A/A regression rate %.3f > 0.01", regRate)
	}
	// Holm bounds the family-wise rate by alpha; allow for simulation noise.
	if sigRate > 0.015 {
		t.Errorf("A/A rate of any adjusted p < %v is %.3f > 0.015", g.alpha, sigRate)
	}
}

// TestPower checks that a 10% slowdown in 2% noise with 10 samples a side
// is caught after Holm adjustment over 40 comparisons (39 of them null),
// and that a 1% slowdown is not called a regression at a 5% threshold.
func TestPower(t *testing.T) {
	trials := 300
	g := suite{alpha: 0.01, threshold: 1.05}
	r := rand.New(rand.NewPCG(3, 4))
	for _, tt := range []struct {
		shift   float64
		minRate float64 // of trials flagging the shifted comparison
		maxRate float64
	}{
		{1.10, 0.99, 1},
		{1.01, 0, 0},
	} {
		var flagged, significant int
		minEst, maxEst := math.Inf(1), math.Inf(-1)
		for range trials {
			base := make([][]float64, comparisons)
			cand := make([][]float64, comparisons)
			for i := range base {
				base[i] = lognormal(r, perSide, 1000, noise)
				cand[i] = lognormal(r, perSide, 1000, noise)
			}
			cand[0] = lognormal(r, perSide, 1000*tt.shift, noise)
			res := g.run(t, base, cand)
			if res.regression(0, g) {
				flagged++
			}
			if res.significant(0, g.alpha) {
				significant++
			}
			minEst = math.Min(minEst, res.estimates[0])
			maxEst = math.Max(maxEst, res.estimates[0])
		}
		rate := float64(flagged) / float64(trials)
		t.Logf("shift %+.0f%%: flagged as regression in %.1f%% of %d trials (adjusted p < %v in %.1f%%), estimates %.4f..%.4f",
			100*(tt.shift-1), 100*rate, trials, g.alpha, 100*float64(significant)/float64(trials), minEst, maxEst)
		if rate < tt.minRate || rate > tt.maxRate {
			t.Errorf("shift %v: regression rate %.3f, want in [%v, %v]", tt.shift, rate, tt.minRate, tt.maxRate)
		}
		if tt.shift < g.threshold && maxEst >= g.threshold {
			t.Errorf("shift %v: an estimate reached %.4f, at or over the %v threshold", tt.shift, maxEst, g.threshold)
		}
	}
}

// TestMDECalibration checks the MDE formula against simulation: a shift
// of exactly the MDE is detected with about the requested power.
func TestMDECalibration(t *testing.T) {
	const (
		n      = 20
		sigma  = 0.02
		alpha  = 0.05
		power  = 0.8
		trials = 2000
	)
	z, err := powerZ(alpha, power)
	if err != nil {
		t.Fatal(err)
	}
	shift := shiftMDE(z, sigma, n, n)
	r := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for range trials {
		rs, err := MannWhitney(lognormal(r, n, 1, sigma), lognormal(r, n, math.Exp(shift), sigma))
		if err != nil {
			t.Fatal(err)
		}
		if rs.P < alpha {
			hits++
		}
	}
	got := float64(hits) / trials
	t.Logf("shift %.4f (MDE %.2f%%) detected in %.1f%% of %d trials, want about %.0f%%", shift, 100*math.Expm1(shift), 100*got, trials, 100*power)
	if math.Abs(got-power) > 0.06 {
		t.Errorf("simulated power at the MDE = %.3f, want %v +- 0.06", got, power)
	}
}

// TestSamplesForInvertsMDE checks that the sample size SamplesFor returns
// makes the effect detectable, and one fewer sample (almost) does not.
func TestSamplesForInvertsMDE(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	base, cand := lognormal(r, 12, 1, 0.03), lognormal(r, 12, 1, 0.03)
	for _, effect := range []float64{0.01, 0.02, 0.05, 0.2} {
		n, err := SamplesFor(base, cand, effect, 0.01, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := LogSpread(base, cand)
		z, _ := powerZ(0.01, 0.9)
		if got := math.Expm1(shiftMDE(z, s, n, n)); got > effect*(1+1e-9) {
			t.Errorf("effect %v: with n=%d the MDE is %v, above the effect", effect, n, got)
		}
		if n > 5 {
			if got := math.Expm1(shiftMDE(z, s, n-1, n-1)); got <= effect {
				t.Errorf("effect %v: n=%d is not minimal, n-1 gives MDE %v", effect, n, got)
			}
		}
	}
}

// TestDispersionRestoresErrorRate: 84 benchmarks, each with its own
// spread between runs, a history of 5 runs, and a candidate run that
// varies c times more than the history's runs did (runs made back to
// back, then a check at another time). Judged on the history alone, the
// family-wise false-alarm rate at Holm-adjusted alpha 1% is far above 1%
// when c = 2; with every test inflated by the run's Dispersion it is back
// near 1%, it is no higher than judged as measured when the history
// tells the truth (c = 1), and a shift of 20 of the candidate's spreads
// in one benchmark is still caught (5 runs leave 4 degrees of freedom:
// the critical |t| at Holm's level of 84 tests is 14.9).
func TestDispersionRestoresErrorRate(t *testing.T) {
	trials := 1000
	if testing.Short() {
		trials = 200
	}
	const benchmarks, runs, alpha = 84, 5, 0.01
	r := rand.New(rand.NewPCG(14, 1999))
	// trial returns whether any benchmark was flagged as measured and
	// after inflation, and whether benchmark 0 was.
	trial := func(c, shift float64) (raw, inflated, target bool) {
		ts := make([]NewRunTest, benchmarks)
		for b := range ts {
			s := 0.03 * math.Exp(0.4*r.NormFloat64()) // spreads of 1.5-6%
			ref := make([]float64, runs)
			for i := range ref {
				ref[i] = s * r.NormFloat64()
			}
			x := c * s * r.NormFloat64()
			if b == 0 {
				x += shift * s
			}
			nt, err := NewRun(x, ref, nil, 0.99)
			if err != nil {
				t.Fatal(err)
			}
			ts[b] = nt
		}
		lambda, err := Dispersion(ts)
		if err != nil {
			t.Fatal(err)
		}
		flagged := func(ts []NewRunTest) (any, first bool) {
			ps := make([]float64, len(ts))
			for i, nt := range ts {
				ps[i] = nt.P
			}
			adj := Holm(ps)
			for i, p := range adj {
				if p < alpha {
					any = true
					first = first || i == 0
				}
			}
			return any, first
		}
		raw, _ = flagged(ts)
		for i := range ts {
			ts[i] = ts[i].Inflate(math.Sqrt(lambda))
		}
		inflated, target = flagged(ts)
		return raw, inflated, target
	}
	rate := func(c, shift float64) (raw, inflated, target float64) {
		var nr, ni, nt int
		for range trials {
			raw, inflated, target := trial(c, shift)
			if raw {
				nr++
			}
			if inflated {
				ni++
			}
			if target {
				nt++
			}
		}
		n := float64(trials)
		return float64(nr) / n, float64(ni) / n, float64(nt) / n
	}
	raw2, inf2, _ := rate(2, 0)
	raw1, inf1, _ := rate(1, 0)
	_, _, caught := rate(2, 20*2)
	t.Logf("%d trials of %d benchmarks, %d runs of history: history understated 2x: any flagged %.1f%% as judged, %.1f%% inflated; history right: %.1f%% / %.1f%%; shift of 20 candidate spreads in one benchmark (2x understated): caught %.1f%%",
		trials, benchmarks, runs, 100*raw2, 100*inf2, 100*raw1, 100*inf1, 100*caught)
	if raw2 < 0.05 {
		t.Errorf("understated history: raw false-alarm rate %.3f, expected far above alpha (the test shows nothing)", raw2)
	}
	if inf2 > 0.025 {
		t.Errorf("understated history: inflated false-alarm rate %.3f > 0.025", inf2)
	}
	if inf1 > raw1 || inf1 > 0.02 {
		t.Errorf("true history: inflated rate %.3f (raw %.3f), want <= raw and <= 0.02", inf1, raw1)
	}
	if caught < 0.7 {
		t.Errorf("a shift of 20 candidate spreads caught in %.3f of trials, want >= 0.7", caught)
	}
}
