package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// are is the asymptotic relative efficiency of the Wilcoxon tests against
// the t-test for normal data: they need pi/3 (about 1.05) times as many
// samples for the same power. For heavier-tailed data they need fewer, so
// sizes computed with it are slightly conservative there.
const are = 3 / math.Pi

// LogSpread is the noise estimate used by MDE and SamplesFor: the robust
// standard deviation of log values pooled over both samples, 1.4826 times
// the median of |log v - median(log of v's own sample)|. On the log scale a
// spread of 0.02 means about 2% relative noise. All values must be > 0 and
// finite.
func LogSpread(base, cand []float64) (float64, error) {
	s, err := logSpread(base, cand)
	if err != nil {
		return 0, fmt.Errorf("stats: log spread: %w", err)
	}
	return s, nil
}

func logSpread(base, cand []float64) (float64, error) {
	if err := checkSample("base", base, 1); err != nil {
		return 0, err
	}
	if err := checkSample("cand", cand, 1); err != nil {
		return 0, err
	}
	lb, err := logs("base", base)
	if err != nil {
		return 0, err
	}
	lc, err := logs("cand", cand)
	if err != nil {
		return 0, err
	}
	res := make([]float64, 0, len(lb)+len(lc))
	for _, l := range [][]float64{lb, lc} {
		m := medianSorted(sorted(l))
		for _, v := range l {
			res = append(res, math.Abs(v-m))
		}
	}
	return madScale * medianSorted(sorted(res)), nil
}

// MDE returns the minimum detectable effect of a two-sided rank-sum test
// (MannWhitney) at level alpha with the given power: the smallest slowdown,
// as a ratio distance from 1 (0.03 = the candidate 3% slower), that the test
// would detect with probability power, given the noise of the two samples
// (LogSpread) and their sizes. With za and zb the normal quantiles for
// 1-alpha/2 and power, and s the spread, the log shift is
//
//	(za + zb) * s * sqrt((1/n1 + 1/n2) * pi/3)
//
// — the normal-theory (t-test) formula with the Mann–Whitney asymptotic
// relative efficiency 3/pi — and MDE is exp(shift) - 1. A speedup of the
// same log size is 1 - exp(-shift), slightly smaller. Pass the alpha the
// gate really uses (for Holm over m comparisons, the strictest step is
// alpha/m).
//
// When even complete separation of the samples cannot reach alpha (the
// exact minimum two-sided p-value 2/C(n1+n2, n1) exceeds alpha), MDE
// returns +Inf and an error wrapping ErrUnreachable that says so. Zero
// spread gives 0.
func MDE(base, cand []float64, alpha, power float64) (float64, error) {
	d, err := mde(base, cand, alpha, power)
	if err != nil {
		return d, fmt.Errorf("stats: minimum detectable effect: %w", err)
	}
	return d, nil
}

func mde(base, cand []float64, alpha, power float64) (float64, error) {
	z, s, err := powerSpread(base, cand, alpha, power)
	if err != nil {
		return 0, err
	}
	n1, n2 := len(base), len(cand)
	if p := minRankSumP(n1, n2); p > alpha {
		return math.Inf(1), fmt.Errorf("with %d and %d values the smallest possible p-value is %.3g > alpha %v: %w", n1, n2, p, alpha, ErrUnreachable)
	}
	return math.Expm1(shiftMDE(z, s, n1, n2)), nil
}

// shiftMDE is the detectable shift on the log scale for a rank-sum test
// with z = z(1-alpha/2) + z(power), spread s and sizes n1, n2.
func shiftMDE(z, s float64, n1, n2 int) float64 {
	return z * s * math.Sqrt((1/float64(n1)+1/float64(n2))/are)
}

