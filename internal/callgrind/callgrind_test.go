package callgrind

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadDump reads the totals of real dumps (testdata: one block of 64
// raw/small encodes counted by wirebench's worker under callgrind 3.19,
// with and without the cache simulation) and refuses what is not one.
func TestReadDump(t *testing.T) {
	tests := []struct {
		file string
		want Counts
	}{
		{"instructions.dump", Counts{Ir: 20345}},
		{"cachesim.dump", Counts{Ir: 20348, Dr: 5043, Dw: 3220, I1mr: 109, D1mr: 45, D1mw: 76, ILmr: 109, DLmr: 45, DLmw: 76, CacheSim: true}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := ReadDump(f)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ReadDump = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReadDumpErrors(t *testing.T) {
	tests := []struct{ name, dump, want string }{
		{"empty", "", "no events line"},
		{"no totals", "events: Ir\nsummary: 12\n", "no totals line"},
		{"no instructions", "events: Dr Dw\ntotals: 1 2\n", "no Ir"},
		{"too many totals", "events: Ir\ntotals: 1 2\n", "2 totals for 1 events"},
		{"not a number", "events: Ir\ntotals: -5\n", "event Ir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadDump(strings.NewReader(tt.dump))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadDump(%q) = %v, want an error with %q", tt.dump, err, tt.want)
			}
		})
	}
	// Trailing events may be left out of the totals, as zeros.
	c, err := ReadDump(strings.NewReader("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 100 10\n"))
	if err != nil || c.Ir != 100 || c.Dr != 10 || c.Dw != 0 || !c.CacheSim {
		t.Errorf("short totals: %+v, %v", c, err)
	}
}

// TestEstCycles: L1 hits + 5 × LL hits + 35 × RAM hits, as iai-callgrind
// computes them.
func TestEstCycles(t *testing.T) {
	c := Counts{Ir: 1000, Dr: 300, Dw: 200, I1mr: 10, D1mr: 20, D1mw: 5, ILmr: 2, DLmr: 3, DLmw: 1, CacheSim: true}
	// RAM 6; L1 misses 35, so LL hits 29; L1 hits 1500 - 35 = 1465.
	if got, want := c.EstCycles(), 1465.0+5*29+35*6; got != want {
		t.Errorf("EstCycles = %v, want %v", got, want)
	}
	if got := (Counts{Ir: 1000}).EstCycles(); got != 0 {
		t.Errorf("EstCycles without the cache simulation = %v, want 0", got)
	}
}

func TestEnv(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"A=1"}, []string{"A=1", "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1,memprofilerate=0,cpu.rdtscp=off"}},
		{[]string{"GOMAXPROCS=4", "GODEBUG=x=1", "GODEBUG=madvdontneed=0"}, []string{"GOMAXPROCS=1", "GODEBUG=madvdontneed=0,asyncpreemptoff=1,memprofilerate=0,cpu.rdtscp=off"}},
	}
	for _, tt := range tests {
		if got := Env(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Env(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestArgs(t *testing.T) {
	got := Options{CacheSim: true}.Args("/d/out", "/bin/w", []string{"worker"})
	want := []string{"--tool=callgrind", "-q", "--instr-atstart=no", "--separate-threads=yes", "--callgrind-out-file=/d/out", "--cache-sim=yes",
		"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64", "/bin/w", "worker"}
	if !slices.Equal(got, want) {
		t.Errorf("Args = %q, want %q", got, want)
	}
	if got := (Options{}).Args("/d/out", "/bin/w", nil); slices.Contains(got, "--cache-sim=yes") {
		t.Errorf("Args without CacheSim = %q", got)
	}
}

func TestRequestAssembly(t *testing.T) {
	for _, arch := range []string{"amd64", "arm64"} {
		src := RequestAssembly(arch, "myRequest")
		if strings.Count(src, "·myRequest(SB)") != 1 || strings.Contains(src, "clientRequest(SB)") {
			t.Errorf("%s: the function is not renamed once:\n%s", arch, src)
		}
		if arch == "amd64" && (strings.Count(src, "·myRequestCPUID(SB)") != 1 || strings.Count(src, "·myRequestXGETBV0(SB)") != 1 ||
			strings.Contains(src, "·cpuid(SB)") || strings.Contains(src, "·xgetbv0(SB)")) {
			t.Errorf("%s: the CPUID functions are not renamed once:\n%s", arch, src)
		}
	}
	if RequestAssembly("riscv64", "f") != "" {
		t.Error("riscv64 has assembly")
	}
}

// TestCountsUnderValgrind runs this test binary under callgrind, where
// TestCountingHelper counts blocks of known work, and checks what the
// dumps say: the same block twice the same count, twice the iterations
// twice the count, nothing counted outside the blocks, and all of a
// block's work counted, and no other block's, whatever thread ran it:
// work handed to a goroutine locked to a thread of its own, and a loop
// that sleeps in a system call every iteration. Every block's profile
// adds up to its count, most of it the loop's function.
func TestCountsUnderValgrind(t *testing.T) {
	vg := findValgrind(t)
	// count runs the helper of a kind and returns its three blocks'
	// counts and their costliest function's self counts.
	count := func(t *testing.T, kind string) (ir, top [3]float64, wall [3]time.Duration) {
		out := filepath.Join(t.TempDir(), "callgrind.out")
		cmd := exec.Command(vg.Path, Options{}.Args(out, os.Args[0], []string{"-test.run=^TestCountingHelper$", "-test.v"})...)
		cmd.Env = Env(append(os.Environ(), "WIREBENCH_COUNTING_HELPER="+kind))
		b, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(b), "counted 3 blocks") {
			t.Fatalf("the helper under valgrind: %v\n%s", err, b)
		}
		walls := regexp.MustCompile(`(?m)^block [123] wall (\d+) ns$`).FindAllSubmatch(b, -1)
		if len(walls) != len(wall) {
			t.Fatalf("the helper said the wall times of %d blocks, want %d\n%s", len(walls), len(wall), b)
		}
		for i, m := range walls {
			ns, _ := strconv.ParseInt(string(m[1]), 10, 64) // \d+ of a printed int64
			wall[i] = time.Duration(ns)
		}
		d := Dumps{OutFile: out, Profile: true}
		for i := range ir {
			c, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			ir[i] = float64(c.Ir)
			// Where the block's work went, over every thread that ran
			// it, adds up to its count, and most of it is one function's,
			// the loop's. (Its name is an address: go test runs a test
			// binary without its symbol table.)
			if c.ProfileErr != nil || c.Profile.Total().Ir != c.Ir {
				t.Errorf("%s block %d: its profile adds up to %d instructions of %d (%v)", kind, i+1, c.Profile.Total().Ir, c.Ir, c.ProfileErr)
			}
			for _, f := range c.Profile {
				top[i] = max(top[i], float64(f.Ir))
			}
			if top[i] < 0.5*ir[i] {
				t.Errorf("%s block %d: the costliest function counted %.0f of %d instructions", kind, i+1, top[i], c.Ir)
			}
		}
		if _, err := d.Next(); !errors.Is(err, ErrNoDump) {
			t.Errorf("a fourth dump: %v, want ErrNoDump", err)
		}
		t.Logf("%s: blocks of 1, 1 and 2 times the work counted %.0f, %.0f and %.0f instructions (%.0f, %.0f and %.0f in the costliest function) in %v, %v and %v",
			kind, ir[0], ir[1], ir[2], top[0], top[1], top[2], wall[0], wall[1], wall[2])
		return ir, top, wall
	}
	// The loop body is a handful of instructions an iteration, counted
	// to the instruction: the loop's function counts the same in both
	// blocks of its work and twice that, but for its call, in the third.
	// Around it the requests cost a few dozen instructions, and the
	// runtime what the clock makes it do on the block's thread (the
	// monitor thread itself is left out): each time the goroutine's slice
	// has run 10 ms of wall time the monitor preempts it (the slice may
	// have begun before the block), about 700-1,700 instructions a tick
	// on average beside four `yes`, up to 9,202 in one block of 14.5 ms
	// beside three, and 41,863 in a block of 1.44M instructions in a
	// loaded CI run. That part is bounded by the wall time the block
	// took, not exact: at most clockWork instructions for each 10 ms of
	// it, and one more tick.
	const clockWork = 10_000
	loop, fn, wall := count(t, "loop")
	if fn[0] != fn[1] || math.Abs(fn[2]-2*fn[0]) > 50 || fn[0] < 4*helperN || fn[0] > 20*helperN {
		t.Errorf("the loop's function counted %v, %v and %v instructions in blocks of %d, %d and %d iterations",
			fn[0], fn[1], fn[2], helperN, helperN, 2*helperN)
	}
	for i, total := range loop {
		ticks := 1 + float64(wall[i]/(10*time.Millisecond))
		if outside := total - fn[i]; outside < 0 || outside > 200+clockWork*ticks {
			t.Errorf("block %d counted %v instructions in %v, %v of them outside the loop's function (at most %v for %v ticks of the monitor)",
				i+1, total, wall[i], outside, 200+clockWork*ticks, ticks)
		}
	}
	// Work that moves between threads is the loop's, helperOps times
	// helperWork iterations a block, and the scheduler's handing over, up
	// to handover instructions an operation: a channel's round trip
	// between two threads (measured: 5,000-8,000), or an idle thread the
	// runtime wakes while the goroutine sleeps in the kernel, which looks
	// for work (runtime.findRunnable, stealWork) for as long as the clock
	// lets it (1,000-3,000). Counted on the calling thread alone, the same
	// blocks came out 60% short or 33% long (what an earlier block left
	// on another thread), or 97% short when another thread did the work.
	// And, as for the loop, what the clock makes the runtime do: a block
	// that took 231 ms in a loaded CI run (render and quick start beside)
	// counted 205k instructions beyond its work, 20 operations' handover
	// being 200k; so up to clockWork more for each 10 ms it took.
	const handover = 10_000
	perIteration := fn[0] / helperN
	work := perIteration * helperOps * helperWork
	for _, kind := range []string{"locked", "syscall"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel() // counting does not mind a neighbour
			ir, _, wall := count(t, kind)
			for i, scale := range []float64{1, 1, 2} {
				ticks := 1 + float64(wall[i]/(10*time.Millisecond))
				if want := scale * work; ir[i] < want || ir[i] > want+scale*helperOps*handover+clockWork*ticks {
					t.Errorf("block %d of %v times the work counted %.0f instructions in %v, want its work's %.0f and at most %d more an operation and %d for each of %v ticks of 10 ms",
						i+1, scale, ir[i], wall[i], want, handover, clockWork, ticks)
				}
			}
		})
	}
}

