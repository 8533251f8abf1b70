package shard

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// module lists the benchmarks of a module of pkgs packages with the given
// number of benchmarks each, by key.
func module(sizes ...int) []string {
	var keys []string
	for p, n := range sizes {
		for b := range n {
			keys = append(keys, results.Key(fmt.Sprintf("example.com/m/p%d", p), fmt.Sprintf("BenchmarkX%d", b)))
		}
	}
	return keys
}

// TestABPartition: the partition of an A/B comparison gives every
// benchmark one shard, the same whatever the order of the list, and by
// the cost model (a package's start plus its benchmarks) no shard holds
// more than 30% of the whole's cost over 4 shards for a module of many
// packages; a package split over shards is started by each of them, so
// a module of one package (the embedded suite's case) or of fewer
// packages than shards cannot do better than a start plus a quarter of
// the benchmarks each.
func TestABPartition(t *testing.T) {
	for _, tt := range []struct {
		name  string
		sizes []int
		n     int
		most  float64 // the largest shard's share of the cost
	}{
		{"8 packages of 16", []int{16, 16, 16, 16, 16, 16, 16, 16}, 4, 0.26},
		{"uneven packages", []int{40, 3, 3, 12, 7, 25, 1, 9, 14}, 4, 0.30},
		{"one package", []int{84}, 4, 0.32},
		{"fewer packages than shards", []int{30, 30}, 4, 0.31},
		{"two shards", []int{5, 9, 2}, 2, 0.60},
	} {
		t.Run(tt.name, func(t *testing.T) {
			keys := module(tt.sizes...)
			p := NewABPartition(keys, tt.n)
			rev := slices.Clone(keys)
			slices.Reverse(rev)
			q := NewABPartition(rev, tt.n)
			whole := 0.0
			for _, s := range tt.sizes {
				whole += PackageCost + float64(s) // the unsharded run's cost
			}
			per := make([]int, tt.n+1)
			for _, k := range keys {
				s := p.Shard(k)
				if s < 1 || s > tt.n || q.Shard(k) != s {
					t.Fatalf("%s: shard %d, %d with the list reversed", k, s, q.Shard(k))
				}
				per[s]++
			}
			for s, c := range p.Costs() {
				t.Logf("shard %d: %d benchmarks, cost %.0f (%.0f%% of the whole's %.0f)", s+1, per[s+1], c, 100*c/whole, whole)
				if c/whole > tt.most+1e-9 {
					t.Errorf("shard %d costs %.0f%% of the whole, want at most %.0f%%", s+1, 100*c/whole, 100*tt.most)
				}
			}
		})
	}
}

// TestABAssignHeadOnly: a benchmark only the head lists goes to a shard
// that counts its package; one of a package the base lacks is placed by
// its name; neither moves a benchmark of the base.
func TestABAssignHeadOnly(t *testing.T) {
	base := module(6, 6, 6, 6)
	added := results.Key("example.com/m/p2", "BenchmarkAdded")
	other := results.Key("example.com/m/new", "BenchmarkAdded")
	head := append(slices.Clone(base[1:]), added, other)
	a, b := ABAssign(base, base, 4), ABAssign(base, head, 4)
	for _, k := range base {
		if a[k] != b[k] {
			t.Errorf("%s moved from shard %d to %d", k, a[k], b[k])
		}
	}
	ofP2 := map[int]bool{}
	for _, k := range base {
		if strings.HasPrefix(k, "example.com/m/p2 ") {
			ofP2[a[k]] = true
		}
	}
	if !ofP2[b[added]] || b[other] != rendezvous(other, 4) {
		t.Errorf("added to p2 went to shard %d (p2's: %v); in a new package to %d", b[added], ofP2, b[other])
	}
}

// abParts makes the n shard files of a counted comparison of keys, as
// the shards would have written them, each of its part.
func abParts(t *testing.T, keys []string, n int) ([]*ABPart, []string) {
	t.Helper()
	a := ABAssign(keys, keys, n)
	pid := PartitionID(a, n)
	counter := &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 3, Blocks: 3}
	var parts []*ABPart
	var files []string
	for s := 1; s <= n; s++ {
		side := func() *results.Results {
			r := results.New("go test", results.Env{GoVersion: "go1.26"})
			c := *counter
			r.Settings.Counter = &c
			for _, k := range keys {
				if a[k] != s {
					continue
				}
				pkg, name := results.SplitKey(k)
				b := results.Benchmark{Pkg: pkg, Name: name, Iterations: []int64{64, 64, 64}, Seeds: []uint64{1, 2, 3}}
				for _, v := range []float64{1000, 1001, 1000} {
					b.Add(results.UnitInstructionsPerOp, v)
				}
				r.Benchmarks = append(r.Benchmarks, b)
			}
			return r
		}
		p := &ABPart{Shard: fmt.Sprintf("%d/%d", s, n), Partition: pid, ListedBase: keys, ListedHead: keys, Base: side(), Head: side(), BaseCommit: "b", HeadCommit: "h"}
		data, err := WriteAB(p)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("shard-%d.json", s)
		if p, err = ReadAB(name, data); err != nil {
			t.Fatal(err)
		}
		parts, files = append(parts, p), append(files, name)
	}
	return parts, files
}

