package shard

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

func reference(t *testing.T) *results.Results {
	t.Helper()
	r, err := results.Load("testdata/default-run.json")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func names(r *results.Results) []string {
	var out []string
	for _, b := range r.Benchmarks {
		out = append(out, b.Name)
	}
	return out
}

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Spec
		ok   bool
	}{
		{"2/4", Spec{2, 4}, true}, {" 1/1 ", Spec{1, 1}, true},
		{"0/4", Spec{}, false}, {"5/4", Spec{}, false}, {"2", Spec{}, false}, {"a/b", Spec{}, false}, {"1/0", Spec{}, false},
		{"256/256", Spec{256, 256}, true}, {"1/257", Spec{}, false}, {"1/9223372036854775807", Spec{}, false},
	} {
		got, err := Parse(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// TestBalanced: the default suite, with costs from a real run, splits into
// 2, 3 and 4 shards each within 20% of equal cost; with counts only, the
// partition is still complete.
func TestBalanced(t *testing.T) {
	ref := reference(t)
	cost := ReferenceCost(ref, 15, 40*time.Millisecond, 30*time.Millisecond)
	all := names(ref)
	for _, n := range []int{2, 3, 4} {
		a := Assign(all, n, cost)
		load := make([]float64, n+1)
		total := 0.0
		for _, name := range all {
			load[a[name]] += cost[name]
			total += cost[name]
		}
		for s := 1; s <= n; s++ {
			dev := load[s]/(total/float64(n)) - 1
			t.Logf("%d shards: shard %d cost %.2fs (%+.1f%% of equal)", n, s, load[s], 100*dev)
			if math.Abs(dev) > 0.2 {
				t.Errorf("%d shards: shard %d is %+.1f%% off equal cost", n, s, 100*dev)
			}
		}
	}
}

func TestDeterministicAndOrderFree(t *testing.T) {
	ref := reference(t)
	cost := ReferenceCost(ref, 15, 40*time.Millisecond, 30*time.Millisecond)
	all := names(ref)
	rev := make([]string, len(all))
	for i, n := range all {
		rev[len(all)-1-i] = n
	}
	for _, c := range []Costs{cost, nil} {
		a, b := Assign(all, 4, c), Assign(rev, 4, c)
		for _, n := range all {
			if a[n] != b[n] || a[n] < 1 || a[n] > 4 {
				t.Fatalf("%s: shard %d vs %d with the names reversed", n, a[n], b[n])
			}
		}
	}
}

// TestStableUnderAdding: a new benchmark moves no other one, with and
// without a baseline.
func TestStableUnderAdding(t *testing.T) {
	ref := reference(t)
	cost := ReferenceCost(ref, 15, 40*time.Millisecond, 30*time.Millisecond)
	all := names(ref)
	grown := append(append([]string{}, all...), "BenchmarkSerialize/codec=cbor/dataset=small", "BenchmarkDeserialize/codec=cbor/dataset=small")
	for _, c := range []Costs{cost, nil} {
		before, after := Assign(all, 4, c), Assign(grown, 4, c)
		moved := 0
		for _, n := range all {
			if before[n] != after[n] {
				moved++
			}
		}
		if moved != 0 {
			t.Errorf("adding 2 benchmarks moved %d others (baseline costs: %v)", moved, c != nil)
		}
		// Removing one moves nothing either.
		shrunk := Assign(all[1:], 4, c)
		for _, n := range all[1:] {
			if shrunk[n] != before[n] {
				t.Errorf("removing %s moved %s", all[0], n)
			}
		}
	}
}

// split cuts a run into the shards of a partition, as the matrix jobs
// would have measured them.
func split(r *results.Results, n int, cost Costs) []*results.Results {
	a := Assign(names(r), n, cost)
	pid := PartitionID(a, n)
	parts := make([]*results.Results, n)
	for s := range parts {
		p := results.New(r.Suite, r.Env)
		p.Env.Machine = fmt.Sprintf("shard-machine-%d", s+1)
		p.Settings.Shard, p.Settings.Partition, p.Settings.SuiteSize = fmt.Sprintf("%d/%d", s+1, n), pid, len(r.Benchmarks)
		parts[s] = p
	}
	for _, b := range r.Benchmarks {
		p := parts[a[b.Name]-1]
		p.Benchmarks = append(p.Benchmarks, b)
	}
	return parts
}

func fileNames(n int) []string {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprintf("shard-%d.json", i+1))
	}
	return s
}

