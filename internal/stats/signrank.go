package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// SignedRank is the result of a two-sided Wilcoxon signed-rank test.
type SignedRank struct {
	// V is R's V: the sum of the ranks of |d| over the positive d.
	V float64
	// P is the two-sided p-value.
	P float64
	// Method is the null distribution P came from.
	Method Method
	// N is the number of differences after dropping zeros.
	N int
}

// WilcoxonSignedRank is the two-sided Wilcoxon signed-rank test of whether
// the paired differences d (for example per-round log ratios) are centred
// on zero, as R's wilcox.test(d): zero differences are dropped; exact when
// there are no ties or zeros and fewer than 50 differences remain,
// otherwise the normal approximation with tie and continuity correction.
//
// NaN and ±Inf are rejected (ErrNotFinite); if every difference is zero
// the result is ErrAllEqual (there is no evidence of a change).
func WilcoxonSignedRank(d []float64) (SignedRank, error) {
	return WilcoxonSignedRankMethod(d, MethodAuto)
}

// WilcoxonSignedRankMethod is WilcoxonSignedRank with the null
// distribution chosen by m, as wilcox.test(d, exact = m == MethodExact,
// correct = TRUE). MethodExact fails with ErrTies when |d| has ties or d
// has zeros (R falls back to the normal approximation with a warning), and
// with ErrArgument for more than 1000 differences.
func WilcoxonSignedRankMethod(d []float64, m Method) (SignedRank, error) {
	sr, err := signedRank(d, m)
	if err != nil {
		return SignedRank{}, fmt.Errorf("stats: Wilcoxon signed-rank test: %w", err)
	}
	return sr, nil
}

func signedRank(d []float64, m Method) (SignedRank, error) {
	x, zeros, err := nonZero(d, m)
	if err != nil {
		return SignedRank{}, err
	}
	n := len(x)
	abs := make([]float64, n)
	for i, v := range x {
		abs[i] = math.Abs(v)
	}
	r, ties := rank(abs)
	sr := SignedRank{N: n}
	for i, v := range x {
		if v > 0 {
			sr.V += r[i]
		}
	}
	method, err := signedMethod(m, n, ties > 0 || zeros)
	if err != nil {
		return SignedRank{}, err
	}
	sr.Method = method
	if method == MethodExact {
		sr.P = signRankDist(n).twoSided(sr.V)
		return sr, nil
	}
	fn := float64(n)
	z := sr.V - fn*(fn+1)/4
	sigma := signedSigma(n, ties)
	sr.P = normalTwoSided((z - sign(z)*0.5) / sigma)
	return sr, nil
}

// signedSigma is the standard deviation of V under the null hypothesis for
// n non-zero differences, corrected for ties among their absolute values
// (ties is the sum of t^3 - t over groups of t tied values), as R's
// wilcox.test.
func signedSigma(n int, ties float64) float64 {
	fn := float64(n)
	return math.Sqrt(fn*(fn+1)*(2*fn+1)/24 - ties/48)
}

// nonZero validates d and returns its non-zero values, as R drops zeros
// before ranking, and whether any were dropped.
func nonZero(d []float64, m Method) (x []float64, zeros bool, err error) {
	if err := checkMethod(m); err != nil {
		return nil, false, err
	}
	if err := checkSample("d", d, 1); err != nil {
		return nil, false, err
	}
	x = make([]float64, 0, len(d))
	for _, v := range d {
		if v != 0 {
			x = append(x, v)
		}
	}
	if len(x) == 0 {
		return nil, false, fmt.Errorf("all %d differences are zero: %w", len(d), ErrAllEqual)
	}
	return x, len(x) < len(d), nil
}

// signedMethod resolves m for n non-zero differences.
func signedMethod(m Method, n int, tiesOrZeros bool) (Method, error) {
	switch m {
	case MethodAuto:
		if !tiesOrZeros && n < smallSample {
			return MethodExact, nil
		}
		return MethodNormal, nil
	case MethodExact:
		if tiesOrZeros {
			return "", fmt.Errorf("exact signed-rank distribution: %w", ErrTies)
		}
		if n > maxExactSigned {
			return "", fmt.Errorf("exact signed-rank distribution for %d differences, limit is %d: %w", n, maxExactSigned, ErrArgument)
		}
	}
	return m, nil
}

