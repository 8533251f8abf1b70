package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// madScale makes the median absolute deviation a consistent estimator of
// the standard deviation for normal data (1/qnorm(3/4)), as R's mad.
const madScale = 1.4826

// Median returns the sample median of x (the mean of the two middle
// values when len(x) is even), as R's median. x must be non-empty and
// finite.
func Median(x []float64) (float64, error) {
	if err := checkSample("x", x, 1); err != nil {
		return 0, fmt.Errorf("stats: median: %w", err)
	}
	return medianSorted(sorted(x)), nil
}

// MAD returns the median absolute deviation from the median, scaled by
// 1.4826 so that it estimates the standard deviation of normal data, as
// R's mad(x). It is a robust measure of spread: a few outliers do not move
// it. x must be non-empty and finite.
func MAD(x []float64) (float64, error) {
	if err := checkSample("x", x, 1); err != nil {
		return 0, fmt.Errorf("stats: MAD: %w", err)
	}
	return mad(x), nil
}

func mad(x []float64) float64 {
	m := medianSorted(sorted(x))
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = math.Abs(v - m)
	}
	return madScale * medianSorted(sorted(dev))
}

// MedianCI returns the median of x with a distribution-free confidence
// interval from order statistics: [x(k), x(n+1-k)] with the largest k such
// that P(B <= k-1) <= (1-confidence)/2 for B ~ Binomial(n, 1/2) (each
// value falls below the true median with probability 1/2). Such an
// interval covers the median with probability 1 - 2 P(B <= k-1), which is
// at least the requested confidence and is what Confidence reports.
//
// Small samples cannot reach high confidence (95% needs n >= 6, 99% needs
// n >= 8); they yield ErrTooFew.
func MedianCI(x []float64, confidence float64) (Interval, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return Interval{}, fmt.Errorf("stats: median interval: %w", err)
	}
	if err := checkSample("x", x, 1); err != nil {
		return Interval{}, fmt.Errorf("stats: median interval: %w", err)
	}
	s := sorted(x)
	n := len(s)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	a := (1 - confidence) / 2
	// The largest k: P(B <= k-1) grows with k. The relative fuzz accepts
	// an exact tie (such as n = 3 at 75%) despite rounding in the CDF.
	k := 0
	for k+1 <= (n+1)/2 && b.CDF(float64(k)) <= a*(1+1e-12) {
		k++
	}
	if k < 1 {
		return Interval{}, fmt.Errorf("stats: median interval: %d values cannot reach %v confidence: %w", n, confidence, ErrTooFew)
	}
	return Interval{
		Estimate:   medianSorted(s),
		Lo:         s[k-1],
		Hi:         s[n-k],
		Confidence: 1 - 2*b.CDF(float64(k-1)),
	}, nil
}

// GeoMean estimates a global speed shift from per-benchmark ratios
// (candidate/baseline): their geometric mean, with a Student-t confidence
// interval computed on the logs and exponentiated, as
// exp(t.test(log(ratios), conf.level = confidence)$conf.int) in R. The
// interval assumes the log ratios are a sample from one distribution,
// which is the "whole machine got faster or slower" model. It needs at
// least two ratios, all > 0 and finite; equal ratios give a zero-width
// interval.
func GeoMean(ratios []float64, confidence float64) (Interval, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return Interval{}, fmt.Errorf("stats: geometric mean: %w", err)
	}
	if err := checkSample("ratios", ratios, 2); err != nil {
		return Interval{}, fmt.Errorf("stats: geometric mean: %w", err)
	}
	l, err := logs("ratios", ratios)
	if err != nil {
		return Interval{}, fmt.Errorf("stats: geometric mean: %w", err)
	}
	n := float64(len(l))
	mean, sd := stat.MeanStdDev(l, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-confidence)/2)
	half := t * sd / math.Sqrt(n)
	return Interval{
		Estimate:   math.Exp(mean),
		Lo:         math.Exp(mean - half),
		Hi:         math.Exp(mean + half),
		Confidence: confidence,
	}, nil
}
