package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
)

// Protocol names the protocol in the handshake.
const Protocol = "wirebench-ab"

// Version is the protocol version this build speaks, and MinVersion the
// oldest version it still accepts from the other side. A change that an
// older peer cannot ignore (a new required request, a changed meaning)
// bumps Version; raising MinVersion drops support for older peers.
//
// Version 2 added counted blocks (Request.Count, Reply.Counted,
// Hello.Counting): a worker of version 1 would ignore the field and time
// the block, so a counted measurement needs version 2 on both sides
// (CountingVersion).
const (
	Version    = 2
	MinVersion = 1
)

// CountingVersion is the first protocol version with counted blocks.
const CountingVersion = 2

// Hello is the worker's first line.
type Hello struct {
	Protocol   string      `json:"protocol"`
	Version    int         `json:"version"`
	MinVersion int         `json:"min_version"`
	Suite      string      `json:"suite"`
	Benchmarks []string    `json:"benchmarks"`
	Env        results.Env `json:"env"`
	// Counting is set by a worker that runs under Valgrind's callgrind
	// and can count its blocks (Request.Count).
	Counting bool `json:"counting,omitempty"`
	// CountHeap, with Counting, says what memory a counted block
	// allocates from: "dirty" (DirtyHeap), or "" from a worker that
	// does not say (older ones: fresh or used memory, by chance).
	CountHeap string `json:"count_heap,omitempty"`
	// CountThreads, with Counting, says whose work a counted block's
	// dumps hold: "all" (AllThreads), or "" from a worker that does not
	// say (older ones: the thread that began the block only).
	CountThreads string `json:"count_threads,omitempty"`
	// CountRandom, with Counting, says where the process's random state
	// came from: "seeded" (SeededRandom: the runtime took its seed from
	// RuntimeSeedVar), or "" (the kernel's random bytes, drawn anew by
	// every process).
	CountRandom string `json:"count_random,omitempty"`
	// CPUID is the worker's CPU features as it reads them (under Valgrind,
	// Valgrind's virtual CPU's); nil from a worker that does not say.
	CPUID *callgrind.CPUID `json:"cpuid,omitempty"`
	// BlockSetup is set by a worker whose block runs a benchmark function
	// whole, its own setup and the testing package's work included (a
	// test binary's worker): a count per operation is then the
	// difference between blocks of two sizes.
	BlockSetup bool `json:"block_setup,omitempty"`
	// TimerHooks is set by a test binary's worker whose counted block
	// follows the benchmark's timer (its testing package calls the worker
	// on StartTimer, StopTimer and ResetTimer): only the timed part of the
	// benchmark's last run is counted, and the testing package's run of
	// one iteration before it warms it up.
	TimerHooks bool `json:"timer_hooks,omitempty"`
}

// RuntimeSeedVar is the environment variable a counted process gets its
// seed in: a test binary built for counting seeds the Go runtime's
// random state from it (internal/gotest's seed patch, seed.go), so that the
// base's and the head's processes of one seed draw the same hash seeds,
// map orders and unseeded math/rand streams. Other workers ignore it.
const RuntimeSeedVar = "WIREBENCH_RUNTIME_SEED"

// SeededRandom is Hello.CountRandom of a worker whose runtime took its
// seed from RuntimeSeedVar.
const SeededRandom = results.SeededRandom

// DirtyHeap is Hello.CountHeap of a worker that counts every block on
// the same kind of memory. The Go runtime zeroes memory it reuses and
// skips the zeroing of memory fresh from the kernel, and its scavenger
// returns free pages to the kernel at its own pace: so a block counted
// up to 2-3% fewer instructions (runtime.memclrNoHeapPointers) when it
// grew the heap, and more when it met pages the scavenger had released,
// by what ran before it in its process (measured: docs/design/counted.md,
// "Every block on the same kind of memory"). Such
// a worker allocates and frees DirtyHeapBytes before counting (the
// runtime then counts that memory as used and zeroes it on reuse, as a
// long-running program's), and before every block collects and returns
// every free page to the kernel (debug.FreeOSMemory), outside the count.
const (
	DirtyHeap      = "dirty"
	DirtyHeapBytes = 512 << 20
)

