package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// RankSum is the result of a two-sided Mann–Whitney U (Wilcoxon rank-sum)
// test.
type RankSum struct {
	// U is R's W: the rank sum of x minus n1(n1+1)/2, i.e. the number of
	// pairs (x_i, y_j) with x_i > y_j, ties counting one half.
	U float64
	// P is the two-sided p-value.
	P float64
	// Method is the null distribution P came from.
	Method Method
	// N1 and N2 are the sizes of x and y.
	N1, N2 int
}

// MannWhitney is the two-sided Mann–Whitney U test of whether x and y come
// from distributions with the same location, as R's wilcox.test(x, y):
// exact when there are no ties and both samples have fewer than 50 values,
// otherwise the normal approximation with tie and continuity correction.
//
// Each sample needs at least one value; NaN and ±Inf are rejected
// (ErrNotFinite), and samples whose values are all the same yield
// ErrAllEqual (R gives NaN; benchstat reports p = 1).
func MannWhitney(x, y []float64) (RankSum, error) {
	return MannWhitneyMethod(x, y, MethodAuto)
}

// MannWhitneyMethod is MannWhitney with the null distribution chosen by m,
// as wilcox.test(x, y, exact = m == MethodExact, correct = TRUE).
// MethodExact fails with ErrTies on tied data (R falls back to the normal
// approximation with a warning) and with ErrArgument when n1*n2 > 10000.
func MannWhitneyMethod(x, y []float64, m Method) (RankSum, error) {
	rs, err := mannWhitney(x, y, m)
	if err != nil {
		return RankSum{}, fmt.Errorf("stats: Mann-Whitney test: %w", err)
	}
	return rs, nil
}

func mannWhitney(x, y []float64, m Method) (RankSum, error) {
	if err := checkRankSumInput(x, y, m); err != nil {
		return RankSum{}, err
	}
	n1, n2 := len(x), len(y)
	r, ties := rank(slices.Concat(x, y))
	var rx float64
	for _, v := range r[:n1] {
		rx += v
	}
	nx, ny := float64(n1), float64(n2)
	rs := RankSum{U: rx - nx*(nx+1)/2, N1: n1, N2: n2}
	method, err := rankSumMethod(m, n1, n2, ties > 0)
	if err != nil {
		return RankSum{}, err
	}
	rs.Method = method
	if method == MethodExact {
		rs.P = rankSumDist(n1, n2).twoSided(rs.U)
		return rs, nil
	}
	sigma := rankSumSigma(n1, n2, ties)
	z := rs.U - nx*ny/2
	rs.P = normalTwoSided((z - sign(z)*0.5) / sigma)
	return rs, nil
}

func checkRankSumInput(x, y []float64, m Method) error {
	if err := checkMethod(m); err != nil {
		return err
	}
	if err := checkSample("x", x, 1); err != nil {
		return err
	}
	if err := checkSample("y", y, 1); err != nil {
		return err
	}
	if allEqual(x) && allEqual(y) && x[0] == y[0] {
		return fmt.Errorf("x and y: all %d values are %v: %w", len(x)+len(y), x[0], ErrAllEqual)
	}
	return nil
}

// rankSumMethod resolves m for samples of n1 and n2 values.
func rankSumMethod(m Method, n1, n2 int, ties bool) (Method, error) {
	switch m {
	case MethodAuto:
		if !ties && n1 < smallSample && n2 < smallSample {
			return MethodExact, nil
		}
		return MethodNormal, nil
	case MethodExact:
		if ties {
			return "", fmt.Errorf("exact Mann-Whitney distribution: %w", ErrTies)
		}
		if n1*n2 > maxExactCells {
			return "", fmt.Errorf("exact Mann-Whitney distribution for %d x %d values, limit is %d cells: %w", n1, n2, maxExactCells, ErrArgument)
		}
	}
	return m, nil
}

// rankSumSigma is the standard deviation of U under the null hypothesis
// for samples of n1 and n2 values, corrected for ties (ties is the sum of
// t^3 - t over groups of t tied values), as R's wilcox.test.
func rankSumSigma(n1, n2 int, ties float64) float64 {
	nx, ny := float64(n1), float64(n2)
	return math.Sqrt((nx * ny / 12) * ((nx + ny + 1) - ties/((nx+ny)*(nx+ny-1))))
}

// normalTwoSided is R's 2 * min(pnorm(z), pnorm(z, lower.tail = FALSE)).
func normalTwoSided(z float64) float64 {
	return 2 * math.Min(distuv.UnitNormal.CDF(z), distuv.UnitNormal.Survival(z))
}

// zUpper returns the upper alpha quantile of the standard normal, R's
// qnorm(alpha, lower.tail = FALSE).
func zUpper(alpha float64) float64 {
	return -distuv.UnitNormal.Quantile(alpha)
}

