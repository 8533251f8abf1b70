package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/results"
)

// Options control a measurement run.
type Options struct {
	// Samples is the number of rounds; every benchmark gets one sample per
	// round. Default 15.
	Samples int
	// Budget is the time the whole run should take, warm-up included.
	// Batch sizes are planned to fit it. Samples are never dropped to meet
	// it: statistics need them; a run whose slowest operations cannot fit
	// says so at the start. Default 60s.
	Budget time.Duration
	// Seed fixes the shuffled order of every round; 0 picks one.
	Seed uint64
	// Progress receives one line per round on long runs; nil is silent.
	Progress io.Writer
	// MaxBatchBytes bounds the memory a batch may allocate while the
	// garbage collector is off. Default 32 MiB: larger batches make the
	// heap grow into fresh pages, and the page faults (which vary from batch
	// to batch) were measured to dominate small allocating benchmarks.
	MaxBatchBytes int64
	// Warmup is the time each benchmark runs before measuring (at most
	// 200 iterations beyond the first batch of that length). Default 30ms.
	Warmup time.Duration
}

func (o *Options) defaults() {
	if o.Samples <= 0 {
		o.Samples = 15
	}
	if o.Budget <= 0 {
		o.Budget = 60 * time.Second
	}
	if o.MaxBatchBytes <= 0 {
		o.MaxBatchBytes = DefaultMaxBatchBytes
	}
	if o.Warmup <= 0 {
		o.Warmup = 30 * time.Millisecond
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
}

// DefaultMaxBatchBytes is the default Options.MaxBatchBytes.
const DefaultMaxBatchBytes = 32 << 20

// Sample is one timed batch of a benchmark: n iterations and what they
// cost. The harness takes one per benchmark and round; the same-runner A/B
// worker (internal/worker) takes one per block and sends it to the
// orchestrator.
type Sample struct {
	Iterations int
	Elapsed    time.Duration
	Allocs     uint64 // heap objects allocated by the batch
	Bytes      uint64 // heap bytes allocated by the batch
	// Collected is set when the heap was collected right before the batch
	// outside the caller's own schedule: the A/B worker's safety net, which
	// collects when its garbage passes a bound, so the orchestrator knows
	// that worker's garbage count starts again. The harness, which
	// collects before every batch anyway, leaves it unset.
	Collected bool
	// Counted is set when the batch ran under callgrind's counters (an
	// A/B worker's counted block): its instructions are in the worker's
	// dump, not in this sample.
	Counted bool
	// Metrics are the other units a benchmark reported for the batch
	// (b.ReportMetric in a go test benchmark, e.g. B/msg), per operation
	// as the benchmark reported them; nil for the suite's benchmarks.
	Metrics map[string]float64
}

// NsPerOp is the sample's mean time per operation (an empty sample counts
// as one operation, so it is never NaN).
func (s Sample) NsPerOp() float64 {
	return float64(s.Elapsed.Nanoseconds()) / float64(max(s.Iterations, 1))
}

// AllocsPerOp and BytesPerOp are the sample's allocations per operation,
// truncated to integers as testing.B reports them. Truncation keeps them
// exact: codecs that keep buffers in a sync.Pool refill it once after the
// collection before every batch, which adds a few allocations per batch,
// not per operation. An empty sample counts as one operation.
func (s Sample) AllocsPerOp() float64 { return float64(s.Allocs / uint64(max(s.Iterations, 1))) }
func (s Sample) BytesPerOp() float64  { return float64(s.Bytes / uint64(max(s.Iterations, 1))) }

// TimeLoop times loop(n) as one batch: it reads the memory statistics,
// runs the loop under the clock, and reads them again, so the sample
// counts exactly what the n iterations allocated and the time covers
// nothing but the loop. It neither collects nor touches the collector's
// settings, and runs nothing before the first read: what comes before a
// batch (a collection, untimed warm operations) is the caller's policy,
// and the caller runs it before TimeLoop. loop's error is returned as is.
func TimeLoop(loop func(n int) error, n int) (Sample, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	err := loop(n)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		return Sample{}, err
	}
	return Sample{
		Iterations: n,
		Elapsed:    elapsed,
		Allocs:     after.Mallocs - before.Mallocs,
		Bytes:      after.TotalAlloc - before.TotalAlloc,
	}, nil
}

// WarmupBatches warms a benchmark up: it calls measure on batches of 1, 2,
// 4, … iterations until they have run for d in all, or at least 200
// iterations are done and the last batch took a millisecond, or the next
// batch would take more than 4d (a doubling must not overshoot the warm-up
// by much), or a batch reaches maxN/2 iterations (the next would pass
// maxN). It returns the last batch, whose time per operation sizes what
// comes next. measure decides what surrounds each batch (collections, the
// collector's settings); the harness and the A/B worker warm up this same
// way, so caches, branch predictors and lazily built codec state
// (reflection caches, type descriptors) reach the same steady state in
// both before anything is measured.
func WarmupBatches(d time.Duration, maxN int, measure func(n int) (Sample, error)) (Sample, error) {
	var spent time.Duration
	iters := 0
	for n := 1; ; n *= 2 {
		s, err := measure(n)
		if err != nil {
			return Sample{}, err
		}
		spent += s.Elapsed
		iters += n
		if spent >= d || (iters >= 200 && s.Elapsed >= time.Millisecond) || n >= maxN/2 {
			return s, nil
		}
		if next := time.Duration(s.NsPerOp() * float64(2*n)); next > 4*d {
			return s, nil
		}
	}
}

