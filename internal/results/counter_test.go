package results

import (
	"reflect"
	"testing"
)

// TestCounterLine: a counter survives the Go benchmark format's
// "wirebench-counter:" line, and Diff names what decides a count.
func TestCounterLine(t *testing.T) {
	tests := []struct {
		name string
		c    Counter
		line string
	}{
		{"plain", Counter{Tool: "callgrind", Version: "3.19.0", Method: CountBlock, Processes: 5, Blocks: 3},
			"callgrind 3.19.0 method=block processes=5 blocks=3"},
		{"dirty heap", Counter{Tool: "callgrind", Version: "3.19.0", Method: CountTimer, Processes: 3, Blocks: 3, Heap: "dirty"},
			"callgrind 3.19.0 method=timer processes=3 blocks=3 heap=dirty"},
		{"cache", Counter{Tool: "callgrind", Version: "3.22.0", Method: CountBlock, Processes: 5, Blocks: 3, CacheSim: true,
			Geometry: "I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64", Heap: "dirty"},
			"callgrind 3.22.0 method=block processes=5 blocks=3 cache=I1_32768,8,64_D1_32768,8,64_LL_8388608,16,64 heap=dirty"},
		{"all threads", Counter{Tool: "callgrind", Version: "3.19.0", Method: CountBlock, Processes: 5, Blocks: 3, Heap: "dirty", Threads: "all"},
			"callgrind 3.19.0 method=block processes=5 blocks=3 heap=dirty threads=all"},
		{"cpu", Counter{Tool: "callgrind", Version: "3.19.0", Method: CountBlock, Processes: 5, Blocks: 3, Heap: "dirty", Threads: "all",
			CPU: "sse2 avx2 bmi2", Lacks: "avx512f avx512bw"},
			"callgrind 3.19.0 method=block processes=5 blocks=3 heap=dirty threads=all cpu=sse2,avx2,bmi2 lacks=avx512f,avx512bw"},
		{"patches", Counter{Tool: "callgrind", Version: "3.19.0", Method: CountTimer, Processes: 5, Blocks: 3, Random: "seeded",
			Patches: "patches for go1.27: testing, runtime seed; not applied: sched (runtime/proc.go is not go1.27's text)"},
			"callgrind 3.19.0 method=timer processes=5 blocks=3 random=seeded patches=patches_for_go1.27:_testing,_runtime_seed;_not_applied:_sched_(runtime/proc.go_is_not_go1.27's_text)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.String(); got != tt.line {
				t.Errorf("String() = %q, want %q", got, tt.line)
			}
			back, err := ParseCounter(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*back, tt.c) {
				t.Errorf("ParseCounter(%q) = %+v, want %+v", tt.line, *back, tt.c)
			}
			if d := tt.c.Diff(back); len(d) != 0 {
				t.Errorf("a counter differs from itself: %v", d)
			}
		})
	}
	old := tests[0].c
	now := tests[1].c
	d := old.Diff(&now)
	want := []Difference{{"counting method", CountBlock, CountTimer}, {"heap", "not recorded", "dirty"}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Diff = %v, want %v", d, want)
	}
	cpu := tests[4].c
	if d := tests[3].c.Diff(&cpu); !reflect.DeepEqual(d, []Difference{{"counted CPU's features", "not recorded", "sse2 avx2 bmi2"}}) {
		t.Errorf("Diff = %v, want the CPU counted on (and not what it lacks)", d)
	}
	threads := tests[3].c
	d = now.Diff(&threads)
	want = []Difference{{"counting method", CountTimer, CountBlock}, {"threads", "not recorded", "all"}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Diff = %v, want %v", d, want)
	}
}