// SamplesFor returns the number of samples per side a rank-sum comparison
// needs to detect a slowdown of effect (0.05 = 5%) at level alpha with the
// given power, if the noise stays what base and cand show (LogSpread):
// the inverse of MDE for equal sizes,
//
//	n = ceil(2 * ((za + zb) * s / log(1 + effect))^2 * pi/3),
//
// raised if needed until complete separation can reach alpha. It answers
// "how many samples would resolve this inconclusive result". Sizes above
// 1e9 are reported as ErrUnreachable.
func SamplesFor(base, cand []float64, effect, alpha, power float64) (int, error) {
	n, err := samplesFor(base, cand, effect, alpha, power)
	if err != nil {
		return 0, fmt.Errorf("stats: samples needed: %w", err)
	}
	return n, nil
}

func samplesFor(base, cand []float64, effect, alpha, power float64) (int, error) {
	if !(effect > 0) || math.IsInf(effect, 0) {
		return 0, fmt.Errorf("effect = %v, want > 0: %w", effect, ErrArgument)
	}
	z, s, err := powerSpread(base, cand, alpha, power)
	if err != nil {
		return 0, err
	}
	k := z * s / math.Log1p(effect)
	f := math.Ceil(2 * k * k / are)
	if !(f <= 1e9) {
		return 0, fmt.Errorf("detecting %v needs more than 1e9 samples per side: %w", effect, ErrUnreachable)
	}
	n := max(int(f), 1)
	for minRankSumP(n, n) > alpha {
		n++
	}
	return n, nil
}

// PairedMDE is MDE for the paired design: the Wilcoxon signed-rank test
// on per-round log ratios log(cand_i/base_i). With n the number of
// non-zero log ratios and s their robust spread (MAD, as R's mad), the
// detectable log shift is (za + zb) * s / sqrt(n * 3/pi), returned as
// exp(shift) - 1. It is +Inf with ErrUnreachable when 2/2^n, the
// smallest possible two-sided p-value, exceeds alpha.
func PairedMDE(logRatios []float64, alpha, power float64) (float64, error) {
	d, err := pairedMDE(logRatios, alpha, power)
	if err != nil {
		return d, fmt.Errorf("stats: paired minimum detectable effect: %w", err)
	}
	return d, nil
}

func pairedMDE(lr []float64, alpha, power float64) (float64, error) {
	z, err := powerZ(alpha, power)
	if err != nil {
		return 0, err
	}
	if err := checkSample("logRatios", lr, 1); err != nil {
		return 0, err
	}
	n := 0
	for _, v := range lr {
		if v != 0 {
			n++
		}
	}
	if p := math.Min(1, math.Ldexp(2, -n)); p > alpha {
		return math.Inf(1), fmt.Errorf("with %d non-zero log ratios the smallest possible p-value is %.3g > alpha %v: %w", n, p, alpha, ErrUnreachable)
	}
	return math.Expm1(z * mad(lr) / math.Sqrt(float64(n)*are)), nil
}

// powerZ validates alpha and power and returns z(1-alpha/2) + z(power).
func powerZ(alpha, power float64) (float64, error) {
	if err := checkLevel("alpha", alpha); err != nil {
		return 0, err
	}
	if err := checkLevel("power", power); err != nil {
		return 0, err
	}
	return zUpper(alpha/2) + distuv.UnitNormal.Quantile(power), nil
}

// powerSpread is what the rank-sum MDE and SamplesFor start from: the
// validated z(1-alpha/2) + z(power), and the log spread of base and cand.
func powerSpread(base, cand []float64, alpha, power float64) (z, s float64, err error) {
	if z, err = powerZ(alpha, power); err != nil {
		return 0, 0, err
	}
	if s, err = logSpread(base, cand); err != nil {
		return 0, 0, err
	}
	return z, s, nil
}

// minRankSumP is the smallest two-sided exact p-value a rank-sum test can
// give for samples of n1 and n2 values, 2/C(n1+n2, n1) (complete
// separation), capped at 1.
func minRankSumP(n1, n2 int) float64 {
	// C(n1+n2, k) by the multiplicative formula; every partial product is
	// itself a binomial coefficient, so it is exact while it fits.
	k := min(n1, n2)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n1+n2-k+i) / float64(i)
	}
	return math.Min(1, 2/c)
}
