package count

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/program"
)

// TestBlockSize: the largest power of two of iterations that fits the
// block's time and memory, at least one.
func TestBlockSize(t *testing.T) {
	c := Settings{Block: 2 * time.Millisecond, MaxBlockBytes: 1 << 20}
	tests := []struct {
		ns, bytes float64
		want      int
	}{
		{1000, 0, 1024},    // 2000 fit
		{100, 0, 16384},    // 20000 fit
		{3e6, 0, 1},        // one operation is more than a block
		{100, 1024, 1024},  // memory: 1 MiB / 1 KiB
		{1, 0, 1 << 20},    // 2e6 fit
		{1000, 1 << 30, 1}, // one operation allocates more than the bound
		{0, 0, 1 << 20},    // no cost measured: as if 1 ns
	}
	for _, tt := range tests {
		got := c.blockSize(tt.ns, tt.bytes)
		if got != tt.want {
			t.Errorf("blockSize(%v, %v) = %d, want %d", tt.ns, tt.bytes, got, tt.want)
		}
		if got&(got-1) != 0 || got < 1 {
			t.Errorf("blockSize(%v, %v) = %d, not a power of two", tt.ns, tt.bytes, got)
		}
		fit := float64(c.Block) / max(tt.ns, 1)
		if tt.bytes > 0 {
			fit = min(fit, float64(c.MaxBlockBytes)/tt.bytes)
		}
		if float64(got) > max(fit, 1) || float64(2*got) <= fit {
			t.Errorf("blockSize(%v, %v) = %d, want the largest power of two at most %.0f", tt.ns, tt.bytes, got, fit)
		}
	}
}

// TestForProcess: a costly benchmark is counted in the first
// CostlyProcesses processes only.
func TestForProcess(t *testing.T) {
	p := &plan{names: []string{"cheap", "costly"}, processes: map[string]int{"cheap": 5, "costly": 3}}
	for k, want := range [][]string{{"cheap", "costly"}, {"cheap", "costly"}, {"cheap", "costly"}, {"cheap"}, {"cheap"}, nil} {
		if got := p.forProcess(k).names; !slices.Equal(got, want) {
			t.Errorf("process %d counts %q, want %q", k, got, want)
		}
	}
}

// TestFirstError: the head's error is the pull request's and wins; a
// cancellation that another error caused does not hide it, on either side.
func TestFirstError(t *testing.T) {
	base := &program.SideError{Side: "base", Err: errors.New("base broke")}
	head := &program.SideError{Side: "head", Err: errors.New("head broke")}
	headStopped := &program.SideError{Side: "head", Err: fmt.Errorf("count: %w", context.Canceled)}
	tests := []struct {
		errs []error
		want error
	}{
		{[]error{nil, nil}, nil},
		{[]error{context.Canceled, base}, base},
		{[]error{base, head, context.Canceled}, head},
		{[]error{context.Canceled, nil}, context.Canceled},
		// The base failed and stopped the head: the base's failure.
		{[]error{headStopped, base}, base},
	}
	for _, tt := range tests {
		if got := firstError(tt.errs); got != tt.want {
			t.Errorf("firstError(%v) = %v, want %v", tt.errs, got, tt.want)
		}
	}
}

// TestSplit: a process's benchmarks split into parts of about equal
// native cost, every benchmark in exactly one part, in the plan's order.
func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		ns    map[string]float64 // per benchmark, ns/op; every block 1,000 iterations
		k     int
		parts [][]string
	}{
		{"one part", map[string]float64{"a": 1, "b": 2}, 1, [][]string{{"a", "b"}}},
		{"equal", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1}, 2, [][]string{{"a", "c"}, {"b", "d"}}},
		{"one dominates", map[string]float64{"a": 1, "b": 10, "c": 1, "d": 1}, 2, [][]string{{"b"}, {"a", "c", "d"}}},
		{"more parts than benchmarks", map[string]float64{"a": 1, "b": 1}, 3, [][]string{{"a"}, {"b"}}},
		{"a single benchmark", map[string]float64{"a": 1}, 2, [][]string{{"a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &plan{iterations: map[string]int{}, nsPerOp: tt.ns}
			for _, n := range []string{"a", "b", "c", "d"} {
				if _, ok := tt.ns[n]; ok {
					p.names = append(p.names, n)
					p.iterations[n] = 1000
				}
			}
			var got [][]string
			for _, q := range p.split(tt.k, 3) {
				got = append(got, q.names)
			}
			if !slices.EqualFunc(got, tt.parts, slices.Equal[[]string]) {
				t.Errorf("split(%d) = %q, want %q", tt.k, got, tt.parts)
			}
		})
	}
}

// TestOneJobs: 5 replicates on 2 CPUs are split into 10 processes of
// half a replicate each, longest first; a replicate's processes together
// count what the replicate counts; 4 replicates on 2 CPUs stay whole.
func TestOneJobs(t *testing.T) {
	p := &plan{names: []string{"a", "b", "c", "costly"}, iterations: map[string]int{"a": 100, "b": 100, "c": 100, "costly": 1},
		nsPerOp: map[string]float64{"a": 1e4, "b": 2e4, "c": 1e4, "costly": 2e6}, processes: map[string]int{"a": 5, "b": 5, "c": 5, "costly": 3}}
	for _, tt := range []struct{ processes, jobs, want int }{{5, 2, 10}, {4, 2, 4}, {3, 1, 3}, {3, 2, 6}} {
		r := &run{o: Options{Settings: Settings{Processes: tt.processes, Jobs: tt.jobs, Blocks: 3}}}
		jobs := r.oneJobs(Build{}, p)
		if len(jobs) != tt.want {
			t.Errorf("%d replicates, %d at a time: %d processes, want %d", tt.processes, tt.jobs, len(jobs), tt.want)
		}
		counted := map[int][]string{}
		for i, j := range jobs {
			counted[j.replicate] = append(counted[j.replicate], j.plan.names...)
			if i > 0 && j.plan.cost(3) > jobs[i-1].plan.cost(3) {
				t.Errorf("%d replicates: process %q (cost %.0f) starts after %q (cost %.0f): want the longest first",
					tt.processes, j.label, j.plan.cost(3), jobs[i-1].label, jobs[i-1].plan.cost(3))
			}
		}
		for k := range tt.processes {
			got, want := counted[k], p.forProcess(k).names
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%d replicates, %d at a time: replicate %d counts %q, want %q", tt.processes, tt.jobs, k, got, want)
			}
		}
	}
}

