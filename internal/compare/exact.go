package compare

import (
	"math"
	"slices"

	"github.com/wirebench/wirebench/internal/results"
)

// exactMetric reports whether p is compared exactly: the encoded size
// always. Allocation counts and bytes per operation are exact when every
// sample of each side agrees and the value is shown not to depend on the
// batch size (see independentOfBatch): a per-operation average that moves
// with the iteration count, fixed costs amortised over more or fewer
// operations, is not exact (seen: 3618485 B/op at 9 iterations a sample
// against 3618496 at 1, the same code). Otherwise they are tested like
// timings, against the threshold.
func exactMetric(p pair) bool {
	if results.IsExact(p.unit) {
		return true
	}
	if p.unit != results.UnitAllocsPerOp && p.unit != results.UnitBytesPerOp {
		return false
	}
	return results.AllEqual(p.b) && results.AllEqual(p.c) && independentOfBatch(p.bn, p.cn)
}

// independentOfBatch reports whether two sides whose samples each agree
// (with iteration counts bn and cn) can be compared exactly: when both
// sides measured at least one batch size in common (a difference there is
// the code's), or each side agrees across samples of different batch sizes
// (evidence that the value does not depend on it). When a side does not
// record its iteration counts (results written by hand, the A/B mode's
// summary of its blocks), the agreement of its samples is all there is to
// go on, and it is taken as exact.
func independentOfBatch(bn, cn []int64) bool {
	if bn == nil || cn == nil {
		return true
	}
	for _, n := range bn {
		if slices.Contains(cn, n) {
			return true
		}
	}
	return distinct(bn) >= 2 && distinct(cn) >= 2
}

// distinct is the number of distinct values of v.
func distinct(v []int64) int {
	seen := map[int64]bool{}
	for _, x := range v {
		seen[x] = true
	}
	return len(seen)
}

// judgeExact judges an exact metric from the two medians: the plain ratio,
// and a regression (improvement) when it is worse (better) by more than
// the unit's threshold, SizeThreshold for the encoded size and
// AllocThreshold for allocations. Growth from zero is always a regression.
func judgeExact(c *Comparison, opts Options) {
	b, n := c.Baseline.Median, c.Candidate.Median
	threshold := opts.AllocThreshold
	if c.Unit == results.UnitBytesPerMsg {
		threshold = opts.SizeThreshold
	}
	switch {
	case b == 0 && n == 0:
		c.Ratio = 1
	case b == 0:
		c.Ratio = math.Inf(1)
	default:
		c.Ratio = n / b
	}
	c.RawRatio, c.Lo, c.Hi = c.Ratio, c.Ratio, c.Ratio
	worse, better := n > b, n < b
	if c.HigherIsBetter {
		worse, better = better, worse
	}
	change := math.Abs(c.Ratio - 1)
	switch {
	case worse && (change > threshold || b == 0):
		c.Verdict = Regression
	case better && change > threshold:
		c.Verdict = Improvement
	default:
		c.Verdict = Unchanged
	}
}
