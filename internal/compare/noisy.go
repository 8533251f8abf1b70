package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/stats"
)

// noisy is the comparison of a noisy metric with the pair of samples it is
// estimated, tested and judged on.
type noisy struct {
	c *Comparison
	p pair
}

// estimate fills the Hodges–Lehmann ratio and interval of a noisy metric,
// or a note saying why there is none.
func estimate(c *Comparison, b, n []float64, opts Options) {
	c.Ratio, c.Lo, c.Hi, c.RawRatio = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if len(b) < 2 || len(n) < 2 {
		c.Note = fmt.Sprintf("too few samples (%d vs %d): need at least 2 a side, 10 or more to detect small changes", len(b), len(n))
		if c.Baseline.Median > 0 {
			c.Ratio = c.Candidate.Median / c.Baseline.Median
			c.RawRatio = c.Ratio
		}
		return
	}
	if slices.Min(b) > 0 && slices.Min(n) > 0 {
		s, err := stats.RatioHL(b, n, opts.Confidence)
		if err == nil {
			c.Ratio, c.Lo, c.Hi = s.Estimate, s.Lo, s.Hi
			c.RawRatio = c.Ratio
			return
		}
		if !errors.Is(err, stats.ErrAllEqual) {
			c.Note = "no estimate: " + err.Error()
			return
		}
	}
	// Zeros (allocation bytes, say) rule out ratios of samples: estimate
	// the shift in the metric's own unit and express it against the
	// baseline median.
	s, err := stats.HodgesLehmann(b, n, opts.Confidence)
	if err != nil && !errors.Is(err, stats.ErrAllEqual) {
		c.Note = "no estimate: " + err.Error()
		return
	}
	if errors.Is(err, stats.ErrAllEqual) {
		s = stats.Interval{}
	}
	base := c.Baseline.Median
	if base <= 0 {
		c.Note = "baseline median is zero: no relative change"
		return
	}
	c.Ratio, c.Lo, c.Hi = (base+s.Estimate)/base, (base+s.Lo)/base, (base+s.Hi)/base
	c.RawRatio = c.Ratio
}

// allTooFew reports whether every noisy comparison lacks the samples for
// an estimate.
func allTooFew(ns []noisy) bool {
	for _, n := range ns {
		if !strings.HasPrefix(n.c.Note, "too few samples") {
			return false
		}
	}
	return true
}

// testNoisy runs the Mann–Whitney test of every noisy comparison that has
// an estimate, on the candidate's samples divided by its machine's speed
// shift where that shift is applied (see normalizeTiming), and adjusts
// the p-values of the run together. It returns how many were tested: the
// m of Judge.
func testNoisy(ns []noisy, shifts map[int]*Shift, opts Options) int {
	cs := make([]*Comparison, len(ns))
	for i, n := range ns {
		cand := normalizeTiming(n.c, n.p.c, shifts[n.p.shard])
		if n.c.Note == "" {
			rankSum(n.c, n.p.b, cand)
		}
		cs[i] = n.c
	}
	return adjust(cs, opts.Correction)
}

// rankSum sets c.P to the Mann–Whitney p-value of b against cand: 1 when
// every value is the same (no evidence of change), or a note saying why
// there is no test.
func rankSum(c *Comparison, b, cand []float64) {
	t, err := stats.MannWhitney(b, cand)
	switch {
	case err == nil:
		c.P = t.P
	case errors.Is(err, stats.ErrAllEqual):
		c.P = 1
	default:
		c.Note = "no test: " + err.Error()
	}
}

// adjust sets PAdjusted on every comparison of cs that has a p-value, all
// adjusted together by correction (Holm unless it names another), and
// returns how many there were.
func adjust(cs []*Comparison, correction Correction) int {
	var ps []float64
	for _, c := range cs {
		if !math.IsNaN(c.P) {
			ps = append(ps, c.P)
		}
	}
	var adjusted []float64
	switch correction {
	case BenjaminiHochberg:
		adjusted = stats.BenjaminiHochberg(ps)
	case NoCorrection:
		adjusted = slices.Clone(ps)
	default:
		adjusted = stats.Holm(ps)
	}
	k := 0
	for _, c := range cs {
		if !math.IsNaN(c.P) {
			c.PAdjusted = adjusted[k]
			k++
		}
	}
	return len(ps)
}