// AllThreads is Hello.CountThreads of a worker whose counted block zeroes
// and dumps the counters of every thread of the process
// (callgrind.MonitorZero, callgrind.MonitorDump), so what a benchmark's
// goroutine did after it moved to another thread, and what it handed to
// other threads, is counted; callgrind's own requests act on the calling
// thread alone.
const AllThreads = "all"

// CountWay is how a counting worker counts its blocks, as its Hello says:
// CountHeap, CountThreads, and CPU, the features of the CPU it counted on
// (callgrind.FeatureList of its CPUID; "" when it does not say).
type CountWay struct{ Heap, Threads, CPU, Random string }

// CountWay is h's.
func (h Hello) CountWay() CountWay {
	w := CountWay{Heap: h.CountHeap, Threads: h.CountThreads, Random: h.CountRandom}
	if h.CPUID != nil {
		w.CPU = callgrind.FeatureList(h.CPUID.Features())
	}
	return w
}

// Agree is what w and o say alike: each field theirs where they agree,
// "" where they do not (processes of one build that counted differently).
func (w CountWay) Agree(o CountWay) CountWay {
	agree := func(a, b string) string {
		if a != b {
			return ""
		}
		return a
	}
	return CountWay{Heap: agree(w.Heap, o.Heap), Threads: agree(w.Threads, o.Threads), CPU: agree(w.CPU, o.CPU), Random: agree(w.Random, o.Random)}
}

// Ops of the protocol.
const (
	OpWarmup = "warmup"
	OpRun    = "run"
	OpSize   = "size"
	OpGC     = "gc"
	OpQuit   = "quit"
)

// Request is one line from the orchestrator.
type Request struct {
	ID       int64  `json:"id"`
	Op       string `json:"op"`
	Name     string `json:"name,omitempty"`
	N        int    `json:"n,omitempty"`
	WarmupNs int64  `json:"warmup_ns,omitempty"`
	// Pre, with run, is a number of untimed iterations run just before
	// the timed block, so the block does not start on caches and a
	// processor that other work (the other build's block, another
	// benchmark) left cold.
	Pre int `json:"pre,omitempty"`
	// Count, with run, counts the block instead of only timing it: the
	// worker collects the heap, runs the pre iterations uninstrumented,
	// and brackets the n iterations with callgrind's client requests
	// (internal/callgrind), which dump the block's counts to the next
	// dump file of the process. It needs a worker that announced
	// Counting.
	Count bool `json:"count,omitempty"`
	// Keep, with Count, leaves instrumentation on after the block, so that
	// the next one need not re-translate the code: what runs in between
	// (the collection, the next pre iterations) then runs instrumented,
	// slower but uncounted. A worker may ignore it.
	Keep bool `json:"keep,omitempty"`
	// NoCollection, with Count, asks a test binary's worker not to count
	// a collection after the block: the orchestrator counts the
	// collector's work in one block of a benchmark a process (the
	// last), since the collection costs, under callgrind, about as much
	// as a microsecond-scale benchmark's block. A worker that counts no
	// collection ignores it.
	NoCollection bool `json:"no_collection,omitempty"`
	// Bench, with list, is a go test -bench pattern: the worker of a test
	// binary runs the benchmarks it selects once and answers their full
	// names (sub-benchmarks included).
	Bench string `json:"bench,omitempty"`
}

// OpList asks a test binary's worker for the benchmarks a pattern
// selects (see Request.Bench); the suite's worker names them in its
// handshake instead.
const OpList = "list"

