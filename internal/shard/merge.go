package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// PartitionID fingerprints a partition: the full list of benchmarks and
// the shard of each. Every shard records it, so merge can tell shards of
// one matrix run from shards computed against different baselines or
// filters.
func PartitionID(assign map[string]int, n int) string {
	names := make([]string, 0, len(assign))
	for name := range assign {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%d\n", n)
	for _, name := range names {
		fmt.Fprintf(h, "%s\t%d\n", name, assign[name])
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// MergeOptions control Merge.
type MergeOptions struct {
	// AllowPartial merges even when shards are missing; the result's
	// Shards then lack them and Missing lists their indices.
	AllowPartial bool
}

// Merged is the outcome of Merge.
type Merged struct {
	Results *results.Results
	// MissingShards lists shard indices not given (only with AllowPartial).
	MissingShards []int
}

// Merge combines the results of the shards of one matrix run into one
// results file. Every part must be a shard of the same suite, format and
// partition; every shard must appear exactly once and every benchmark in
// exactly one shard. A missing or duplicated shard is an error that says
// which, unless AllowPartial (missing only; duplicates are always errors).
func Merge(parts []*results.Results, names []string, opts MergeOptions) (*Merged, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no results files given: pass the shards' results (e.g. the downloaded artifacts)")
	}
	var count int
	var suite, partition string
	byIndex := map[int]int{}
	for i, p := range parts {
		spec, err := Parse(p.Settings.Shard)
		if p.Settings.Shard == "" || err != nil {
			return nil, fmt.Errorf("merge: %s is not a shard's results (no shard I/N recorded): run each matrix job with --shard I/N", names[i])
		}
		if i == 0 {
			count, suite, partition = spec.Count, p.Suite, p.Settings.Partition
		}
		switch {
		case p.Version != parts[0].Version || p.Format != parts[0].Format:
			return nil, fmt.Errorf("merge: %s has results format %s v%d, %s has %s v%d: all shards must come from the same wirebench", names[i], p.Format, p.Version, names[0], parts[0].Format, parts[0].Version)
		case p.Suite != suite:
			return nil, fmt.Errorf("merge: %s is suite %q, %s is suite %q: merge shards of one suite", names[i], p.Suite, names[0], suite)
		case spec.Count != count:
			return nil, fmt.Errorf("merge: %s is shard %s but %s is shard %s: all shards must split the suite the same number of ways", names[i], spec, names[0], parts[0].Settings.Shard)
		case p.Settings.Partition != partition:
			return nil, fmt.Errorf("merge: %s and %s computed different partitions (different baselines, filters or suites?): re-run the matrix so every shard reads the same baseline", names[i], names[0])
		case !sameCounter(p.Settings.Counter, parts[0].Settings.Counter):
			return nil, fmt.Errorf("merge: %s was %s, %s was %s: every shard of a matrix must measure with one metric (set it for the whole matrix)", names[i], measuredBy(p.Settings.Counter), names[0], measuredBy(parts[0].Settings.Counter))
		}
		if j, dup := byIndex[spec.Index]; dup {
			return nil, fmt.Errorf("merge: shard %s appears twice (%s and %s): give each shard's results once", spec, names[j], names[i])
		}
		byIndex[spec.Index] = i
	}
	var missing []int
	for s := 1; s <= count; s++ {
		if _, ok := byIndex[s]; !ok {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 && !opts.AllowPartial {
		noun := "shards"
		if len(missing) == 1 {
			noun = "shard"
		}
		return nil, fmt.Errorf("merge: %s %s of %d missing (got %s): a matrix job failed or its artifact was not downloaded; pass --partial to merge what is there",
			noun, joinInts(missing), count, human.Plural(len(parts), "file", "files"))
	}

	first := parts[byIndex[minKey(byIndex)]]
	out := results.New(suite, first.Env)
	out.Settings = first.Settings
	out.Settings.Shard, out.Settings.Elapsed = "", 0
	seen := map[string]string{}
	var elapsed time.Duration
	for s := 1; s <= count; s++ {
		i, ok := byIndex[s]
		if !ok {
			continue
		}
		p := parts[i]
		out.Shards = append(out.Shards, results.ShardRun{Index: s, Count: count, Env: p.Env, Benchmarks: len(p.Benchmarks), Elapsed: p.Settings.Elapsed})
		elapsed = max(elapsed, p.Settings.Elapsed)
		for _, b := range p.Benchmarks {
			if other, dup := seen[b.Name]; dup {
				return nil, fmt.Errorf("merge: %s was measured by both %s and %s: the shards overlap, so they were not cut from one partition", b.Name, other, names[i])
			}
			seen[b.Name] = names[i]
			b.Shard = s
			out.Benchmarks = append(out.Benchmarks, b)
		}
	}
	out.Settings.Elapsed = elapsed // the matrix ran the shards in parallel
	if len(missing) == 0 && first.Settings.SuiteSize > 0 && len(seen) != first.Settings.SuiteSize {
		return nil, fmt.Errorf("merge: the shards hold %d benchmarks, the partition has %d: a shard's results are incomplete", len(seen), first.Settings.SuiteSize)
	}
	return &Merged{Results: out, MissingShards: missing}, nil
}

func minKey(m map[int]int) int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return slices.Min(keys)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// sameCounter reports whether two shards measured alike: both timed, or
// both counted the same way.
func sameCounter(a, b *results.Counter) bool {
	if a == nil || b == nil {
		return a == b
	}
	return len(a.Diff(b)) == 0
}

// measuredBy says how a shard measured, for errors.
func measuredBy(c *results.Counter) string {
	if c == nil {
		return "timed"
	}
	return "counted (" + c.String() + ")"
}
