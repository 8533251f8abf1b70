package results

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Counter records how a counted run counted, everything two counted runs
// must share for their counts to be comparable (with each benchmark's
// block size, Benchmark.Iterations).
type Counter struct {
	// Tool is "callgrind" and Version Valgrind's version.
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// CacheSim is set when the cache was simulated (est-cycles/op), at
	// Geometry ("I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64").
	CacheSim bool   `json:"cache_sim,omitempty"`
	Geometry string `json:"geometry,omitempty"`
	// Method is how a block's count becomes a count per operation:
	// "block" (the block holds the operations alone: its count over its
	// iterations), "timer" (a go test benchmark counted while its timer
	// runs, as testing times it: over its iterations) or "difference" (a
	// go test benchmark function run whole, its setup included: the
	// difference of blocks of n and 2n iterations, over n).
	Method string `json:"method"`
	// Processes is the worker processes each benchmark was counted in,
	// Blocks the counted blocks (pairs, for "difference") of each in
	// every process, reduced to the process's median.
	Processes int `json:"processes"`
	Blocks    int `json:"blocks"`
	// First, when set, is the processes of each build every benchmark was
	// counted in before the benchmarks they had not settled were counted
	// in more, up to Processes; Settled is how many they settled (and
	// were counted in First alone). 0: every benchmark was counted in
	// Processes. Neither decides what a count is comparable with.
	First   int `json:"first,omitempty"`
	Settled int `json:"settled,omitempty"`
	// Further is how many benchmarks were counted beyond Processes, in as
	// many fresh processes again, because their interval still straddled
	// the floor after Processes (a same-runner A/B count); 0: none.
	Further int `json:"further,omitempty"`
	// Heap is how the workers kept a block's count from depending on
	// the heap that earlier work left: "dirty" (worker.DirtyHeap: every
	// block on used memory, collected and returned to the kernel before
	// it), or "" where the workers did not say (a block then counted up to
	// 2-3% more or fewer instructions by what ran before it).
	Heap string `json:"heap,omitempty"`
	// Threads is whose work a block's count holds: "all" (worker.AllThreads:
	// every thread's of the process but the Go runtime's monitor), or ""
	// where the workers did not say (the thread that began the block
	// only: a benchmark that blocks in the kernel, sleeps or hands work
	// to another thread lost that work from its count now and then).
	Threads string `json:"threads,omitempty"`
	// CPU is the features of the CPU the workers counted on, Valgrind's
	// virtual CPU (callgrind.FeatureList: "sse2 sse3 ... avx2 bmi2"), and
	// Lacks those of the machine's own CPU it lacked: code that picks its
	// path by CPU features was counted on another path than it runs
	// natively. "" where not recorded.
	CPU string `json:"cpu,omitempty"`
	// Random is where the counted processes' random state came from:
	// "seeded" (worker.SeededRandom: each process's runtime from its
	// seed, so two builds' processes of one seed pair; Benchmark.Seeds)
	// or "" (drawn anew by each process, or processes that disagreed).
	// It moves no count's expectation, so it is not compared (Diff).
	Random string `json:"random,omitempty"`
	// Patches is what wirebench patched in the toolchain that built the
	// counted test binaries (gotest.Patches, from the build: "patches for
	// go1.27: testing, runtime seed, sched, code", or which patch did not
	// apply and why: why Random is not "seeded"), "" where not said (the
	// embedded suite's worker, an older build) or the parts disagreed. It
	// says how, not what, was counted: a change of toolchain shows in the
	// environment's Go version, so it is not compared (Diff).
	Patches string `json:"patches,omitempty"`
	// MemProfile is what the counted processes did with the runtime's
	// memory profiling: "off" (callgrind.MemProfile), or "" when not said
	// (on: sampled allocations cost a stack unwinding each, counted).
	MemProfile string `json:"mem_profile,omitempty"`
	// Stack is what the counted processes did with a benchmark's stack
	// before its count started: "grown" (StackGrown), or "" when not
	// said (grown inside the count, at the benchmark function's first
	// call: a stack copy in every block, a few hundred instructions of
	// which moved between processes).
	Stack string `json:"stack,omitempty"`
	Lacks string `json:"lacks,omitempty"`
	// Estimate is what the count was expected to take when it started
	// (from the native calibration and the plan), beside Settings.Elapsed;
	// Budget, when set, the budget its plan was cut for (fewer blocks or
	// processes), or could not be cut enough for. Neither decides what a
	// count is comparable with.
	Estimate time.Duration `json:"estimate_ns,omitempty"`
	Budget   time.Duration `json:"budget_ns,omitempty"`
}

