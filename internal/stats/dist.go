package stats

import "math"

// countDist is an exact discrete null distribution on 0..len(count)-1,
// held as frequencies (R's cwilcox / csignrank) and their total.
type countDist struct {
	count []float64
	total float64
}

// rankSumDist returns the exact distribution of the Mann–Whitney U
// statistic for samples of m and n values without ties (R's dwilcox).
//
// It uses the recurrence c(m, n; u) = c(m-1, n; u-n) + c(m, n-1; u):
// the largest of the m+n values is either from the first sample (and
// beats all n of the second) or from the second. Only additions of
// non-negative numbers are involved, so tail counts keep full relative
// precision in float64. The cost is about (m*n)^2/4 additions.
func rankSumDist(m, n int) countDist {
	if m < n {
		// The distribution is symmetric in m and n; iterating rows over
		// the larger sample keeps each row (n+1 slices) short.
		m, n = n, m
	}
	// prev[j] holds the counts for (i-1, j), cur[j] those for (i, j), each
	// row laid out in one buffer; the two buffers swap roles every row.
	size := m*n*(n+1)/2 + n + 1
	prevBuf, curBuf := make([]float64, size), make([]float64, size)
	prev, cur := make([][]float64, n+1), make([][]float64, n+1)
	for j := range prev {
		prev[j] = prevBuf[j : j+1]
		prev[j][0] = 1
	}
	for i := 1; i <= m; i++ {
		off := 0
		for j := 0; j <= n; j++ {
			c := curBuf[off : off+i*j+1]
			off += i*j + 1
			if j == 0 {
				c[0] = 1
			} else {
				clear(c[copy(c, cur[j-1]):])
				for u, v := range prev[j] {
					c[u+j] += v
				}
			}
			cur[j] = c
		}
		prev, cur = cur, prev
		prevBuf, curBuf = curBuf, prevBuf
	}
	return newCountDist(prev[n])
}

// signRankDist returns the exact distribution of the Wilcoxon signed-rank
// statistic V for n non-zero, untied differences (R's dsignrank): the
// number of subsets of {1..n} with each sum, counted by adding one rank
// at a time.
func signRankDist(n int) countDist {
	c := make([]float64, n*(n+1)/2+1)
	c[0] = 1
	for k := 1; k <= n; k++ {
		for s := k * (k + 1) / 2; s >= k; s-- {
			c[s] += c[s-k]
		}
	}
	return countDist{count: c, total: math.Ldexp(1, n)}
}

func newCountDist(c []float64) countDist {
	var t float64
	for _, v := range c {
		t += v
	}
	return countDist{count: c, total: t}
}

// max is the largest value of the statistic.
func (d countDist) max() int { return len(d.count) - 1 }

// cdf returns P(S <= q), summing the shorter tail as R's pwilcox does.
func (d countDist) cdf(q float64) float64 {
	q = math.Floor(q + 1e-7)
	if q < 0 {
		return 0
	}
	if q >= float64(d.max()) {
		return 1
	}
	if q <= float64(d.max())/2 {
		return d.lower(int(q))
	}
	// P(S <= q) = 1 - P(S >= q+1) = 1 - P(S <= max-q-1) by symmetry.
	return 1 - d.lower(d.max()-int(q)-1)
}

// lower returns P(S <= k) for 0 <= k <= max by direct summation.
func (d countDist) lower(k int) float64 {
	var p float64
	for _, c := range d.count[:k+1] {
		p += c / d.total
	}
	return p
}

// twoSided returns the two-sided p-value of an observed statistic s
// (an integer for untied data), as R: twice the smaller tail, at most 1.
func (d countDist) twoSided(s float64) float64 {
	mid := float64(d.max()) / 2
	var p float64
	if s > mid {
		// P(S >= s) = P(S <= max - s) by symmetry; sum it directly.
		p = d.lower(int(math.Floor(float64(d.max()) - s + 1e-7)))
	} else {
		p = d.lower(int(math.Floor(s + 1e-7)))
	}
	return math.Min(2*p, 1)
}

// quantile returns the smallest q with P(S <= q) >= p for p <= 1/2, with
// the same 10-epsilon fuzz as R's qwilcox and qsignrank, so intervals built
// on it pick the same order statistics as R.
func (d countDist) quantile(p float64) int {
	x := p - 10*epsilon
	var cum float64
	for q, c := range d.count {
		cum += c / d.total
		if cum >= x {
			return q
		}
	}
	return d.max()
}

// bounds returns the ends of the exact distribution-free interval at
// level 1-alpha, as R's wilcox.test picks them: the order statistics of v,
// the sorted values the statistic counts (pairwise differences for the
// rank-sum test, Walsh averages for the signed-rank test), at the
// alpha/2 quantile of d from each end. achieved is the two-sided level
// those ends really have, 2 P(S <= q-1), which callers report when the
// requested level cannot be reached.
func (d countDist) bounds(v []float64, alpha float64) (lo, hi, achieved float64) {
	qu := d.quantile(alpha / 2)
	if qu == 0 {
		qu = 1
	}
	ql := len(v) - qu
	return v[qu-1], v[ql], 2 * d.cdf(float64(qu-1))
}

// epsilon is C's DBL_EPSILON.
const epsilon = 0x1p-52
