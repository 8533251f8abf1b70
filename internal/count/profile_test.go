package count

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
)

// TestMedianBlock: the block whose count is the median is the
// process's, so that its profile adds up to the process's count; of an
// even number, the lower middle one.
func TestMedianBlock(t *testing.T) {
	tests := []struct {
		xs   []float64
		want int
	}{
		{[]float64{5}, 0},
		{[]float64{7, 5, 6}, 2},
		{[]float64{5, 7, 6}, 2},
		{[]float64{6, 6, 5}, 0},
		{[]float64{9, 1, 4, 8}, 2},
	}
	for _, tt := range tests {
		if got := medianBlock(tt.xs); got != tt.want {
			t.Errorf("medianBlock(%v) = %d, want %d", tt.xs, got, tt.want)
		}
	}
}

// TestDifferenceProfile: of blocks of n and 2n operations, each function
// costs its difference over n: the work of every operation stays, the
// benchmark's setup (the same in both) comes out at 0, est-cycles too.
func TestDifferenceProfile(t *testing.T) {
	const n = 100
	setup := callgrind.Counts{Ir: 5000, Dr: 100, CacheSim: true}
	op := func(k uint64) callgrind.Counts {
		return callgrind.Counts{Ir: 30 * k, Dr: 10 * k, Dw: 5 * k, CacheSim: true}
	}
	p1 := callgrind.Profile{"main.setup": setup, "main.encode": op(n)}
	p2 := callgrind.Profile{"main.setup": setup, "main.encode": op(2 * n), "runtime.growslice": {Ir: 700, CacheSim: true}}
	got := differenceProfile(p1, p2, n)
	want := map[string]results.Cost{
		"main.setup":        {},
		"main.encode":       {Instructions: 30, EstCycles: 45},
		"runtime.growslice": {Instructions: 7, EstCycles: 7},
	}
	if len(got) != len(want) {
		t.Errorf("functions %v, want %v", got, want)
	}
	for fn, w := range want {
		if got[fn] != w {
			t.Errorf("%s: %+v, want %+v", fn, got[fn], w)
		}
	}
	if p := results.NewProfile(got); len(p.Functions) != 2 || p.Functions[0].Name != "main.encode" {
		t.Errorf("the profile keeps %+v, want main.encode first and no setup", p.Functions)
	}
}

// TestProfileAcrossProcesses: per function the median over the
// processes that counted the benchmark, a process it did not run in
// counting 0 (a function of one process in five is not the benchmark's);
// a process without a profile is left out, and without any there is
// none.
func TestProfileAcrossProcesses(t *testing.T) {
	const key = "BenchmarkX"
	proc := func(prof map[string]results.Cost) processCounts {
		pc := newProcessCounts()
		pc.values[key] = map[string]float64{results.UnitInstructionsPerOp: 1}
		if prof != nil {
			pc.profiles[key] = prof
		}
		return pc
	}
	procs := []processCounts{
		proc(map[string]results.Cost{"f": {Instructions: 100}, "g": {Instructions: 10}, "once": {Instructions: 50}}),
		proc(map[string]results.Cost{"f": {Instructions: 102}, "g": {Instructions: 12}}),
		proc(map[string]results.Cost{"f": {Instructions: 101}, "g": {Instructions: 11}}),
		proc(nil),
		newProcessCounts(), // a process that did not count it
	}
	p := profile(key, procs)
	var got []string
	for _, f := range p.Functions {
		got = append(got, fmt.Sprintf("%s=%g", f.Name, f.Instructions))
	}
	if strings.Join(got, " ") != "f=101 g=11" || p.Omitted != 0 {
		t.Errorf("profile %v (%d left out), want f=101 g=11", got, p.Omitted)
	}
	if profile(key, []processCounts{proc(nil)}) != nil {
		t.Error("a profile from no process's")
	}
}

// TestUnnamed: a profile most of whose work callgrind could name only by
// address is a binary without its symbol table.
func TestUnnamed(t *testing.T) {
	tests := []struct {
		fns  map[string]results.Cost
		want bool
	}{
		{map[string]results.Cost{"main.f": {Instructions: 90}, "0x401000": {Instructions: 10}}, false},
		{map[string]results.Cost{"main.f": {Instructions: 10}, "0x401000": {Instructions: 60}, "0x402000": {Instructions: 30}}, true},
	}
	for _, tt := range tests {
		if got := unnamed(results.NewProfile(tt.fns)); got != tt.want {
			t.Errorf("unnamed(%v) = %v, want %v", tt.fns, got, tt.want)
		}
	}
	if unnamed(nil) {
		t.Error("no profile is unnamed")
	}
}
