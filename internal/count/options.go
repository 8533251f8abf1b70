package count

import (
	"io"
	"math"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/cpus"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
)

// Defaults of Settings.
const (
	// DefaultProcesses is the worker processes a build is counted in: a
	// count moves between processes (map order and hash seeds are drawn
	// per process), so processes are the replicates.
	DefaultProcesses = 5
	// DefaultBlocks is the counted blocks of a benchmark in each
	// process: one. A block's count is a function of the process's seed
	// once the benchmark's stack is grown before it (the worker's
	// wirebenchGrowStack), so the median of three blocks, which hid the
	// stack copy's few hundred instructions, buys nothing a process's
	// next seed does not (docs/design/counted-stages.md, "Where a count's
	// time goes").
	DefaultBlocks = 1
	// DefaultBlock is the native time a counted block aims at when its
	// iterations are chosen: about half a millisecond, a million
	// instructions or so; msgpack/v5's seeded pairs agree to the
	// instruction in it for the benchmarks that allocate nothing, and to
	// 0.001-0.03% for the others (page allocator work that moves with
	// the heap's layout).
	DefaultBlock = 500 * time.Microsecond
	// SuiteBlocks and SuiteBlock are the blocks of a worker without
	// testing's timer hooks (the embedded suite's), when the run does
	// not give them: it keeps the count of before issue 54:
	// three blocks of 2 ms. Its blocks are not testing's and its stack
	// is not grown before them, and one block of 0.5 ms doubled its
	// counted A/A's median detectable change (1.13% against 0.46-0.70%,
	// docs/lab/counted-costs.md).
	SuiteBlocks = 3
	SuiteBlock  = 2 * time.Millisecond
	// DefaultAllocBlocks is the counted blocks of a benchmark whose
	// operations allocate, in each process: their median. Such a block
	// moves from one process of a seed to the other by the page
	// allocator's work (a span more or fewer taken from the heap, as the
	// heap's layout before the block differs): 0.03-0.6% of a block of
	// msgpack/v5's, 0.05-0.16% as the median of three.
	DefaultAllocBlocks = 3
	// DefaultBlockBytes bounds what a counted block may allocate with the
	// collector off.
	DefaultBlockBytes = 32 << 20
	// DefaultCostlyProcesses is the processes a costly benchmark (one
	// whose single operation takes DefaultCostly natively or longer) is
	// counted in, when Processes is more: the suite's floats-1m
	// benchmarks, a few hundred million to three billion instructions an
	// operation, were 77% of what a process counted, and their counts
	// spread 0.01-0.18% between processes (but for msgpack's, bimodal),
	// so three processes resolve them to about 2%, and a regression is
	// counted again in further processes before it fails (confirm).
	DefaultCostlyProcesses = 3
	// DefaultFirst is the processes of each build a same-runner A/B
	// count (Pair) counts every benchmark in first: most counts' pairs
	// agree so closely that three settle them (see Settings.First).
	DefaultFirst = 3
	// DefaultStageFrom is the expected time of a same-runner A/B count in
	// full (every benchmark in Processes processes of each build) from
	// which Pair counts in stages (see Settings.StageFrom).
	DefaultStageFrom = 2 * time.Minute
	// DefaultCostly is the native time of one operation from which a
	// benchmark is costly.
	DefaultCostly = 10 * time.Millisecond
	// countSlowdown is how many times longer than natively a counted
	// block may take before its request times out: callgrind ran
	// CPU-bound Go code about 57 times slower here, 120 times with the
	// cache simulation.
	countSlowdown = 400
	// calibrationWarmup is each benchmark's native warm-up, whose last
	// batch sizes its counted blocks: ten blocks' worth (it was 20 ms,
	// 22 s a build for 1,000 benchmarks).
	calibrationWarmup = 5 * time.Millisecond
)

