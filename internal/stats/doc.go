// Package stats holds the statistics wirebench uses to decide whether two
// sets of benchmark samples differ: rank tests (Mann–Whitney U, Wilcoxon
// signed-rank) with Hodges–Lehmann effect estimates and distribution-free
// confidence intervals, the new-run test (one new run against replicate
// runs, Student's t on their pooled spread) with its minimum detectable
// effect (and with a floor on that spread), the trend test (the slope of
// a history's runs, a level for each segment), multiple-comparison
// adjustment (Holm, Benjamini–Hochberg), minimum detectable effects, and
// a few robust summaries.
//
// Every function is a pure function of its arguments and never modifies
// them. gonum supplies the distributions (normal, Student's t, binomial);
// the tests themselves are written here because gonum has none.
//
// The rank tests and their intervals reproduce R's wilcox.test (R 4.2) and
// are checked against values computed by R (testdata/reference.R); the
// new-run and trend tests against R's pt, qt, t.test and lm
// (testdata/newrun.R). Where this
// package deliberately differs from R:
//
//   - NaN and ±Inf inputs are rejected with ErrNotFinite. R drops NaN
//     silently and ranks infinities; for timings either one means a broken
//     measurement that should be reported, not hidden.
//   - When every value is the same there is no test: functions return
//     ErrAllEqual where R returns NaN or stops. Callers that want
//     benchstat's behaviour can read that as "no evidence of change" (p = 1).
//   - Intervals under the normal approximation: R finds each end with
//     uniroot(tol.root = 1e-4) on a step function, so its ends are only
//     accurate to 1e-4 in data units. The step happens at an order
//     statistic of the pairwise differences (Walsh averages for the
//     signed-rank test), and that order statistic is what this package
//     returns. R run with tol.root = 1e-12 agrees to about 1e-12.
//   - Estimates under the normal approximation: R's uniroot returns some
//     point of the interval on which the estimating equation is exactly
//     zero. That interval always contains the median of the pairwise
//     differences (Walsh averages), which is the Hodges–Lehmann estimator,
//     what R itself reports in the exact case, and what this package
//     always returns.
//   - When each sample is constant (so every pairwise difference is the
//     same, but the samples differ), R's interval search stops with an
//     error; HodgesLehmann returns that difference as estimate and ends.
//   - When the normal approximation cannot give an interval at any level
//     (a handful of tied differences), R returns median(d) twice with
//     conf.level 0; PseudoMedian returns its estimate twice, also with
//     Confidence 0, so that Lo <= Estimate <= Hi always holds.
package stats
