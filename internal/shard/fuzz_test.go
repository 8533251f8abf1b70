package shard

import (
	"bytes"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// FuzzMerge feeds the merge two arbitrary shard artifacts, as downloaded
// from other jobs: each is parsed as a results file and the two merged,
// allowing a partial matrix. A merge either fails or gives results that
// validate, with no more shards than MaxCount; nothing panics, and a
// shard count in a file never makes the merge loop or allocate without
// bound. Run with: go test -fuzz FuzzMerge ./internal/shard
func FuzzMerge(f *testing.F) {
	r := results.New("default", results.Env{Machine: "m"})
	r.Benchmarks = []results.Benchmark{
		{Name: "BenchmarkA", Metrics: []results.Metric{{Unit: results.UnitNsPerOp, Values: []float64{1, 2}}}},
		{Name: "BenchmarkB", Metrics: []results.Metric{{Unit: results.UnitNsPerOp, Values: []float64{3, 4}}}},
	}
	var seeds [][]byte
	for _, p := range split(r, 2, nil) {
		var buf bytes.Buffer
		if err := p.Encode(&buf); err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, buf.Bytes())
	}
	f.Add(seeds[0], seeds[1])
	f.Add(seeds[0], seeds[0])
	f.Add(bytes.Replace(seeds[0], []byte(`"1/2"`), []byte(`"1/2000000000"`), 1), seeds[1])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var parts []*results.Results
		for _, data := range [][]byte{a, b} {
			p, err := results.Read("shard.json", data)
			if err != nil {
				return
			}
			parts = append(parts, p)
		}
		m, err := Merge(parts, []string{"a.json", "b.json"}, MergeOptions{AllowPartial: true})
		if err != nil {
			return
		}
		if err := m.Results.Validate(); err != nil {
			t.Fatalf("merged results do not validate: %v", err)
		}
		if len(m.Results.Shards) > MaxCount || len(m.MissingShards) > MaxCount {
			t.Fatalf("%d shards, %d missing: more than %d", len(m.Results.Shards), len(m.MissingShards), MaxCount)
		}
	})
}
