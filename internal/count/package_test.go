package count

import (
	"slices"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// TestByPackage: a plan's benchmarks go to one plan per package, in the
// order of each package's first benchmark, each keeping its names'
// order; the suite's benchmarks (no package) are one plan.
func TestByPackage(t *testing.T) {
	a, b := "example.com/m/a", "example.com/m/b"
	tests := []struct {
		names []string
		want  [][]string
	}{
		{[]string{results.Key(b, "X"), results.Key(a, "Y"), results.Key(b, "Z")},
			[][]string{{results.Key(b, "X"), results.Key(b, "Z")}, {results.Key(a, "Y")}}},
		{[]string{"protobuf/small", "msgpack/small"}, [][]string{{"protobuf/small", "msgpack/small"}}},
		{nil, [][]string{}},
	}
	for _, tt := range tests {
		p := &plan{names: tt.names, iterations: map[string]int{}, nsPerOp: map[string]float64{}, processes: map[string]int{}}
		got := [][]string{}
		for _, q := range p.byPackage() {
			got = append(got, q.names)
		}
		if !slices.EqualFunc(got, tt.want, slices.Equal[[]string]) {
			t.Errorf("byPackage(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

// TestReplicates: the jobs of one side are joined by replicate, the
// packages' processes of replicate k into its one sample, the other
// side's left out.
func TestReplicates(t *testing.T) {
	counts := func(name string, v float64) processCounts {
		pc := newProcessCounts()
		pc.values[name] = map[string]float64{results.UnitInstructionsPerOp: v}
		return pc
	}
	jobs := []*job{
		{side: "base", replicate: 1, out: counts("a X", 11)},
		{side: "head", replicate: 1, out: counts("a X", 99)},
		{side: "base", replicate: 0, out: counts("a X", 10)},
		{side: "base", replicate: 0, out: counts("b Y", 20)},
		{side: "base", replicate: 1, out: counts("b Y", 21)},
	}
	got := replicates(jobs, "base")
	if len(got) != 2 {
		t.Fatalf("%d replicates, want 2", len(got))
	}
	for k, want := range []map[string]float64{{"a X": 10, "b Y": 20}, {"a X": 11, "b Y": 21}} {
		for name, v := range want {
			if g := got[k].values[name][results.UnitInstructionsPerOp]; g != v {
				t.Errorf("replicate %d, %s: %v, want %v", k, name, g, v)
			}
		}
		if len(got[k].values) != len(want) {
			t.Errorf("replicate %d has %d benchmarks, want %d", k, len(got[k].values), len(want))
		}
	}
}