// Settings say how a count counts (see One and Pair). The zero value of
// a field means its default.
type Settings struct {
	// Valgrind is the Valgrind that counts; Callgrind its options.
	Valgrind  callgrind.Valgrind
	Callgrind callgrind.Options
	// Processes is the worker processes each build is counted in.
	Processes int
	// First is the processes of each build Pair.Count counts every
	// benchmark in; Pair.Rest counts the benchmarks whose verdict those
	// did not settle in the others, up to Processes. 0 is DefaultFirst;
	// Processes or more counts every benchmark in every process. One
	// (a stored check or update) counts Processes.
	First int
	// StageFrom is the expected time of the count in full from which
	// Pair counts in stages; a cheaper one counts every benchmark in
	// every process. Staging saves at most the 2 of 5 processes its
	// settled benchmarks are not counted in, and judges those on 3
	// processes, whose detectable change is 3-4 times wider (msgpack's,
	// measured: docs/lab/counted-stages.md, "When counting stops"): below
	// a couple of minutes the seconds saved are not worth the resolution
	// lost. 0 is DefaultStageFrom; negative stages whatever the count
	// costs.
	StageFrom time.Duration
	// Blocks is the counted blocks of a benchmark in each process;
	// AllocBlocks those of a benchmark that allocates, when more.
	Blocks      int
	AllocBlocks int
	// suiteBlocks is set when neither Blocks nor Block was given: a
	// worker without testing's timer hooks (the embedded suite's) then
	// counts in SuiteBlocks of SuiteBlock (planFor).
	suiteBlocks bool
	// Jobs is how many counted processes run at once: counts do not
	// depend on what runs beside them, so by default as many as the CPUs
	// the job has (cpus.Job: its cgroup's quota where there is one).
	// JobsWhy says where Jobs came from, for the progress lines.
	Jobs    int
	JobsWhy string
	// CostlyProcesses is the processes a costly benchmark is counted in
	// (at most Processes), Costly the native time of one operation from
	// which a benchmark is costly.
	CostlyProcesses int
	Costly          time.Duration
	// Block is the native time a block aims at; MaxBlockBytes bounds what
	// it allocates.
	Block         time.Duration
	MaxBlockBytes int64
	// Iterations are block sizes to keep, by benchmark key: a stored
	// reference's, so that counts are compared at the same block size (a
	// count per operation depends on it: allocation slow paths, fixed
	// costs). Benchmarks it does not name are sized from a native
	// warm-up.
	Iterations map[string]int
	// Only, when not empty, are the benchmarks to count, by key (a
	// confirmation re-counts the flagged ones); the others are left out.
	Only []string
	// Seed fixes the order of the benchmarks in each process; 0 picks
	// one.
	Seed uint64
	// Budget, when set, is what the count may take: the plan is cut to
	// fit it by the estimate (fit), blocks first, then processes down to
	// MinProcesses unless FixedProcesses (processes the user chose).
	Budget         time.Duration
	FixedProcesses bool
}

// Counter is how c counts, as results record it for a run in which
// nothing was counted (every package identical to the baseline's): the
// tool, its version, the processes and the cache simulation.
func (c Settings) Counter() *results.Counter {
	return &results.Counter{Tool: "callgrind", Version: c.Valgrind.Version, Processes: c.Processes, CacheSim: c.Callgrind.CacheSim}
}

// defaults sets every field left at its zero value to its default
// (Settings: the zero value of a field means its default).
func (c *Settings) defaults() {
	orDefault(&c.Processes, DefaultProcesses)
	c.suiteBlocks = c.Blocks == 0 && c.Block == 0
	orDefault(&c.Blocks, DefaultBlocks)
	orDefault(&c.AllocBlocks, DefaultAllocBlocks)
	orDefault(&c.First, DefaultFirst)
	if c.StageFrom == 0 { // negative: stage whatever the count costs
		c.StageFrom = DefaultStageFrom
	}
	if c.Jobs <= 0 {
		c.Jobs, c.JobsWhy = cpus.Job()
	}
	orDefault(&c.Block, DefaultBlock)
	orDefault(&c.CostlyProcesses, DefaultCostlyProcesses)
	orDefault(&c.Costly, DefaultCostly)
	orDefault(&c.MaxBlockBytes, DefaultBlockBytes)
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
}

// orDefault sets *x to d when it is not set: zero, or negative (which
// none of the counts and durations it sets can mean).
func orDefault[T ~int | ~int64](x *T, d T) {
	if *x <= 0 {
		*x = d
	}
}

// blockSize is the iterations of a counted block of a benchmark that
// costs ns and allocates bytes per operation natively: the largest power
// of two that fits the block's time and memory, at least 1. A power of
// two, so that the same benchmark measured on another day, a little
// faster or slower, mostly gets the same size.
func (c Settings) blockSize(ns, bytes float64) int {
	n := max(1.0, float64(c.Block)/max(ns, 1))
	if bytes > 0 {
		n = min(n, max(1, float64(c.MaxBlockBytes)/bytes))
	}
	return 1 << int(math.Floor(math.Log2(n)))
}

// Options say how a count counts and where its processes run.
type Options struct {
	Settings
	// Dir is where the dumps go (made if needed; the sandbox's user must
	// be able to write it).
	Dir string
	// Stderr receives the workers' diagnostics.
	Stderr io.Writer
	// Sandbox runs the workers as its unprivileged user; nil as is.
	Sandbox *sandbox.Sandbox
	// Progress receives progress lines; nil is silent.
	Progress io.Writer
	// Keep, when set, is where the dumps of one counted block of every
	// benchmark and build are kept (the first block of the first process
	// of the build that counts it; see SaveDumps), for a person to open
	// those of a flagged benchmark. Empty keeps none.
	Keep string
	// Select, when set, keeps the benchmarks of listed (all a build's
	// worker lists, by key) that this count calibrates and counts: one
	// shard's part of a same-runner A/B comparison split over a job
	// matrix (check.AB.Shard). Pair calls it for the base, then the head,
	// before either build's native warm-up, so a shard warms up and
	// counts only its part. nil keeps all.
	Select func(side string, listed []string) []string
}

// Build is one build to count: its program, and its workers'
// environment (secrets are dropped; nil: the process's).
type Build struct {
	Program program.Program
	Env     []string
}