// findValgrind is the installed Valgrind, for a test that runs this test
// binary under it; without one the test is skipped (failed with
// WIREBENCH_REQUIRE_TOOLS), and so is a test already under it.
func findValgrind(t *testing.T) Valgrind {
	t.Helper()
	if OnValgrind() {
		t.Skip("already under valgrind")
	}
	vg, err := Find(context.Background())
	if err != nil {
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return vg
}

// The helpers' sizes: helperN iterations of the loop, or helperOps
// operations of helperWork iterations each.
const (
	helperN    = 100_000
	helperOps  = 20
	helperWork = 10_000
)

var sink int

// work is the helpers' loop, a function of its own in the profile.
//
//go:noinline
func work(n int) {
	for i := range n {
		sink += i ^ (i >> 3)
	}
}

// TestCountingHelper counts three blocks (1, 1 and 2 times the work) of
// the kind WIREBENCH_COUNTING_HELPER names: "loop", a loop on the
// block's goroutine; "locked", operations handed to a goroutine locked
// to a thread of its own (runtime.LockOSThread), so all the work runs on
// another thread than the one that begins and ends the block; "syscall",
// operations that each sleep 50µs in a system call and then loop, so the
// goroutine may go on on another thread.
func TestCountingHelper(t *testing.T) {
	kind := os.Getenv("WIREBENCH_COUNTING_HELPER")
	if kind == "" {
		t.Skip("run by TestCountsUnderValgrind")
	}
	if !OnValgrind() {
		t.Fatal("not under valgrind")
	}
	jobs, done := make(chan int), make(chan struct{})
	if kind == "locked" {
		go func() {
			runtime.LockOSThread()
			for n := range jobs {
				work(n)
				done <- struct{}{}
			}
		}()
		defer close(jobs)
	}
	for i, scale := range []int{1, 1, 2} {
		start := time.Now() // outside the block: the clock is not the block's work
		Begin()
		switch kind {
		case "loop":
			work(scale * helperN)
		case "locked":
			for range scale * helperOps {
				jobs <- helperWork
				<-done
			}
		case "syscall":
			for range scale * helperOps {
				ts := syscall.NsecToTimespec(50_000)
				syscall.Nanosleep(&ts, nil)
				work(helperWork)
			}
		default:
			t.Fatalf("WIREBENCH_COUNTING_HELPER=%q", kind)
		}
		End(true)
		// The wall time the block took, for the share of the runtime's
		// clock-driven work its count may hold.
		fmt.Printf("block %d wall %d ns\n", i+1, time.Since(start).Nanoseconds())
	}
	t.Log("counted " + strconv.Itoa(3) + " blocks")
}