// TestJoinAB: the shards of one comparison join into every benchmark
// once; what does not fit is refused, with which file and what to do.
func TestJoinAB(t *testing.T) {
	keys := module(5, 7, 3, 9)
	parts, files := abParts(t, keys, 4)
	j, err := JoinAB(parts, files, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Base.Benchmarks) != len(keys) || len(j.Head.Benchmarks) != len(keys) || len(j.Shards) != 4 {
		t.Fatalf("joined %d/%d benchmarks in %d shards, want %d in 4", len(j.Base.Benchmarks), len(j.Head.Benchmarks), len(j.Shards), len(keys))
	}
	edit := func(i int, f func(p *ABPart)) []*ABPart {
		out := slices.Clone(parts)
		c := *parts[i]
		c.Base, c.Head = parts[i].Base.Clone(), parts[i].Head.Clone()
		f(&c)
		out[i] = &c
		return out
	}
	for _, tt := range []struct {
		name  string
		parts []*ABPart
		files []string
		opts  MergeOptions
		want  string
	}{
		{"missing", parts[:3], files[:3], MergeOptions{}, "shard 4 of 4 missing (got 3 files)"},
		{"twice", append(slices.Clone(parts), parts[1]), append(slices.Clone(files), "again.json"), MergeOptions{AllowPartial: true}, "shard 2/4 appears twice (shard-2.json and again.json)"},
		{"other head", edit(2, func(p *ABPart) { p.HeadCommit = "forged" }), files, MergeOptions{}, "every shard must build the same base and head"},
		{"other Go", edit(2, func(p *ABPart) { p.Head.Env.GoVersion = "go1.25" }), files, MergeOptions{}, "with one Go"},
		{"other lists", edit(1, func(p *ABPart) { p.ListedHead = p.ListedHead[1:] }), files, MergeOptions{}, "listed different benchmarks"},
		{"other partition", edit(3, func(p *ABPart) { p.Partition = "0123456789abcdef" }), files, MergeOptions{}, "records partition 0123456789abcdef"},
		{"benchmark of another shard", edit(0, func(p *ABPart) { p.Head.Benchmarks = append(p.Head.Benchmarks, parts[1].Head.Benchmarks[0]) }), files, MergeOptions{}, "which the partition gives shard 2/4"},
		{"benchmark not listed", edit(0, func(p *ABPart) { p.Base.Benchmarks[0].Name = "BenchmarkForged" }), files, MergeOptions{}, "which its build did not list"},
		{"left out", edit(0, func(p *ABPart) { p.Base.Benchmarks, p.Head.Benchmarks = p.Base.Benchmarks[1:], p.Head.Benchmarks[1:] }), files, MergeOptions{}, "neither counted nor reported"},
		{"counted otherwise", edit(1, func(p *ABPart) { p.Base.Settings.Counter.CacheSim = true }), files, MergeOptions{}, "counted differently (cache simulation"},
		{"none", nil, nil, MergeOptions{}, "no A/B shard files"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := JoinAB(tt.parts, tt.files, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if j, err := JoinAB(parts[:3], files[:3], MergeOptions{AllowPartial: true}); err != nil || !slices.Equal(j.MissingShards, []int{4}) {
		t.Errorf("partial: %v, %v", j, err)
	}
}

// TestReadAB: a shard's file is read strictly; a corrupt, foreign or
// timed one is refused with what to pass instead.
func TestReadAB(t *testing.T) {
	parts, _ := abParts(t, module(3), 1)
	good, _ := WriteAB(parts[0])
	timed := strings.Replace(string(good), `"counter"`, `"counter_was"`, 1)
	for _, tt := range []struct {
		name, data, want string
	}{
		{"truncated", string(good[:len(good)/2]), "not a same-runner A/B shard's file"},
		{"unknown field", strings.Replace(string(good), `"shard"`, `"verdict": "pass", "shard"`, 1), "unknown field \"verdict\""},
		{"other version", strings.Replace(string(good), `"version": 1`, `"version": 9`, 1), "version 9"},
		{"bad shard", strings.Replace(string(good), `"shard": "1/1"`, `"shard": "5/4"`, 1), "want I/N"},
		{"timed", timed, "counter_was"},
		{"no head", strings.Replace(string(good), `"head": {`, `"head_was": {`, 1), "head_was"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAB("f.json", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if !IsABPart(good) || IsABPart([]byte(`{"format":"wirebench-results"}`)) {
		t.Error("IsABPart")
	}
}
