// Package shard splits a suite's benchmarks over the jobs of a GitHub
// Actions matrix, so a suite that outgrows one runner's time budget runs on
// several, and merges their results back into one.
//
// The partition is deterministic (every job computes the same one on its
// own), balanced by expected cost, and stable: adding a benchmark moves no
// other benchmark to another shard.
//
// How: when a baseline is known, its benchmarks are spread by expected
// cost with the longest-processing-time rule (most expensive first, each to
// the least loaded shard, ties broken by a hash of the name), which keeps
// shards within a few percent of equal cost. The baseline — the same file
// for every job of one matrix run — fixes that assignment; benchmarks the
// baseline does not know (added since) are placed by rendezvous hashing on
// their name alone, so adding one moves nothing else, and removing one
// from the suite leaves the others where they were. Without a baseline
// every benchmark is placed by rendezvous hashing: stable, but balanced
// only by count and only statistically.
package shard
