// Package compare decides, benchmark by benchmark and metric by metric,
// whether a candidate run differs from a baseline run: exact metrics
// (encoded size, deterministic allocation counts) by plain comparison
// against a threshold, noisy metrics with a Hodges–Lehmann estimate of the
// ratio and a test: timings against the runs of the baseline's history
// (stats.NewRun), other noisy metrics, and timings without enough
// history, by a Mann–Whitney test of the samples; the p-values of the
// whole run adjusted so the chance of any false alarm stays below alpha. When the two runs come from different machines it separates
// the machine's global speed shift from each benchmark's own change.
//
// Compare is the stored-baseline comparison, in steps: pair the two runs'
// benchmarks and units (pair.go); judge exact metrics at once (exact.go:
// exact only when every sample agrees and the value does not depend on
// the batch size) and estimate noisy ones (noisy.go); prepare the
// baseline's history (history.go); estimate the machine's speed shift,
// per shard when the candidate was merged from shards (shift.go); test
// (timings against the history by the new-run test, widened together by
// the run's dispersion against the history when it spreads wider than the
// history's runs did, Dispersion; other noisy metrics by Mann–Whitney on
// the samples) and adjust the p-values, the enforced
// comparisons apart from those only reported (noisy.go); judge
// (judge.go).
//
// A process is the unit of replication for timings: samples within one
// run cannot show how much a benchmark moves from one process to the
// next, so a timing gates only against a history of at least
// MinHistoryRuns runs measured with the reference's harness settings, and
// a candidate measured with other settings is reported, not enforced
// (Result.Gate, Comparison.NotEnforced).
//
// Judge, with Decide, is the one judging rule of a tested comparison. The
// same-runner A/B comparison (internal/ab) tests paired rounds instead of
// unpaired samples and judges its comparisons with it too, passing in
// what only it knows: how small a change its rounds could detect (a
// Sensitivity).
package compare