// TestHeartbeat: a count that has said nothing for its beat says how far
// it is, and stops saying so when stopped.
func TestHeartbeat(t *testing.T) {
	lines := lineChan(make(chan string, 100))
	r := &run{o: Options{Progress: lines}, start: time.Now(), beat: 20 * time.Millisecond, total: 10, toCount: 84, counted: 31, done: 3}
	stop := r.heartbeat()
	select {
	case l := <-lines:
		if !strings.HasPrefix(l, "wirebench: counting: 31 of 84 benchmark counts done, 3 of 10 processes finished, ") {
			t.Errorf("heartbeat %q", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no heartbeat in 5s")
	}
	stop()
	for len(lines) > 0 { // beats written before stop returned
		<-lines
	}
	time.Sleep(100 * time.Millisecond)
	if len(lines) > 0 {
		t.Errorf("a heartbeat after stop: %q", <-lines)
	}
}

// lineChan is a Progress writer that sends every write to the channel.
type lineChan chan string

func (c lineChan) Write(p []byte) (int, error) {
	c <- string(p)
	return len(p), nil
}

// TestUnder: the counting line says how many processes run at a time and
// why, so a run on 2 CPUs is not mistaken for one that used 64.
func TestUnder(t *testing.T) {
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{Settings: Settings{Jobs: 2, Valgrind: callgrind.Valgrind{Version: "3.19.0"}}}, "under callgrind (valgrind 3.19.0, cache simulation off), 2 at a time"},
		{Options{Settings: Settings{Jobs: 4, JobsWhy: "its cgroup's CPU quota (4 CPUs in /sys/fs/cgroup/cpu.max), not the 64 CPUs the host shows", Valgrind: callgrind.Valgrind{Version: "3.19.0"}}},
			"under callgrind (valgrind 3.19.0, cache simulation off), 4 at a time (its cgroup's CPU quota (4 CPUs in /sys/fs/cgroup/cpu.max), not the 64 CPUs the host shows)"},
	} {
		if got := (&run{o: tt.o}).under(); got != tt.want {
			t.Errorf("under() = %q\nwant %q", got, tt.want)
		}
	}
}

// TestCalibrationHeartbeat: the native calibration says what it is
// doing every beat (the workers' start, which lists every benchmark by
// running it, and each warm-up), and stops saying it when stopped.
func TestCalibrationHeartbeat(t *testing.T) {
	lines := lineChan(make(chan string, 100))
	r := &run{o: Options{Progress: lines}, start: time.Now(), beat: 20 * time.Millisecond}
	c := r.calibrating("base")
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(5 * time.Second):
			t.Fatal("no heartbeat in 5s")
			return ""
		}
	}
	if l := next(); !strings.HasPrefix(l, "wirebench: calibrating the base natively: starting the workers, which list their benchmarks by running each once; ") {
		t.Errorf("first beat %q", l)
	}
	c.set("warming up benchmark 3 of 400, example.com/m BenchmarkX")
	for l := next(); !strings.Contains(l, "warming up benchmark 3 of 400"); l = next() {
	}
	c.stop()
	for len(lines) > 0 {
		<-lines
	}
	time.Sleep(100 * time.Millisecond)
	if len(lines) > 0 {
		t.Errorf("a heartbeat after stop: %q", <-lines)
	}
}

// TestBlocksOf: a benchmark is counted in the run's blocks, in
// AllocBlocks when it allocates and that is more, and in one when one
// operation fills a block; the cost estimate counts the same.
func TestBlocksOf(t *testing.T) {
	p := &plan{names: []string{"flat", "allocs", "costly"}, iterations: map[string]int{"flat": 100, "allocs": 100, "costly": 1},
		nsPerOp: map[string]float64{"flat": 10, "allocs": 10, "costly": 1e7}, allocates: map[string]bool{"allocs": true, "costly": true}, allocBlocks: 3, warmed: true}
	for _, tt := range []struct {
		name         string
		blocks, want int
	}{
		{"flat", 1, 1}, {"allocs", 1, 3}, {"costly", 1, 1},
		{"flat", 2, 2}, {"allocs", 5, 5}, {"costly", 5, 1},
	} {
		if got := p.blocksOf(tt.name, tt.blocks); got != tt.want {
			t.Errorf("blocksOf(%s, %d) = %d, want %d", tt.name, tt.blocks, got, tt.want)
		}
	}
	// Warmed, one block: a quarter block before it; several: none.
	if got, want := p.benchCost("flat", 1), 10.0*(100+25); got != want {
		t.Errorf("benchCost(flat, 1) = %v, want %v", got, want)
	}
	if got, want := p.benchCost("allocs", 1), 10.0*3*100; got != want {
		t.Errorf("benchCost(allocs, 1) = %v, want %v", got, want)
	}
	if got, want := p.testRequests(1), 1+3+1; got != want {
		t.Errorf("testRequests(1) = %d, want %d", got, want)
	}
}
