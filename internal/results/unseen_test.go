package results

import (
	"reflect"
	"testing"
)

// TestUnseen: a counted benchmark is unseen when its instructions/op
// fall below MinCountedPerNs of its native ns/op; one without a native
// time or without a count says nothing.
func TestUnseen(t *testing.T) {
	counted := func(name string, instructions []float64, nativeNs float64) Benchmark {
		b := Benchmark{Pkg: "example.com/m", Name: name, NativeNsPerOp: nativeNs}
		for _, v := range instructions {
			b.Add(UnitInstructionsPerOp, v)
		}
		return b
	}
	timed := Benchmark{Name: "BenchmarkTimed", NativeNsPerOp: 1e6}
	timed.Add(UnitNsPerOp, 1e6)
	r := &Results{Benchmarks: []Benchmark{
		counted("BenchmarkSleep", []float64{5389, 5393, 5390}, 1.1e6),     // 0.005 an ns
		counted("BenchmarkEncode", []float64{2360, 2360, 2360}, 207),      // 11 an ns
		counted("BenchmarkEdge", []float64{999, 1000, 1001}, 1000),        // exactly 1: seen
		counted("BenchmarkJustUnder", []float64{998, 999, 1000}, 1000),    // 0.999
		counted("BenchmarkNoNative", []float64{10, 10, 10}, 0),            // not calibrated
		counted("BenchmarkAWait", []float64{3000, 3100, 3200, 3300}, 1e5), // median 3150
		timed,
	}}
	got := r.Unseen()
	want := []Unseen{
		{Name: "example.com/m BenchmarkAWait", InstructionsPerOp: 3150, NativeNsPerOp: 1e5},
		{Name: "example.com/m BenchmarkJustUnder", InstructionsPerOp: 999, NativeNsPerOp: 1000},
		{Name: "example.com/m BenchmarkSleep", InstructionsPerOp: 5390, NativeNsPerOp: 1.1e6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Unseen() =\n%+v\nwant\n%+v", got, want)
	}
	if p := want[2].PerNs(); p < 0.0048 || p > 0.0050 {
		t.Errorf("PerNs = %v, want 5390/1.1e6", p)
	}
}