// gcOff switches the garbage collector off (and any memory limit, which
// would otherwise still trigger collections) and returns the function that
// restores both settings.
func gcOff() (restore func()) {
	oldPercent := debug.SetGCPercent(-1)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	return func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}

// Measure runs n iterations of b as one timed batch. The heap is collected
// before the batch and the collector is off during it (so one benchmark's
// garbage is not collected on another's time, and a collection cycle does
// not land inside some samples and not others); the settings are restored
// afterwards.
//
// One untimed operation runs first: it refills what the collection emptied
// (sync.Pool caches that encoders keep), so the batch's allocation counts
// are per operation and do not depend on how many operations the batch
// holds — otherwise two runs that sized their batches differently would
// differ in allocs/op with the code unchanged.
func (b *Benchmark) Measure(n int) (Sample, error) {
	runtime.GC()
	defer gcOff()()
	if err := b.loop(1); err != nil {
		return Sample{}, fmt.Errorf("%s: %w", b.Name, err)
	}
	s, err := TimeLoop(b.loop, n)
	if err != nil {
		return Sample{}, fmt.Errorf("%s: %w", b.Name, err)
	}
	return s, nil
}

// Runner measures a set of benchmarks in interleaved rounds: each round
// runs every benchmark once, in a freshly shuffled order, so slow drift of
// the machine (thermal, neighbours, frequency) hits every benchmark alike
// instead of whichever happened to run last. It can run one round at a
// time, so other drivers (same-runner A/B) can sit on top of it.
type Runner struct {
	opts    Options
	benches []*Benchmark
	rng     *rand.Rand
	est     []estimate
	samples [][]Sample
	start   time.Time
	// overhead is the mean time a sample costs beyond its timed batch
	// (collection, memory statistics), used to plan batches.
	overhead     time.Duration
	overheadN    int
	lastProgress time.Time
}

// estimate is what the runner knows about a benchmark's cost.
type estimate struct {
	ns    float64 // per op
	bytes float64 // allocated per op
}

// estimateOf is the cost per operation a sample shows.
func estimateOf(s Sample) estimate {
	return estimate{ns: s.NsPerOp(), bytes: float64(s.Bytes) / float64(s.Iterations)}
}

// NewRunner returns a runner for benches.
func NewRunner(benches []*Benchmark, opts Options) *Runner {
	opts.defaults()
	return &Runner{
		opts:    opts,
		benches: benches,
		rng:     rand.New(rand.NewPCG(opts.Seed, 0x7769726562656e63)),
		est:     make([]estimate, len(benches)),
		samples: make([][]Sample, len(benches)),
	}
}

// Warmup runs every benchmark in doubling batches until it has run for
// Options.Warmup (at least one iteration, at most about 200 beyond the
// first timed batch; see WarmupBatches) and estimates its cost per
// operation from the last batch. The warm-up brings caches, branch
// predictors and lazily built codec state (reflection caches, type
// descriptors) to their steady state before any sample is taken.
func (r *Runner) Warmup(ctx context.Context) error {
	if r.start.IsZero() {
		r.start = time.Now()
	}
	defer gcOff()()
	for i, b := range r.benches {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := WarmupBatches(r.opts.Warmup, math.MaxInt, b.Measure)
		if err != nil {
			return err
		}
		r.est[i] = estimateOf(s)
	}
	r.progressf(true, "warmed up %d benchmarks in %s", len(r.benches), time.Since(r.start).Round(time.Millisecond))
	return nil
}

// plan returns the batch size of every benchmark for the next round, so the
// remaining rounds fit the remaining budget: every benchmark gets the same
// target time t per sample, except those whose single operation already
// takes longer (they run one iteration). t is found by water-filling.
func (r *Runner) plan(roundsLeft int) []int {
	remaining := r.opts.Budget - time.Since(r.start)
	perRound := float64(remaining)/float64(max(roundsLeft, 1)) - float64(r.overhead)*float64(len(r.benches))
	costs := make([]float64, len(r.est))
	for i, e := range r.est {
		costs[i] = e.ns
	}
	t := WaterLevel(costs, perRound)
	t = min(max(t, float64(100*time.Microsecond)), float64(time.Second))
	n := make([]int, len(r.benches))
	for i, e := range r.est {
		k := max(1, int(math.Round(t/max(e.ns, 1))))
		if e.bytes > 0 {
			k = min(k, max(1, int(float64(r.opts.MaxBatchBytes)/e.bytes)))
		}
		n[i] = k
	}
	return n
}