// TestMergeEqualsUnsharded: merging 4 shards gives the same comparison
// (every verdict, ratio and p-value) as the unsharded run of the same
// samples, when the shards ran on the baseline's machine.
func TestMergeEqualsUnsharded(t *testing.T) {
	ref := reference(t)
	cost := ReferenceCost(ref, 15, 40*time.Millisecond, 30*time.Millisecond)
	parts := split(ref, 4, cost)
	for _, p := range parts {
		p.Env.Machine = ref.Env.Machine
	}
	m, err := Merge(parts, fileNames(4), MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Results.Benchmarks) != len(ref.Benchmarks) || len(m.Results.Shards) != 4 {
		t.Fatalf("merged %d benchmarks in %d shards", len(m.Results.Benchmarks), len(m.Results.Shards))
	}
	base := ref // compare the run with itself, once merged and once not
	whole, err := compare.Compare(base, ref, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	merged, err := compare.Compare(base, m.Results, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]compare.Comparison{}
	for _, c := range merged.Comparisons {
		got[c.Name+" "+c.Unit] = c
	}
	if len(got) != len(whole.Comparisons) {
		t.Fatalf("%d comparisons merged, %d unsharded", len(got), len(whole.Comparisons))
	}
	for _, w := range whole.Comparisons {
		g := got[w.Name+" "+w.Unit]
		if g.Verdict != w.Verdict || !same(g.Ratio, w.Ratio) || !same(g.P, w.P) || !same(g.PAdjusted, w.PAdjusted) {
			t.Errorf("%s %s: merged %s %v p=%v/%v, unsharded %s %v p=%v/%v", w.Name, w.Unit, g.Verdict, g.Ratio, g.P, g.PAdjusted, w.Verdict, w.Ratio, w.P, w.PAdjusted)
		}
	}
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func TestMergeErrors(t *testing.T) {
	ref := reference(t)
	parts := split(ref, 4, nil)
	tests := []struct {
		name  string
		parts []*results.Results
		files []string
		opts  MergeOptions
		want  string
	}{
		{"missing", parts[:3], fileNames(3), MergeOptions{}, "shard 4 of 4 missing (got 3 files)"},
		{"duplicate", []*results.Results{parts[0], parts[1], parts[1], parts[2], parts[3]},
			[]string{"a.json", "b.json", "c.json", "d.json", "e.json"}, MergeOptions{}, "shard 2/4 appears twice (b.json and c.json)"},
		{"duplicate even if partial", []*results.Results{parts[0], parts[0]}, []string{"a.json", "b.json"}, MergeOptions{AllowPartial: true}, "appears twice"},
		{"not a shard", []*results.Results{ref}, []string{"whole.json"}, MergeOptions{}, "not a shard's results"},
		{"none", nil, nil, MergeOptions{}, "no results files"},
	}
	other := split(ref, 4, ReferenceCost(ref, 15, 40*time.Millisecond, 30*time.Millisecond))
	tests = append(tests, struct {
		name  string
		parts []*results.Results
		files []string
		opts  MergeOptions
		want  string
	}{"different partitions", []*results.Results{parts[0], other[1], parts[2], parts[3]}, fileNames(4), MergeOptions{}, "different partitions"})
	// A shard counted where the others were timed.
	counted := *parts[1]
	counted.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}
	tests = append(tests, struct {
		name  string
		parts []*results.Results
		files []string
		opts  MergeOptions
		want  string
	}{"timed and counted", []*results.Results{parts[0], &counted, parts[2], parts[3]}, fileNames(4), MergeOptions{}, "must measure with one metric"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.parts, tt.files, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	m, err := Merge(parts[:3], fileNames(3), MergeOptions{AllowPartial: true})
	if err != nil || len(m.MissingShards) != 1 || m.MissingShards[0] != 4 {
		t.Errorf("partial merge: %+v, %v", m, err)
	}
}