// PseudoMedian estimates the centre of the paired differences d: the
// median of the Walsh averages (d_i + d_j)/2, i <= j (the one-sample
// Hodges–Lehmann estimator), with the distribution-free confidence
// interval obtained by inverting the signed-rank test, as R's
// wilcox.test(d, conf.int = TRUE, conf.level = confidence). As in R, zero
// differences are dropped first. The interval's ends are Walsh averages:
// exact order statistics when the test is exact, otherwise where R's
// normal-approximation search ends (see the package doc). When the
// requested confidence cannot be reached R lowers it, and so does this
// function: Confidence says what was achieved.
//
// Input rules are those of WilcoxonSignedRank; in addition, under the
// normal approximation differences that are all the same non-zero value
// yield ErrAllEqual (R returns a NaN interval).
func PseudoMedian(d []float64, confidence float64) (Interval, error) {
	return PseudoMedianMethod(d, confidence, MethodAuto)
}

// PseudoMedianMethod is PseudoMedian with the distribution for the interval
// chosen by m (see WilcoxonSignedRankMethod).
func PseudoMedianMethod(d []float64, confidence float64, m Method) (Interval, error) {
	s, err := pseudoMedian(d, confidence, m)
	if err != nil {
		return Interval{}, fmt.Errorf("stats: pseudo-median: %w", err)
	}
	return s, nil
}

func pseudoMedian(d []float64, confidence float64, m Method) (Interval, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return Interval{}, err
	}
	x, zeros, err := nonZero(d, m)
	if err != nil {
		return Interval{}, err
	}
	n := len(x)
	if n*(n+1)/2 > maxPairs {
		return Interval{}, fmt.Errorf("%d differences give too many Walsh averages, limit is %d: %w", n, maxPairs, ErrArgument)
	}
	abs := make([]float64, n)
	for i, v := range x {
		abs[i] = math.Abs(v)
	}
	method, err := signedMethod(m, n, zeros || tieTerm(abs) > 0)
	if err != nil {
		return Interval{}, err
	}
	walsh := make([]float64, 0, n*(n+1)/2)
	for i := range x {
		for j := i; j < n; j++ {
			walsh = append(walsh, (x[i]+x[j])/2)
		}
	}
	slices.Sort(walsh)
	alpha := 1 - confidence
	s := Interval{Estimate: medianSorted(walsh), Confidence: confidence}
	if method == MethodExact {
		var achieved float64
		s.Lo, s.Hi, achieved = signRankDist(n).bounds(walsh, alpha)
		if achieved-alpha > alpha/2 {
			s.Confidence = 1 - signif2(achieved)
		}
		return s, finiteInterval(s)
	}

	// Normal approximation. R first checks that the interval's ends lie
	// inside [min(x), max(x)], evaluating its statistic W exactly at
	// those two points, and doubles alpha until they do. (At alpha >= 1
	// they always do: W is >= 0 at min(x) and <= 0 at max(x).)
	lo, hi := slices.Min(x), slices.Max(x)
	wlo, whi := signedW(x, lo), signedW(x, hi)
	if math.IsNaN(wlo) || math.IsNaN(whi) {
		return Interval{}, fmt.Errorf("all %d non-zero differences are %v: %w", n, x[0], ErrAllEqual)
	}
	for alpha < 1 && (wlo < zUpper(alpha/2) || whi > -zUpper(alpha/2)) {
		alpha *= 2
	}
	if alpha >= 1 || 1-confidence < alpha*0.75 {
		s.Confidence = 1 - math.Min(1, alpha)
	}
	if alpha >= 1 {
		// No interval at any level: R returns rep(median(x), 2) with
		// conf.level 0, which need not contain its own estimate. We
		// return the estimate itself so that Lo <= Estimate <= Hi holds.
		s.Lo, s.Hi = s.Estimate, s.Estimate
		return s, finiteInterval(s)
	}
	// Between two distinct Walsh averages no |x_i - d| tie except for
	// equal x_i, and no x_i - d is zero.
	sigma := signedSigma(n, tieTerm(x))
	z := zUpper(alpha / 2)
	s.Lo = normalBound(walsh, sigma, z)
	s.Hi = normalBound(walsh, sigma, -z)
	return s, finiteInterval(s)
}

// signedW is R's standardized, continuity-corrected signed-rank statistic
// of x - d, the function wilcox.test solves to find a normal-approximation
// interval. It is NaN when every x equals d.
func signedW(x []float64, d float64) float64 {
	var xd, abs []float64
	for _, v := range x {
		if t := v - d; t != 0 {
			xd = append(xd, t)
			abs = append(abs, math.Abs(t))
		}
	}
	if len(xd) == 0 {
		return math.NaN()
	}
	r, ties := rank(abs)
	var v float64
	for i, t := range xd {
		if t > 0 {
			v += r[i]
		}
	}
	n := float64(len(xd))
	z := v - n*(n+1)/4
	return (z - sign(z)*0.5) / signedSigma(len(xd), ties)
}

// signif2 rounds x to two significant digits, as R's signif(x, 2).
func signif2(x float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	if err != nil {
		return x
	}
	return r
}