// WaterLevel returns t such that sum(max(t, c)) = total, or the smallest
// cost when even that does not fit: the time every benchmark gets in a
// round when the cheap ones are batched up to a common level and the
// expensive ones run once. The A/B orchestrator plans its visits with it.
func WaterLevel(costs []float64, total float64) float64 {
	c := slices.Clone(costs)
	slices.Sort(c)
	// With the k largest costs above the level, the rest share what is left.
	sumAbove := 0.0
	for k := 0; k < len(c); k++ {
		below := len(c) - k
		t := (total - sumAbove) / float64(below)
		if t >= c[below-1] {
			return t
		}
		sumAbove += c[below-1]
	}
	if len(c) == 0 {
		return 0
	}
	return c[0]
}

// Round measures every benchmark once, in a freshly shuffled order.
func (r *Runner) Round(ctx context.Context, roundsLeft int) error {
	if r.start.IsZero() {
		r.start = time.Now()
	}
	defer gcOff()()
	batch := r.plan(roundsLeft)
	order := r.rng.Perm(len(r.benches))
	for _, i := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		s, err := r.benches[i].Measure(batch[i])
		if err != nil {
			return err
		}
		r.samples[i] = append(r.samples[i], s)
		r.est[i] = estimateOf(s)
		over := time.Since(t0) - s.Elapsed
		r.overheadN++
		r.overhead += (over - r.overhead) / time.Duration(r.overheadN)
	}
	return nil
}

// Run warms up and measures Samples rounds.
//
// The collector stays off for the whole run, with an explicit collection
// before every batch. (Page faults are the other source of noise for
// benchmarks that allocate megabytes: see the madvdontneed setting in
// cmd/wirebench.)
func (r *Runner) Run(ctx context.Context) error {
	r.start = time.Now()
	defer gcOff()()
	r.progressf(true, "measuring %d benchmarks × %d samples, budget %s", len(r.benches), r.opts.Samples, r.opts.Budget)
	if err := r.Warmup(ctx); err != nil {
		return err
	}
	minimum := 0.0
	for _, e := range r.est {
		minimum += e.ns
	}
	if need := time.Duration(minimum * float64(r.opts.Samples)); need > r.opts.Budget-time.Since(r.start) {
		r.progressf(true, "the budget %s is too small for %d samples of one operation each (about %s): the run will take longer", r.opts.Budget, r.opts.Samples, need.Round(time.Second))
	}
	for k := range r.opts.Samples {
		if err := r.Round(ctx, r.opts.Samples-k); err != nil {
			return err
		}
		r.progressf(k == r.opts.Samples-1, "round %d/%d, %s elapsed", k+1, r.opts.Samples, time.Since(r.start).Round(100*time.Millisecond))
	}
	return nil
}

// progressf writes a progress line at most every two seconds, unless
// always is set.
func (r *Runner) progressf(always bool, format string, args ...any) {
	if r.opts.Progress == nil {
		return
	}
	if !always && time.Since(r.lastProgress) < 2*time.Second {
		return
	}
	r.lastProgress = time.Now()
	fmt.Fprintf(r.opts.Progress, "wirebench: "+format+"\n", args...)
}

// Results returns what was measured, one benchmark per entry in the order
// the benchmarks were given. Serialize benchmarks carry the encoded size.
func (r *Runner) Results(suite string, env results.Env) *results.Results {
	res := results.New(suite, env)
	res.Settings = results.Settings{
		Samples:       r.opts.Samples,
		Budget:        r.opts.Budget,
		Seed:          r.opts.Seed,
		Source:        "wirebench",
		Elapsed:       time.Since(r.start),
		Rounds:        r.rounds(),
		Warmup:        r.opts.Warmup,
		MaxBatchBytes: r.opts.MaxBatchBytes,
	}
	for i, b := range r.benches {
		rb := results.Benchmark{Name: b.Name, Codec: b.Codec, Dataset: b.Dataset, Op: b.Op}
		for _, s := range r.samples[i] {
			rb.Iterations = append(rb.Iterations, int64(s.Iterations))
			rb.Add(results.UnitNsPerOp, s.NsPerOp())
		}
		for _, s := range r.samples[i] {
			rb.Add(results.UnitBytesPerOp, s.BytesPerOp())
		}
		for _, s := range r.samples[i] {
			rb.Add(results.UnitAllocsPerOp, s.AllocsPerOp())
		}
		if b.Op == OpSerialize {
			rb.Add(results.UnitBytesPerMsg, float64(b.Size))
		}
		if len(rb.Iterations) > 0 {
			res.Benchmarks = append(res.Benchmarks, rb)
		}
	}
	return res
}

func (r *Runner) rounds() int {
	n := 0
	for _, s := range r.samples {
		n = max(n, len(s))
	}
	return n
}
