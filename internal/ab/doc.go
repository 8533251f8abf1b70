// Package ab is the same-runner A/B comparison's timed engine: it runs the
// base and the head build of the suite on the same machine at the same
// time, alternating them in short blocks, and compares them pair by pair
// (Run). The counted comparison of two builds, the wall-time check beside
// it and the use case around both are internal/check's; the builds
// themselves, and their programs started as workers, are
// internal/program's.
//
// On hosted CI runners which machine a job lands on moves timings by 10-30%,
// while the noise within one run is a few percent, so a stored baseline can
// only gate coarse timing changes. Here both builds run as worker processes
// (see internal/worker) driven by one orchestrator. Every round visits
// every benchmark in a freshly shuffled order; a visit is a block of about
// a millisecond of work in each worker — the base, the head and a second
// worker of the base build — adjacent in time, in an order rotated from
// visit to visit (the base before the head in every other one: ABBA),
// every worker on the same CPU (StartOptions.CPUs). Pairing cancels the
// part of the noise the blocks of a visit share: on the test machine, a
// VM on a shared host, a 1 ms block's time varied by a factor of two
// within seconds with the neighbours' use of the host, and the blocks of
// one visit were correlated by about 0.4, so a visit's log ratio still
// spread 8-14%; hundreds of visits make a benchmark's estimate. The head
// is compared with both base workers of its visit (their geometric mean),
// which takes a quarter off that spread's variance.
//
// What pairing cannot cancel is an offset of a whole worker process: on
// the test machine a process (and the copy of the binary it runs) was a
// few percent faster or slower than another of the same build for its
// whole life. So the measurement is split into generations, each on fresh
// processes of fresh copies of both binaries, and the statistics treat a
// generation as the unit of replication: per benchmark, each generation's
// pseudo-median of the per-visit log ratios head/base (the one-sample
// Hodges–Lehmann estimate), combined over the generations as a
// random-effects model whose between-generation variance is pooled over
// the run; Holm across benchmarks; an effect floor (default 1%). With a
// single generation it is the Wilcoxon signed-rank test on the pairs.
//
// The second base worker is compared with the first like the head, on
// every benchmark: the A/A check. If it flags anything, the machine was
// too noisy and the run does not fail on timings. Changes flagged in the
// main phase are re-measured in fresh generations and judged again on all
// generations; a regression that does not hold is reported, not enforced.
// Exact metrics (encoded size, allocations) come from both builds and are
// compared exactly.
package ab
