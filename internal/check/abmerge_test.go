package check

import (
	"fmt"
	"math"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
)

// TestMergeABFamily: the merge corrects for multiplicity over the union
// of the shards, as the unsharded comparison does, not shard by shard.
// One benchmark of ten moved 3% with a raw p-value of about 0.0015 over
// three processes: within its shard of five, Holm's adjustment (5p)
// leaves it below alpha 0.01, a regression; over all ten (10p) it is
// not, and the merge, like the unsharded run, does not call it one.
func TestMergeABFamily(t *testing.T) {
	var keys []string
	for i := range 10 {
		keys = append(keys, results.Key("example.com/m", fmt.Sprintf("BenchmarkB%d", i)))
	}
	part := shard.NewABPartition(keys, 2)
	moved := keys[0]
	counter := results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 3, Blocks: 3}
	side := func(head bool, keep func(string) bool) *results.Results {
		r := results.New("go test", results.Env{GoVersion: "go1.26", Machine: "m"})
		c := counter
		r.Settings.Counter = &c
		for i, k := range keys {
			if !keep(k) {
				continue
			}
			pkg, name := results.SplitKey(k)
			b := results.Benchmark{Pkg: pkg, Name: name, Iterations: []int64{64, 64, 64}, Seeds: []uint64{1, 2, 3}}
			for p, lr := range []float64{0.0001, -0.0001, 0.00005} {
				v := 1e4 * float64(i+1)
				if head && k == moved {
					lr = []float64{0.030, 0.032, 0.028}[p]
				}
				if head {
					v *= math.Exp(lr)
				}
				b.Add(results.UnitInstructionsPerOp, v)
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	opts := compare.Defaults()
	opts.CountedUnit, opts.Threshold, opts.Normalize = results.UnitInstructionsPerOp, 0.01, compare.NormalizeNever
	verdict := func(r *compare.Result) compare.Verdict {
		for _, c := range r.Comparisons {
			if c.Name == moved && c.Unit == results.UnitInstructionsPerOp {
				return c.Verdict
			}
		}
		t.Fatalf("%s not compared", moved)
		return ""
	}
	all := func(string) bool { return true }
	whole, err := compare.Compare(side(false, all), side(true, all), opts)
	if err != nil {
		t.Fatal(err)
	}
	var parts []*shard.ABPart
	var files []string
	for s := 1; s <= 2; s++ {
		mine := func(k string) bool { return part.Shard(k) == s }
		p := &shard.ABPart{Shard: fmt.Sprintf("%d/2", s), Partition: shard.PartitionID(shard.ABAssign(keys, keys, 2), 2),
			ListedBase: keys, ListedHead: keys, Base: side(false, mine), Head: side(true, mine)}
		if mine(moved) {
			alone, err := compare.Compare(p.Base, p.Head, opts)
			if err != nil {
				t.Fatal(err)
			}
			if v := verdict(alone); v != compare.Regression || len(p.Base.Benchmarks) != 5 {
				t.Fatalf("within its shard of %d: %s, want a regression (the case this test is about)", len(p.Base.Benchmarks), v)
			}
		}
		data, err := shard.WriteAB(p)
		if err != nil {
			t.Fatal(err)
		}
		if p, err = shard.ReadAB("f", data); err != nil {
			t.Fatal(err)
		}
		parts, files = append(parts, p), append(files, fmt.Sprintf("shard-%d.json", s))
	}
	j, err := shard.JoinAB(parts, files, shard.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	merged, err := MergeAB(j, opts, "test")
	if err != nil {
		t.Fatal(err)
	}
	if w, m := verdict(whole), verdict(merged.Result); w == compare.Regression || m != w {
		t.Errorf("unsharded %s, merged %s: want the same, not a regression", w, m)
	}
	for _, c := range whole.Comparisons {
		if m := find(merged.Result, c.Name, c.Unit); m.Verdict != c.Verdict || m.PAdjusted != c.PAdjusted && !(math.IsNaN(m.PAdjusted) && math.IsNaN(c.PAdjusted)) {
			t.Errorf("%s %s: merged %s p(adj) %v, unsharded %s %v", c.Name, c.Unit, m.Verdict, m.PAdjusted, c.Verdict, c.PAdjusted)
		}
	}
}

func find(r *compare.Result, name, unit string) compare.Comparison {
	c, _ := lookup(r, name, unit)
	return c
}
