package ab

import (
	"io"
	"reflect"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
)

// Defaults of Options.
const (
	// DefaultBudget is the main phase of a run, warm-up included. See
	// docs/lab/ab-mode.md for what it buys on the default suite.
	DefaultBudget = 4 * time.Minute
	// DefaultBlock is the work in one block.
	DefaultBlock = time.Millisecond
	// DefaultParallelBlock is the work in one block of a benchmark that
	// calls RunParallel: its goroutines start anew in every block, and in
	// 1 ms they barely meet, so contention (a lock, a shared counter)
	// shows only in part. A RunParallel encoder behind a mutex measured
	// +17 to +30% in 1 ms blocks and +44 to +51% in 20 ms blocks (three
	// runs each; go test's 1 s runs: +150%), docs/lab/ab-mode.md.
	DefaultParallelBlock = 20 * time.Millisecond
	// DefaultThreshold is the default effect floor: smaller changes are
	// never regressions however significant.
	DefaultThreshold = 0.01
	// DefaultGCBound is the garbage a worker may accumulate before all
	// workers are collected together. A collection with the default
	// suite's heap takes about 2 ms on the test machine; at 64 MiB it
	// comes every few dozen blocks of the most allocating benchmarks.
	DefaultGCBound = 64 << 20
	// DefaultPre is the untimed part before each block, as a fraction of
	// the block's iterations.
	DefaultPre = 0.25
)

// Options tune a run. The zero value of every field means its default.
type Options struct {
	// Budget is the time of the main phase, warm-up included.
	Budget time.Duration
	// ConfirmBudget bounds the confirmation of changes, which only runs
	// when there are some. Default Budget/2; negative disables the
	// confirmation (changes then stand as measured).
	ConfirmBudget time.Duration
	// Block is the work in one block. Default 1 ms.
	Block time.Duration
	// ParallelBlock is the work in one block of a benchmark whose
	// workers say it calls RunParallel (ParallelWorker). Default the
	// larger of Block and DefaultParallelBlock.
	ParallelBlock time.Duration
	// Pre is the untimed iterations run before every block, as a
	// fraction of the block's (blocks of fewer than 4 iterations have
	// none). Default DefaultPre; negative: none.
	Pre float64
	// Warmup is how long each benchmark runs in each worker before it is
	// measured. Default 30 ms, or less when the warm-ups of every
	// benchmark in every worker would take more than WarmShare of the
	// budget (not below MinWarmup): 1,000 benchmarks in three workers
	// warmed 90 s for a budget of 83 s.
	Warmup time.Duration
	// TargetRounds is the number of rounds the plan aims at (it decides
	// how many visits cheap benchmarks get per round). Default 50.
	TargetRounds int
	// MinRounds is the fewest rounds a phase makes, budget or not,
	// spread over its generations (each of which makes at least
	// minGenerationRounds). Default 5.
	MinRounds int
	// MaxShare caps the time a benchmark gets per round. Default 40 ms.
	MaxShare time.Duration
	// MaxPairs ends the run when a benchmark has this many pairs.
	// Default 20000.
	MaxPairs int
	// GCBound is the garbage per worker that makes the orchestrator
	// collect every worker. Default DefaultGCBound.
	GCBound int64
	// Seed fixes the shuffles; 0 picks one.
	Seed uint64
	// Compare holds the floor (Threshold), Alpha, Confidence, Power, the
	// correction and the exact thresholds. Zero means compare.Defaults
	// with Threshold DefaultThreshold.
	Compare compare.Options
	// Why is the result's explanation of the method; "" gives a default.
	Why string
	// Progress receives progress lines; nil is silent. Verbose adds the
	// chatter: a line per round, generation of workers and plan.
	Progress io.Writer
	Verbose  bool

	// Generations is the number of generations of workers the main phase
	// is split into, each on fresh processes of fresh copies of the
	// binaries; 0 chooses from the budget (2 to 16, spending at most about
	// 15% of it on starting and re-warming workers). ConfirmGenerations is
	// the same for the confirmation.
	Generations, ConfirmGenerations int
	// Rewarm is how long each benchmark runs in each worker of a later
	// generation before it is measured. Default 5 ms, bounded by the
	// budget as Warmup is (not below MinRewarm).
	Rewarm time.Duration

	// Rounds and Reps fix the number of rounds per generation and of
	// visits per task and round instead of planning them from the budget
	// (tests, exact reproductions). ConfirmRounds does the same for the
	// confirmation.
	Rounds, Reps, ConfirmRounds int
	// Overhead is the cost of one block beyond its work (round trip,
	// memory statistics), for planning. Default 150 µs.
	Overhead time.Duration
}

// Defaults of the warm-ups, and what bounds them (warmups).
const (
	DefaultWarmup = 30 * time.Millisecond
	DefaultRewarm = 5 * time.Millisecond
	// WarmShare is the share of the budget the warm-ups of every
	// benchmark in every worker may take, each; MinWarmup and MinRewarm
	// the least a benchmark is warmed whatever the budget (a few blocks
	// of DefaultBlock).
	WarmShare = 0.15
	MinWarmup = 3 * time.Millisecond
	MinRewarm = time.Millisecond
)

// warmups sets Warmup and Rewarm, where not given, for n benchmarks in
// workers workers: their defaults, or less when that would take more
// than WarmShare of the budget.
func (o *Options) warmups(n, workers int) {
	share := time.Duration(WarmShare * float64(o.Budget) / float64(max(n*workers, 1)))
	if o.Warmup <= 0 {
		o.Warmup = min(DefaultWarmup, max(share, MinWarmup))
	}
	if o.Rewarm <= 0 {
		o.Rewarm = min(DefaultRewarm, max(share, MinRewarm))
	}
}

// defaults fills in the default of every field left at its zero value.
func (o *Options) defaults() {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.ConfirmBudget == 0 {
		o.ConfirmBudget = o.Budget / 2
	}
	if o.Block <= 0 {
		o.Block = DefaultBlock
	}
	if o.ParallelBlock <= 0 {
		o.ParallelBlock = max(o.Block, DefaultParallelBlock)
	}
	if o.Pre == 0 {
		o.Pre = DefaultPre
	}
	if o.TargetRounds <= 0 {
		o.TargetRounds = 50
	}
	if o.MinRounds <= 0 {
		o.MinRounds = 5
	}
	if o.MaxShare <= 0 {
		o.MaxShare = 40 * time.Millisecond
	}
	if o.MaxPairs <= 0 {
		o.MaxPairs = 20000
	}
	if o.GCBound <= 0 {
		o.GCBound = DefaultGCBound
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	if reflect.ValueOf(o.Compare).IsZero() {
		o.Compare = compare.Defaults()
		o.Compare.Threshold = DefaultThreshold
	}
	if o.Compare.Correction == "" {
		o.Compare.Correction = compare.Holm
	}
	if o.Compare.Normalize == "" {
		o.Compare.Normalize = compare.NormalizeNever
	}
	if o.Overhead <= 0 {
		o.Overhead = 150 * time.Microsecond
	}
}
