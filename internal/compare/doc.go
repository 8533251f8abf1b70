// Package compare decides, benchmark by benchmark and metric by metric,
// whether a candidate run differs from a baseline run: exact metrics
// (encoded size, deterministic allocation counts) by plain comparison
// against a threshold, noisy metrics (timings) by a Mann–Whitney test with
// a Hodges–Lehmann estimate of the ratio and its interval, with the
// p-values of the whole run adjusted so the chance of any false alarm stays
// below alpha. When the two runs come from different machines it separates
// the machine's global speed shift from each benchmark's own change.
//
// Compare is the stored-baseline comparison, in steps: pair the two runs'
// benchmarks and units (pair.go); judge exact metrics at once (exact.go)
// and estimate noisy ones (noisy.go); estimate the machine's speed shift,
// per shard when the candidate was merged from shards (shift.go); test
// and adjust the p-values (noisy.go); judge (judge.go).
//
// Judge, with Decide, is the one judging rule of a tested comparison. The
// same-runner A/B comparison (internal/ab) tests paired rounds instead of
// unpaired samples and judges its comparisons with it too, passing in
// what only it knows: how small a change its rounds could detect (a
// Sensitivity).
package compare
