package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Method says which null distribution produced a p-value or interval.
type Method string

const (
	// MethodAuto chooses as R's wilcox.test does: exact when there are no
	// ties (and, for the signed-rank test, no zeros) and every sample has
	// fewer than 50 values, normal otherwise.
	MethodAuto Method = ""
	// MethodExact uses the exact permutation distribution of the statistic.
	MethodExact Method = "exact"
	// MethodNormal uses the normal approximation with tie correction and
	// continuity correction.
	MethodNormal Method = "normal"
)

// Interval is a point estimate with a confidence interval: a location (a
// median or pseudo-median), a location shift, or a ratio, depending on the
// function that returns it. Lo <= Estimate <= Hi.
type Interval struct {
	Estimate, Lo, Hi float64
	// Confidence is the confidence level of [Lo, Hi]: the requested level,
	// or, where R reports one because the requested level is not
	// achievable with so few values (or where the method is discrete, as
	// for MedianCI), the level actually achieved.
	Confidence float64
}

// Errors returned (wrapped, with context) by this package. Use errors.Is.
var (
	// ErrTooFew means a sample has too few values for the computation.
	ErrTooFew = errors.New("too few values")
	// ErrNotFinite means an input (or a difference of inputs) is NaN or ±Inf.
	ErrNotFinite = errors.New("value is NaN or infinite")
	// ErrAllEqual means every value is the same, so there is nothing to rank.
	ErrAllEqual = errors.New("all values are equal")
	// ErrNotPositive means a ratio function got a value <= 0.
	ErrNotPositive = errors.New("value is not positive")
	// ErrTies means the exact distribution was requested for data with
	// ties (or zero differences), for which it does not exist.
	ErrTies = errors.New("exact distribution not available with ties")
	// ErrArgument means a parameter (confidence, alpha, power, method,
	// effect) is out of range, or the input is too large.
	ErrArgument = errors.New("argument out of range")
	// ErrUnreachable means no outcome of the test could reach the
	// significance level with these sample sizes.
	ErrUnreachable = errors.New("significance level unreachable with these sample sizes")
)

// Limits that keep memory and time bounded whatever the input.
const (
	// smallSample is R's threshold: exact distributions are used by
	// default only when every sample has fewer values than this.
	smallSample = 50
	// maxExactCells bounds n1*n2 for a forced exact rank-sum
	// distribution (the dynamic program costs about (n1*n2)^2/4 steps).
	maxExactCells = 10000
	// maxExactSigned bounds n for a forced exact signed-rank distribution.
	maxExactSigned = 1000
	// maxPairs bounds the number of pairwise differences (or Walsh
	// averages) materialized for an interval: 1e7 float64s is 80 MB.
	maxPairs = 10_000_000
)

// checkSample reports whether v has at least min values, all finite.
func checkSample(name string, v []float64, min int) error {
	if len(v) < min {
		return fmt.Errorf("%s has %d values, need at least %d: %w", name, len(v), min, ErrTooFew)
	}
	for i, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s[%d] = %v: %w", name, i, f, ErrNotFinite)
		}
	}
	return nil
}

// checkPositive reports whether every value of v is > 0.
func checkPositive(name string, v []float64) error {
	for i, f := range v {
		if !(f > 0) {
			return fmt.Errorf("%s[%d] = %v: %w", name, i, f, ErrNotPositive)
		}
	}
	return nil
}

// checkLevel reports whether p, a confidence, alpha or power, is in (0, 1).
func checkLevel(name string, p float64) error {
	if !(p > 0 && p < 1) {
		return fmt.Errorf("%s = %v, want 0 < %s < 1: %w", name, p, name, ErrArgument)
	}
	return nil
}

func checkMethod(m Method) error {
	switch m {
	case MethodAuto, MethodExact, MethodNormal:
		return nil
	}
	return fmt.Errorf("method %q, want %q, %q or %q: %w", m, MethodAuto, MethodExact, MethodNormal, ErrArgument)
}

// logs returns the natural logarithms of v, which must be positive.
func logs(name string, v []float64) ([]float64, error) {
	if err := checkPositive(name, v); err != nil {
		return nil, err
	}
	out := make([]float64, len(v))
	for i, f := range v {
		out[i] = math.Log(f)
	}
	return out, nil
}

// finiteInterval reports an error unless every field of s is finite; large
// inputs can overflow when differenced.
func finiteInterval(s Interval) error {
	for _, f := range []float64{s.Estimate, s.Lo, s.Hi} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("result %v overflows: %w", f, ErrNotFinite)
		}
	}
	return nil
}

// allEqual reports whether every value of v is the same.
func allEqual(v []float64) bool {
	for _, f := range v[1:] {
		if f != v[0] {
			return false
		}
	}
	return true
}

// sign returns -1, 0 or +1 as R's sign().
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// rank returns the ranks of v (1-based; tied values get the mean of the
// ranks they span, as R's rank with ties.method = "average") and the tie
// term sum(t^3 - t) over groups of t tied values.
func rank(v []float64) (r []float64, ties float64) {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	r = make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mid := float64(i+1+j) / 2 // mean of ranks i+1 .. j
		for _, k := range idx[i:j] {
			r[k] = mid
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	return r, ties
}

// tieTerm returns sum(t^3 - t) over groups of t equal values in v.
func tieTerm(v []float64) float64 {
	_, t := rank(v)
	return t
}

// sorted returns a sorted copy of v.
func sorted(v []float64) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s
}

// medianSorted is R's median of sorted, non-empty s.
func medianSorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