// Reply is one line from the worker.
type Reply struct {
	ID    int64  `json:"id"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Iterations, ElapsedNs, Allocs and Bytes describe the timed block of
	// a run (or the last batch of a warm-up), a bench.Sample: heap objects
	// and bytes the block allocated. For gc, ElapsedNs is how long the
	// collection took.
	Iterations int    `json:"iterations,omitempty"`
	ElapsedNs  int64  `json:"elapsed_ns,omitempty"`
	Allocs     uint64 `json:"allocs,omitempty"`
	Bytes      uint64 `json:"bytes,omitempty"`
	// Collected is set when the worker collected before the block on its
	// own (its garbage passed Options.MaxGarbage).
	Collected bool `json:"collected,omitempty"`
	// Counted is set when the block was counted (Request.Count): its
	// counts are in the process's next callgrind dump.
	Counted bool `json:"counted,omitempty"`
	// Dumps, with Counted, is how many callgrind dumps the block wrote (0:
	// one), and Summed how many of the last of them hold its count (0:
	// all): a test binary's worker dumps at every stop of the
	// benchmark's timer and zeroes at every reset.
	Dumps  int `json:"dumps,omitempty"`
	Summed int `json:"summed,omitempty"`
	// GCDumps are the positions (1 the first) among the block's Dumps of
	// those that hold a collection counted at the end of a timed run
	// rather than the benchmark's work: Summed counts the others. The
	// last collection is the block's when it is the last dump; HeapRoom
	// is then the bytes the heap could grow by after it before the
	// collector's goal (0: the collector is off).
	GCDumps  []int  `json:"gc_dumps,omitempty"`
	HeapRoom uint64 `json:"heap_room,omitempty"`
	// Size is the encoded message size, for size.
	Size int `json:"size,omitempty"`
	// Metrics are the other units the benchmark reported for the block
	// (a test binary's b.ReportMetric), per operation.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Names are the benchmarks a list request selected.
	Names []string `json:"names,omitempty"`
	// Troubles, with list, are the benchmarks the pattern selected that
	// gave no result: skipped or failed (results.TroubleSkipped,
	// TroubleFailed), each with its message. A benchmark's trouble is
	// its own, not the list's.
	Troubles []results.Trouble `json:"troubles,omitempty"`
	// Trouble, with an Error to a run, warmup or counted block, says that
	// the benchmark itself skipped or failed (results.TroubleSkipped,
	// TroubleFailed), the worker alive and able to go on: Error is then
	// the benchmark's own message.
	Trouble results.TroubleKind `json:"trouble,omitempty"`
}

// sampleReply is the reply that carries s, a measured block or the last
// batch of a warm-up.
func sampleReply(s bench.Sample) Reply {
	return Reply{Iterations: s.Iterations, ElapsedNs: s.Elapsed.Nanoseconds(), Allocs: s.Allocs, Bytes: s.Bytes, Collected: s.Collected, Counted: s.Counted, Metrics: s.Metrics}
}

// sample is the measurement r carries, the inverse of sampleReply.
func (r Reply) sample() bench.Sample {
	return bench.Sample{Iterations: r.Iterations, Elapsed: time.Duration(r.ElapsedNs), Allocs: r.Allocs, Bytes: r.Bytes, Collected: r.Collected, Counted: r.Counted, Metrics: r.Metrics}
}

// ErrIncompatible marks a worker the orchestrator cannot talk to: a build
// without the worker, or one whose protocol version is outside the range
// this build accepts. Callers fall back to the stored baseline.
var ErrIncompatible = errors.New("incompatible A/B worker")

// Negotiate checks a worker's handshake against this build's range and
// returns the version both speak: the lower of the two. label names the
// build ("base", "head") in the error, which wraps ErrIncompatible and
// names both versions and the fix.
func Negotiate(label string, h Hello) (int, error) {
	if h.Protocol != Protocol {
		return 0, fmt.Errorf("%w: the %s build's worker announced protocol %q, not %q: it is not a wirebench A/B worker", ErrIncompatible, label, h.Protocol, Protocol)
	}
	if h.Version < MinVersion {
		return 0, fmt.Errorf("%w: the %s build speaks A/B protocol version %d, and this wirebench needs version %d or newer (it speaks %d): the %s build is older than the A/B protocol: fall back to the stored baseline",
			ErrIncompatible, label, h.Version, MinVersion, Version, label)
	}
	if h.MinVersion > Version {
		return 0, fmt.Errorf("%w: the %s build needs A/B protocol version %d or newer, and this wirebench speaks version %d: the %s build is newer than this wirebench: run the comparison with the newer build's `wirebench ab`, or fall back to the stored baseline",
			ErrIncompatible, label, h.MinVersion, Version, label)
	}
	return min(h.Version, Version), nil
}
