package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TrendTest is the outcome of Trend: the slope of a series against its
// positions, and the change it makes over the series.
type TrendTest struct {
	// Interval is the change the trend makes from the first position to
	// the last, Slope × (last − first), with its interval at Confidence.
	Interval
	// Slope is the least-squares slope per unit of position, and SE its
	// standard error.
	Slope, SE float64
	// S is the spread of one point around the fitted lines (at least the
	// floor given), with DF degrees of freedom: the points less the
	// segments less one.
	S, DF float64
	// T is Slope over SE and P its two-sided p-value under Student's t
	// with DF degrees of freedom.
	T, P float64
}

// Trend tests whether the series x, at positions t (increasing: a
// history's runs, 0, 1, 2, …), moves along a common slope: the
// least-squares fit of
//
//	x = a[segment] + slope · t + e,  e ~ N(0, s²) independent,
//
// every segment (segment[i] labels x[i]'s, in order; the points of a
// segment are consecutive) with a level of its own, so that known steps
// between segments (a change point, an accepted change) do not count as
// trend, and one slope for all. It is R's lm(x ~ factor(segment) + t)
// (lm(x ~ t) for one segment), the t test of the slope on
// n − segments − 1 degrees of freedom (testdata/newrun.R checks it):
// under no trend and independent normal points the test has its level
// exactly. A floor minS on s (the spread a point is known to have at
// least, from elsewhere) widens it, never narrows it.
//
// It needs at least one degree of freedom and a segment of two points or
// more (ErrTooFew), finite values, and a spread (ErrAllEqual when every
// point lies on the fitted lines and minS is 0: the caller decides, a
// slope of 0 being no trend and any other a certain one).
func Trend(t, x []float64, segment []int, minS, confidence float64) (TrendTest, error) {
	r, err := trend(t, x, segment, minS, confidence)
	if err != nil {
		return TrendTest{}, fmt.Errorf("stats: trend test: %w", err)
	}
	return r, nil
}

func trend(t, x []float64, segment []int, minS, confidence float64) (TrendTest, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return TrendTest{}, err
	}
	if !(minS >= 0) || math.IsInf(minS, 1) {
		return TrendTest{}, fmt.Errorf("minS = %v, want finite and >= 0: %w", minS, ErrArgument)
	}
	if len(t) != len(x) || len(segment) != len(x) {
		return TrendTest{}, fmt.Errorf("%d positions, %d values and %d segment labels, want as many of each: %w", len(t), len(x), len(segment), ErrArgument)
	}
	if err := checkSample("x", x, 3); err != nil {
		return TrendTest{}, err
	}
	if err := checkSample("t", t, 3); err != nil {
		return TrendTest{}, err
	}
	for i := 1; i < len(t); i++ {
		if !(t[i] > t[i-1]) {
			return TrendTest{}, fmt.Errorf("positions t[%d] = %v after %v, want increasing: %w", i, t[i], t[i-1], ErrArgument)
		}
	}
	// The points of each segment, centred on the segment's means.
	var groups [][2]int // [start, end) of each segment
	for i := range x {
		if i == 0 || segment[i] != segment[i-1] {
			for _, g := range groups {
				if segment[g[0]] == segment[i] {
					return TrendTest{}, fmt.Errorf("segment %d comes back at point %d, want each segment's points together: %w", segment[i], i, ErrArgument)
				}
			}
			groups = append(groups, [2]int{i, i})
		}
		groups[len(groups)-1][1] = i + 1
	}
	df := float64(len(x) - len(groups) - 1)
	if df < 1 {
		return TrendTest{}, fmt.Errorf("%d points in %d segments leave no degree of freedom for the spread: %w", len(x), len(groups), ErrTooFew)
	}
	var sxx, sxy float64
	for _, g := range groups {
		mt, mx := mean(t[g[0]:g[1]]), mean(x[g[0]:g[1]])
		for i := g[0]; i < g[1]; i++ {
			sxx += (t[i] - mt) * (t[i] - mt)
			sxy += (t[i] - mt) * (x[i] - mx)
		}
	}
	if sxx == 0 {
		return TrendTest{}, fmt.Errorf("no segment has two points: %w", ErrTooFew)
	}
	slope := sxy / sxx
	var rss float64
	for _, g := range groups {
		mt, mx := mean(t[g[0]:g[1]]), mean(x[g[0]:g[1]])
		for i := g[0]; i < g[1]; i++ {
			e := x[i] - mx - slope*(t[i]-mt)
			rss += e * e
		}
	}
	if rss == 0 && minS == 0 {
		return TrendTest{}, fmt.Errorf("every point lies on the fitted lines (slope %v): %w", slope, ErrAllEqual)
	}
	s := math.Max(math.Sqrt(rss/df), minS)
	se := s / math.Sqrt(sxx)
	span := t[len(t)-1] - t[0]
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	half := dist.Quantile(1-(1-confidence)/2) * se * span
	change := slope * span
	ts := slope / se
	res := TrendTest{
		Interval: Interval{Estimate: change, Lo: change - half, Hi: change + half, Confidence: confidence},
		Slope:    slope, SE: se, S: s, DF: df, T: ts,
		P: math.Min(1, 2*dist.Survival(math.Abs(ts))),
	}
	if err := finiteInterval(res.Interval); err != nil {
		return TrendTest{}, err
	}
	return res, nil
}
