package compare

import (
	"math"

	"github.com/wirebench/wirebench/internal/results"
)

// exactMetric reports whether unit is compared exactly: encoded size
// always; allocation counts and bytes when every sample on both sides
// agrees (they are deterministic for a given code and input).
func exactMetric(unit string, b, c []float64) bool {
	if results.IsExact(unit) {
		return true
	}
	if unit == results.UnitAllocsPerOp || unit == results.UnitBytesPerOp {
		return results.AllEqual(b) && results.AllEqual(c)
	}
	return false
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