// HodgesLehmann estimates the location shift y - x: the median of all
// pairwise differences y_j - x_i (the Hodges–Lehmann estimator), with the
// distribution-free confidence interval obtained by inverting the
// Mann–Whitney test, as R's wilcox.test(y, x, conf.int = TRUE,
// conf.level = confidence). The interval's ends are order statistics of
// the pairwise differences: from the exact distribution when there are no
// ties and both samples have fewer than 50 values, otherwise from the
// normal approximation (see the package doc for how this relates to R's
// uniroot search). Input rules are those of MannWhitney.
func HodgesLehmann(x, y []float64, confidence float64) (Interval, error) {
	return HodgesLehmannMethod(x, y, confidence, MethodAuto)
}

// HodgesLehmannMethod is HodgesLehmann with the distribution for the
// interval chosen by m (see MannWhitneyMethod).
func HodgesLehmannMethod(x, y []float64, confidence float64, m Method) (Interval, error) {
	s, err := hodgesLehmann(x, y, confidence, m)
	if err != nil {
		return Interval{}, fmt.Errorf("stats: Hodges-Lehmann shift: %w", err)
	}
	return s, nil
}

// RatioHL estimates the ratio candidate/baseline as the Hodges–Lehmann
// shift on the log scale, exponentiated: Estimate, Lo and Hi are ratios
// (1.05 means the candidate is 5% larger). All values must be > 0
// (ErrNotPositive). The interval comes from the same rank test as
// MannWhitney(base, cand), so the two agree on significance.
func RatioHL(base, cand []float64, confidence float64) (Interval, error) {
	return RatioHLMethod(base, cand, confidence, MethodAuto)
}

// RatioHLMethod is RatioHL with the distribution for the interval chosen
// by m (see MannWhitneyMethod).
func RatioHLMethod(base, cand []float64, confidence float64, m Method) (Interval, error) {
	s, err := ratioHL(base, cand, confidence, m)
	if err != nil {
		return Interval{}, fmt.Errorf("stats: Hodges-Lehmann ratio: %w", err)
	}
	return s, nil
}

func ratioHL(base, cand []float64, confidence float64, m Method) (Interval, error) {
	if err := checkSample("base", base, 1); err != nil {
		return Interval{}, err
	}
	if err := checkSample("cand", cand, 1); err != nil {
		return Interval{}, err
	}
	lb, err := logs("base", base)
	if err != nil {
		return Interval{}, err
	}
	lc, err := logs("cand", cand)
	if err != nil {
		return Interval{}, err
	}
	s, err := hodgesLehmann(lb, lc, confidence, m)
	if err != nil {
		return Interval{}, err
	}
	return Interval{Estimate: math.Exp(s.Estimate), Lo: math.Exp(s.Lo), Hi: math.Exp(s.Hi), Confidence: s.Confidence}, nil
}

func hodgesLehmann(x, y []float64, confidence float64, m Method) (Interval, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return Interval{}, err
	}
	if err := checkRankSumInput(x, y, m); err != nil {
		return Interval{}, err
	}
	n1, n2 := len(x), len(y)
	if n1*n2 > maxPairs {
		return Interval{}, fmt.Errorf("%d x %d pairwise differences, limit is %d: %w", n1, n2, maxPairs, ErrArgument)
	}
	method, err := rankSumMethod(m, n1, n2, tieTerm(slices.Concat(x, y)) > 0)
	if err != nil {
		return Interval{}, err
	}
	// The differences as R forms them in wilcox.test(y, x): y_j - x_i.
	d := make([]float64, 0, n1*n2)
	for _, yj := range y {
		for _, xi := range x {
			d = append(d, yj-xi)
		}
	}
	slices.Sort(d)
	alpha := 1 - confidence
	s := Interval{Estimate: medianSorted(d), Confidence: confidence}
	if method == MethodExact {
		var achieved float64
		s.Lo, s.Hi, achieved = rankSumDist(n1, n2).bounds(d, alpha)
		if achieved-alpha > alpha/2 {
			s.Confidence = 1 - achieved
		}
	} else {
		// Between two distinct differences no value of y - d ties with
		// x, so only ties within each sample enter the variance.
		sigma := rankSumSigma(n1, n2, tieTerm(x)+tieTerm(y))
		z := zUpper(alpha / 2)
		s.Lo = normalBound(d, sigma, z)
		s.Hi = normalBound(d, sigma, -z)
	}
	return s, finiteInterval(s)
}

// normalBound returns where R's uniroot search for W(d) = zq ends, for a
// rank statistic that counts how many of the sorted values v (pairwise
// differences or Walsh averages) exceed d.
//
// R's W(d) is the standardized, continuity-corrected statistic
// (c - N/2 - sign(c - N/2)/2) / sigma, where c is the number of v above d
// and N = len(v). It is a non-increasing step function of d that jumps only
// at the values of v, so the root R converges onto is the first value of v
// after which W drops below zq (or the largest value if it never does).
func normalBound(v []float64, sigma, zq float64) float64 {
	n := len(v)
	half := float64(n) / 2
	for i := 0; i < n; {
		j := i + 1
		for j < n && v[j] == v[i] {
			j++
		}
		dz := float64(n-j) - half // n-j values lie above v[i]
		if (dz-sign(dz)*0.5)/sigma < zq {
			return v[i]
		}
		i = j
	}
	return v[n-1]
}