// StackGrown is Counter.Stack of processes whose worker grew each
// benchmark's stack to 64 KiB before its count started.
const StackGrown = "grown"

// SeededRandom is Counter.Random of processes whose runtime took its
// random state from their seed (worker.SeededRandom).
const SeededRandom = "seeded"

// Counting methods (Counter.Method).
const (
	CountBlock      = "block"
	CountTimer      = "timer"
	CountDifference = "difference"
)

// Diff lists how c and o differ in what decides a count, old (c) to new
// (o): the tool, its version, the cache simulation, the method, the
// heap, the threads, the features of the CPU counted on, the memory
// profiling and the stack.
func (c *Counter) Diff(o *Counter) []Difference {
	var d []Difference
	add := func(field, a, b string) {
		if a != b {
			d = append(d, Difference{Field: field, Old: a, New: b})
		}
	}
	add("counter", c.Tool, o.Tool)
	add("valgrind", c.Version, o.Version)
	add("cache simulation", c.cache(), o.cache())
	add("counting method", c.Method, o.Method)
	add("heap", orNotSaid(c.Heap), orNotSaid(o.Heap))
	add("threads", orNotSaid(c.Threads), orNotSaid(o.Threads))
	add("counted CPU's features", orNotSaid(c.CPU), orNotSaid(o.CPU))
	add("memory profiling", orNotSaid(c.MemProfile), orNotSaid(o.MemProfile))
	add("stack", orNotSaid(c.Stack), orNotSaid(o.Stack))
	return d
}

// String is the counter as the Go benchmark format's
// "wirebench-counter:" line writes it: "callgrind 3.19.0 method=block
// processes=5 blocks=3", with " cache=GEOMETRY" (its spaces as "_") when
// the cache was simulated, " heap=dirty", " threads=all", " cpu=F,F,...",
// " lacks=F,F,...", " random=seeded", " memprofile=off", " stack=grown" and
// " patches=TEXT" (its spaces as "_") when recorded. ParseCounter reads it
// back.
func (c *Counter) String() string {
	s := fmt.Sprintf("%s %s method=%s processes=%d blocks=%d", c.Tool, c.Version, c.Method, c.Processes, c.Blocks)
	if c.CacheSim {
		s += " cache=" + strings.ReplaceAll(c.Geometry, " ", "_")
	}
	if c.Heap != "" {
		s += " heap=" + c.Heap
	}
	if c.Threads != "" {
		s += " threads=" + c.Threads
	}
	if c.CPU != "" {
		s += " cpu=" + strings.ReplaceAll(c.CPU, " ", ",")
	}
	if c.Lacks != "" {
		s += " lacks=" + strings.ReplaceAll(c.Lacks, " ", ",")
	}
	if c.Random != "" {
		s += " random=" + c.Random
	}
	if c.MemProfile != "" {
		s += " memprofile=" + c.MemProfile
	}
	if c.Stack != "" {
		s += " stack=" + c.Stack
	}
	if c.Patches != "" {
		s += " patches=" + strings.ReplaceAll(c.Patches, " ", "_")
	}
	return s
}

// orNotSaid is s, or "not recorded" for "".
func orNotSaid(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}

// ParseCounter reads a counter written by Counter.String.
func ParseCounter(s string) (*Counter, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return nil, fmt.Errorf("counter %q: want \"TOOL VERSION key=value...\"", s)
	}
	c := &Counter{Tool: f[0], Version: f[1]}
	for _, kv := range f[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("counter %q: %q is not key=value", s, kv)
		}
		var err error
		switch k {
		case "method":
			c.Method = v
		case "processes":
			c.Processes, err = strconv.Atoi(v)
		case "blocks":
			c.Blocks, err = strconv.Atoi(v)
		case "cache":
			c.CacheSim, c.Geometry = true, strings.ReplaceAll(v, "_", " ")
		case "heap":
			c.Heap = v
		case "threads":
			c.Threads = v
		case "cpu":
			c.CPU = strings.ReplaceAll(v, ",", " ")
		case "lacks":
			c.Lacks = strings.ReplaceAll(v, ",", " ")
		case "random":
			c.Random = v
		case "memprofile":
			c.MemProfile = v
		case "stack":
			c.Stack = v
		case "patches":
			c.Patches = strings.ReplaceAll(v, "_", " ")
		}
		if err != nil || c.Processes < 0 || c.Blocks < 0 {
			return nil, fmt.Errorf("counter %q: %s=%s is not a count", s, k, v)
		}
	}
	return c, nil
}

func (c *Counter) cache() string {
	if !c.CacheSim {
		return "off"
	}
	return c.Geometry
}
