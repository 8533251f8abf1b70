package ab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/stats"
	"github.com/wirebench/wirebench/internal/worker"
)

// Defaults of Counting.
const (
	// DefaultProcesses is the worker processes a build is counted in: a
	// count moves between processes (map order and hash seeds are drawn
	// per process), so processes are the replicates.
	DefaultProcesses = 5
	// DefaultCountBlocks is the counted blocks of a benchmark in each
	// process, reduced to their median (one block for benchmarks whose
	// single operation fills a block).
	DefaultCountBlocks = 3
	// DefaultCountBlock is the native time a counted block aims at when
	// its iterations are chosen: about 2 ms, a few million instructions.
	DefaultCountBlock = 2 * time.Millisecond
	// DefaultCountBlockBytes bounds what a counted block may allocate with
	// the collector off.
	DefaultCountBlockBytes = 32 << 20
	// DefaultCostlyProcesses is the processes a costly benchmark (one
	// whose single operation takes DefaultCostly natively or longer) is
	// counted in, when Processes is more: the suite's floats-1m
	// benchmarks, a few hundred million to three billion instructions an
	// operation, were 77% of what a process counted, and their counts
	// spread 0.01-0.18% between processes (but for msgpack's, bimodal),
	// so three processes resolve them to about 2%, and a regression is
	// counted again in further processes before it fails (confirm).
	DefaultCostlyProcesses = 3
	// DefaultCostly is the native time of one operation from which a
	// benchmark is costly.
	DefaultCostly = 10 * time.Millisecond
	// countSlowdown is how many times longer than natively a counted
	// block may take before its request times out: callgrind ran
	// CPU-bound Go code about 57 times slower here, 120 times with the
	// cache simulation.
	countSlowdown = 400
	// calibrationWarmup is each benchmark's native warm-up, whose last
	// batch sizes its counted blocks.
	calibrationWarmup = 20 * time.Millisecond
)

// Counting says how a counted measurement counts (see Count and
// CountSolo). The zero value of a field means its default.
type Counting struct {
	// Valgrind is the Valgrind that counts; Callgrind its options.
	Valgrind  callgrind.Valgrind
	Callgrind callgrind.Options
	// Processes is the worker processes each build is counted in.
	Processes int
	// Blocks is the counted blocks of a benchmark in each process.
	Blocks int
	// Jobs is how many counted processes run at once: counts do not
	// depend on what runs beside them, so by default as many as the CPUs
	// this process may use.
	Jobs int
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
}

func (c *Counting) defaults() {
	if c.Processes <= 0 {
		c.Processes = DefaultProcesses
	}
	if c.Blocks <= 0 {
		c.Blocks = DefaultCountBlocks
	}
	if c.Jobs <= 0 {
		c.Jobs = runtime.NumCPU()
	}
	if c.Block <= 0 {
		c.Block = DefaultCountBlock
	}
	if c.CostlyProcesses <= 0 {
		c.CostlyProcesses = DefaultCostlyProcesses
	}
	if c.Costly <= 0 {
		c.Costly = DefaultCostly
	}
	if c.MaxBlockBytes <= 0 {
		c.MaxBlockBytes = DefaultCountBlockBytes
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
}

// CountOptions say where and how counted worker processes run.
type CountOptions struct {
	Counting
	// Dir is where the dumps go (made if needed; the sandbox's user must
	// be able to write it).
	Dir string
	// BaseEnv and HeadEnv are the workers' environments (secrets are
	// dropped); nil the process's. Stderr receives their diagnostics.
	BaseEnv, HeadEnv []string
	Stderr           io.Writer
	// Sandbox runs the workers as its unprivileged user; nil as is.
	Sandbox *sandbox.Sandbox
	// Progress receives progress lines; nil is silent.
	Progress io.Writer
}

// counter wraps the parts of a program for counting: under callgrind,
// each process's dumps in a file of its own under dir.
type counter struct {
	valgrind callgrind.Valgrind
	options  callgrind.Options
	dir      string
	mu       sync.Mutex
	started  int
}

// wrap returns cmd run by callgrind and the file its dumps go to.
func (c *counter) wrap(cmd worker.Command, label string) (worker.Command, string) {
	c.mu.Lock()
	c.started++
	n := c.started
	c.mu.Unlock()
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(label))
	out := filepath.Join(c.dir, fmt.Sprintf("%03d-%s", n, safe), "callgrind.out")
	cmd.Args = c.options.Args(out, cmd.Path, cmd.Args)
	cmd.Path = c.valgrind.Path
	cmd.Env = callgrind.Env(cmd.Env)
	return cmd, out
}

// calibration is what a native run of a build says before it is
// counted: its handshake and benchmarks, their encoded sizes and their
// cost per operation.
type calibration struct {
	hello   worker.Hello
	names   []string
	sizes   map[string]int
	nsPerOp map[string]float64
	bytesOp map[string]float64
}

// calibrate starts p natively and warms every benchmark up briefly, to
// learn what it costs and how large its counted blocks should be. Only
// the native clock decides block sizes: under Valgrind a clock reads
// tens of times slow, and iteration counts there must be fixed.
func calibrate(ctx context.Context, side string, p Program, env []string, o CountOptions, lists *listCache) (*calibration, error) {
	w, err := startProgram(ctx, side, side, p, env, StartOptions{Stderr: o.Stderr, Sandbox: o.Sandbox}, lists)
	if err != nil {
		return nil, err
	}
	defer w.close()
	h := w.Handshake()
	c := &calibration{hello: h, names: h.Benchmarks, sizes: map[string]int{}, nsPerOp: map[string]float64{}, bytesOp: map[string]float64{}}
	for _, name := range c.names {
		s, err := w.Warmup(ctx, name, calibrationWarmup)
		if err != nil {
			return nil, err
		}
		c.nsPerOp[name] = s.NsPerOp()
		c.bytesOp[name] = float64(s.Bytes) / float64(max(s.Iterations, 1))
		if c.sizes[name], err = w.Size(ctx, name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// blockSize is the iterations of a counted block of a benchmark that
// costs ns and allocates bytes per operation natively: the largest power
// of two that fits the block's time and memory, at least 1. A power of
// two, so that the same benchmark measured on another day, a little
// faster or slower, mostly gets the same size.
func (c Counting) blockSize(ns, bytes float64) int {
	n := max(1.0, float64(c.Block)/max(ns, 1))
	if bytes > 0 {
		n = min(n, max(1, float64(c.MaxBlockBytes)/bytes))
	}
	return 1 << int(math.Floor(math.Log2(n)))
}

// countPlan is what every counted process of a run does: the benchmarks
// and their block sizes, and how a count per operation is made.
type countPlan struct {
	names      []string
	iterations map[string]int
	nsPerOp    map[string]float64
	// processes is how many processes count each benchmark: Processes,
	// or CostlyProcesses for a costly one.
	processes map[string]int
	// difference is set for workers whose blocks include a benchmark
	// function's own setup (worker.Hello.BlockSetup); warmed for those
	// whose blocks warm themselves up (worker.Hello.TimerHooks), which
	// need no uncounted iterations before them.
	difference, warmed bool
}

// processCounts is what one process counted: per benchmark, its value of
// every unit.
type processCounts map[string]map[string]float64

// countProcess counts every benchmark of plan in one fresh process of p
// under callgrind, in an order drawn from rng.
func (r *countRun) countProcess(ctx context.Context, side, label string, p Program, env []string, plan *countPlan, rng *rand.Rand) (processCounts, error) {
	w, err := startProgram(ctx, side, label, p, env, StartOptions{Stderr: r.o.Stderr, Sandbox: r.o.Sandbox, counter: r.counter}, r.lists)
	if err != nil {
		return nil, err
	}
	defer w.close()
	if err := w.countable(); err != nil {
		return nil, w.fail(err)
	}
	r.noteHeap(side, w.countHeap())
	out := processCounts{}
	order := rng.Perm(len(plan.names))
	for k, i := range order {
		name := plan.names[i]
		nextCostly := k+1 < len(order) && r.costly(plan, plan.names[order[k+1]])
		v, err := r.countBenchmark(ctx, w, name, plan, nextCostly)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

// costly reports whether one operation of the benchmark name takes
// Costly natively or longer.
func (r *countRun) costly(plan *countPlan, name string) bool {
	return plan.nsPerOp[name] >= float64(r.o.Costly)
}

// countBenchmark counts one benchmark in worker w: Blocks counted blocks
// (one for a benchmark whose single operation fills a block), the first
// after an uncounted block of the same size and the others after one
// uncounted operation (none for a worker whose blocks warm themselves
// up), each reduced to counts per operation; their median per unit is
// the process's value.
//
// Instrumentation stays on after a block unless what comes next is
// costly (its uncounted operation, run instrumented, would cost as much
// as counting it): switching it on and off re-translates all the code the
// process runs, which measured here took half the time of counting the
// suite's medium and large datasets.
func (r *countRun) countBenchmark(ctx context.Context, w *multi, name string, plan *countPlan, nextCostly bool) (map[string]float64, error) {
	n := plan.iterations[name]
	blocks := r.o.Blocks
	if n == 1 {
		blocks = 1
	}
	per := map[string][]float64{}
	for k := range blocks {
		pre := 1
		switch {
		case plan.warmed:
			pre = 0
		case k == 0:
			pre = n
		}
		var v map[string]float64
		var err error
		if plan.difference {
			v, err = r.differenceBlock(ctx, w, name, n, pre, plan.nsPerOp[name])
		} else {
			keep := !nextCostly
			if k+1 < blocks {
				keep = !r.costly(plan, name)
			}
			v, err = r.plainBlock(ctx, w, name, n, pre, plan.nsPerOp[name], keep)
		}
		if err != nil {
			return nil, err
		}
		for u, x := range v {
			per[u] = append(per[u], x)
		}
	}
	out := map[string]float64{}
	for u, xs := range per {
		out[u], _ = stats.Median(xs)
	}
	return out, nil
}

// timeout bounds a counted request that runs iters iterations of a
// benchmark costing ns per operation natively.
func timeout(ns float64, iters int) time.Duration {
	return worker.DefaultTimeout + time.Duration(countSlowdown*ns*float64(iters))
}

// plainBlock is one counted block of n iterations after pre uncounted
// ones: its counts over n; keep leaves instrumentation on after it.
func (r *countRun) plainBlock(ctx context.Context, w *multi, name string, n, pre int, ns float64, keep bool) (map[string]float64, error) {
	s, c, err := w.Count(ctx, name, n, pre, timeout(ns, n+pre), keep)
	if err != nil {
		return nil, err
	}
	v := r.perOp(c, float64(n))
	v[results.UnitAllocsPerOp], v[results.UnitBytesPerOp] = s.AllocsPerOp(), s.BytesPerOp()
	for u, x := range s.Metrics {
		v[u] = x
	}
	return v, nil
}

// differenceBlock counts a benchmark whose blocks include its own setup
// (a go test benchmark function, run whole with -test.benchtime=Nx): a
// block of n iterations and one of 2n, whose difference over n is the
// count of n operations alone. The allocations and the units the
// benchmark reported are the testing package's, per operation, from the
// larger block.
func (r *countRun) differenceBlock(ctx context.Context, w *multi, name string, n, pre int, ns float64) (map[string]float64, error) {
	_, c1, err := w.Count(ctx, name, n, pre, timeout(ns, n+pre), false)
	if err != nil {
		return nil, err
	}
	s2, c2, err := w.Count(ctx, name, 2*n, 0, timeout(ns, 2*n), false)
	if err != nil {
		return nil, err
	}
	v := map[string]float64{results.UnitInstructionsPerOp: math.Max(0, float64(c2.Ir)-float64(c1.Ir)) / float64(n)}
	if c1.CacheSim && c2.CacheSim {
		v[results.UnitEstCyclesPerOp] = math.Max(0, c2.EstCycles()-c1.EstCycles()) / float64(n)
	}
	v[results.UnitAllocsPerOp], v[results.UnitBytesPerOp] = s2.AllocsPerOp(), s2.BytesPerOp()
	for u, x := range s2.Metrics {
		v[u] = x
	}
	return v, nil
}

// perOp is the counted units of c over n operations.
func (r *countRun) perOp(c callgrind.Counts, n float64) map[string]float64 {
	v := map[string]float64{results.UnitInstructionsPerOp: float64(c.Ir) / n}
	if c.CacheSim {
		v[results.UnitEstCyclesPerOp] = c.EstCycles() / n
	}
	return v
}

// countRun is a counted measurement under way.
type countRun struct {
	o       CountOptions
	counter *counter
	lists   *listCache
	start   time.Time
	mu      sync.Mutex
	done    int
	total   int
	// heaps is, per side ("" for CountSolo), the worker.Hello.CountHeap
	// its counted processes announced: one value when they all agreed,
	// "" otherwise.
	heaps map[string]string
}

// noteHeap records the CountHeap of one counted process of side.
func (r *countRun) noteHeap(side, heap string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.heaps == nil {
		r.heaps = map[string]string{}
	}
	if prev, ok := r.heaps[side]; ok && prev != heap {
		heap = ""
	}
	r.heaps[side] = heap
}

// heap is the CountHeap side's counted processes agreed on.
func (r *countRun) heap(side string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.heaps[side]
}

func newCountRun(o CountOptions) (*countRun, error) {
	o.defaults()
	if o.Valgrind.Path == "" {
		return nil, fmt.Errorf("%w: counting needs valgrind: install it with %s", ErrSetup, callgrind.InstallHint)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSetup, err)
	}
	if err := o.Sandbox.Own(o.Dir); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSetup, err)
	}
	return &countRun{o: o, counter: &counter{valgrind: o.Valgrind, options: o.Callgrind, dir: o.Dir},
		lists: &listCache{names: map[string][]string{}}, start: time.Now()}, nil
}

// job is one counted process to run: which build, with which plan.
type job struct {
	side, label string
	prog        Program
	env         []string
	plan        *countPlan
	seed        uint64
	// replicate is which of the Processes replicates the process
	// belongs to (CountSolo may split one into several processes).
	replicate int
	out       processCounts
}

// runJobs runs the jobs in their order, at most Jobs at a time. The
// first error ends the others; a head's error is preferred, since it is
// the pull request's.
func (r *countRun) runJobs(ctx context.Context, jobs []*job) error {
	r.total = len(jobs)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, r.o.Jobs)
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		// A slot is taken here, not in the goroutine, so that jobs start
		// in order (the longest first, base and head alternating).
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			for k := i; k < len(jobs); k++ {
				errs[k] = ctx.Err()
			}
			wg.Wait()
			return firstError(errs)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			t0 := time.Now()
			out, err := r.countProcess(ctx, j.side, j.label, j.prog, j.env, j.plan, rand.New(rand.NewPCG(j.seed, 0x636f756e74)))
			if err != nil {
				errs[i] = underValgrind(err)
				cancel()
				return
			}
			j.out = out
			r.progressf("counted %s in %s (%d of %d processes, %s elapsed)", j.label, time.Since(t0).Round(100*time.Millisecond), r.finished(), r.total, time.Since(r.start).Round(time.Second))
		}()
	}
	wg.Wait()
	return firstError(errs)
}

// firstError is the error of a set of jobs that stopped at the first:
// the head's own failure when it has one (the pull request's doing), else
// the first that is not the cancellation the first error caused.
func firstError(errs []error) error {
	var first, cancelled error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled):
			// A head process that the base's failure stopped is not the
			// head's fault.
			cancelled = cmp.Or(cancelled, err)
		case Side(err) == "head":
			return err
		default:
			first = cmp.Or(first, err)
		}
	}
	return cmp.Or(first, cancelled)
}

// underValgrind explains a process that Valgrind stopped with SIGILL:
// the benchmark ran natively (its block was sized outside Valgrind), so
// the instruction is one the CPU has and Valgrind does not implement
// (AVX-512 among them). Valgrind's own diagnosis of it is not shown:
// callgrind runs with -q, so that its output is only the program's.
func underValgrind(err error) error {
	if !strings.Contains(err.Error(), "SIGILL") {
		return err
	}
	return fmt.Errorf("%w\n(the process crashed under Valgrind with SIGILL, after running natively: it runs an instruction this CPU has and Valgrind does not implement, such as AVX-512. Select such code by CPU feature (golang.org/x/sys/cpu: Valgrind reports the features it implements), or measure this benchmark with --metric time)", err)
}

func (r *countRun) finished() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	return r.done
}

func (r *countRun) progressf(format string, args ...any) {
	if r.o.Progress != nil {
		fmt.Fprintf(r.o.Progress, "wirebench: "+format+"\n", args...)
	}
}

// selected is names without those Counting.Only leaves out.
func (r *countRun) selected(names []string) []string {
	if len(r.o.Only) == 0 {
		return names
	}
	var out []string
	for _, n := range names {
		if slices.Contains(r.o.Only, n) {
			out = append(out, n)
		}
	}
	return out
}

// plan is the counting plan of the benchmarks names of a build
// calibrated as cal: each benchmark's block size kept from
// Counting.Iterations, or sized from cal.
func (r *countRun) plan(names []string, cal *calibration) *countPlan {
	p := &countPlan{names: names, iterations: map[string]int{}, nsPerOp: map[string]float64{}, processes: map[string]int{},
		difference: cal.hello.BlockSetup, warmed: cal.hello.TimerHooks}
	for _, n := range names {
		p.nsPerOp[n] = cal.nsPerOp[n]
		p.processes[n] = r.o.Processes
		if cal.nsPerOp[n] >= float64(r.o.Costly) {
			p.processes[n] = min(r.o.Processes, r.o.CostlyProcesses)
		}
		if k, ok := r.o.Iterations[n]; ok && k > 0 {
			p.iterations[n] = k
			continue
		}
		p.iterations[n] = r.o.blockSize(cal.nsPerOp[n], cal.bytesOp[n])
	}
	return p
}

// results turns the processes' counts of one build into results: per
// benchmark one sample of every unit per process, its block size as the
// sample's iterations, the encoded size of serialize benchmarks.
func (r *countRun) results(side string, h worker.Hello, plan *countPlan, sizes map[string]int, procs []processCounts) *results.Results {
	res := results.New(h.Suite, h.Env)
	// The hello is the calibration's, run natively; every counted
	// process ran with GOMAXPROCS=1 (callgrind.Env).
	res.Env.GOMAXPROCS = 1
	method := results.CountBlock
	switch {
	case plan.difference:
		method = results.CountDifference
	case plan.warmed:
		method = results.CountTimer
	}
	res.Settings = results.Settings{Seed: r.o.Seed, Source: "wirebench count", Elapsed: time.Since(r.start), Rounds: len(procs),
		Counter: &results.Counter{Tool: "callgrind", Version: r.o.Valgrind.Version, CacheSim: r.o.Callgrind.CacheSim,
			Geometry: r.o.Callgrind.Geometry(), Method: method, Processes: len(procs), Blocks: r.o.Blocks, Heap: r.heap(side)}}
	for _, key := range plan.names {
		pkg, name := results.SplitKey(key)
		codec, dataset, op := results.NameParts(name)
		b := results.Benchmark{Pkg: pkg, Name: name, Codec: codec, Dataset: dataset, Op: op}
		units := map[string]bool{}
		for _, p := range procs {
			if _, ok := p[key]; !ok {
				continue // a process that did not count it (a costly benchmark's)
			}
			b.Iterations = append(b.Iterations, int64(plan.iterations[key]))
			for u := range p[key] {
				units[u] = true
			}
		}
		for _, u := range orderedUnits(units) {
			for _, p := range procs {
				if x, ok := p[key][u]; ok {
					b.Add(u, x)
				}
			}
		}
		if op == results.OpSerialize && sizes[key] > 0 && b.Metric(results.UnitBytesPerMsg) == nil {
			b.Add(results.UnitBytesPerMsg, float64(sizes[key]))
		}
		res.Benchmarks = append(res.Benchmarks, b)
	}
	return res
}

// orderedUnits are the counted units first, then the allocations, then
// the rest sorted: the order tables show them in.
func orderedUnits(units map[string]bool) []string {
	var out []string
	for _, u := range []string{results.UnitInstructionsPerOp, results.UnitEstCyclesPerOp, results.UnitBytesPerOp, results.UnitAllocsPerOp} {
		if units[u] {
			out = append(out, u)
			delete(units, u)
		}
	}
	rest := make([]string, 0, len(units))
	for u := range units {
		rest = append(rest, u)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// CountSolo counts the benchmarks of one program, for a comparison with
// a stored baseline: it sizes the blocks from a native warm-up (or keeps
// o.Iterations'), then counts every benchmark in o.Processes fresh
// processes under callgrind, o.Jobs at a time. The result has one sample
// of every unit per process.
func CountSolo(ctx context.Context, p Program, o CountOptions) (*results.Results, error) {
	r, err := newCountRun(o)
	if err != nil {
		return nil, err
	}
	cal, err := calibrate(ctx, "", p, r.o.BaseEnv, r.o, r.lists)
	if err != nil {
		return nil, err
	}
	if len(cal.names) == 0 {
		return nil, fmt.Errorf("the benchmarks selected are none")
	}
	plan := r.plan(r.selected(cal.names), cal)
	if len(plan.names) == 0 {
		return nil, fmt.Errorf("none of the %d benchmarks to count (%s) is in the build", len(r.o.Only), strings.Join(r.o.Only, ", "))
	}
	jobs := r.soloJobs(p, plan)
	how := fmt.Sprintf("%d processes", r.o.Processes)
	if len(jobs) > r.o.Processes {
		how = fmt.Sprintf("%d replicates (%d processes: each replicate's benchmarks split between processes of equal cost)", r.o.Processes, len(jobs))
	}
	r.progressf("counting %d benchmarks in %s under callgrind (valgrind %s, cache simulation %s), %d at a time",
		len(plan.names), how, r.o.Valgrind.Version, cacheSimText(r.o.Callgrind), r.o.Jobs)
	if err := r.runJobs(ctx, jobs); err != nil {
		return nil, err
	}
	procs := make([]processCounts, r.o.Processes)
	for _, j := range jobs {
		if procs[j.replicate] == nil {
			procs[j.replicate] = processCounts{}
		}
		maps.Copy(procs[j.replicate], j.out)
	}
	return r.results("", cal.hello, plan, cal.sizes, procs), nil
}

// soloJobs is the counted processes of CountSolo, longest first. Each of
// the Processes replicates is one process, unless Processes is not a
// multiple of Jobs: then every replicate is split into Jobs processes of
// about equal cost, so that no CPU waits through a last round alone (5
// processes 2 at a time take 3 rounds whole, 2.5 in halves). A
// benchmark is still counted in as many distinct processes as before:
// a replicate is a set of processes no other replicate shares.
func (r *countRun) soloJobs(p Program, plan *countPlan) []*job {
	parts := 1
	if r.o.Jobs > 1 && r.o.Processes%r.o.Jobs != 0 {
		parts = r.o.Jobs
	}
	var jobs []*job
	for k := range r.o.Processes {
		split := plan.forProcess(k).split(parts, r.o.Blocks)
		for i, q := range split {
			label := fmt.Sprintf("process %d", k+1)
			if len(split) > 1 {
				label = fmt.Sprintf("process %d (part %d of %d)", k+1, i+1, len(split))
			}
			jobs = append(jobs, &job{label: label, prog: p, env: r.o.BaseEnv, plan: q, seed: r.o.Seed + uint64(k) + uint64(i)<<32, replicate: k})
		}
	}
	costs := map[*job]float64{}
	for _, j := range jobs {
		costs[j] = j.plan.cost(r.o.Blocks)
	}
	slices.SortStableFunc(jobs, func(a, b *job) int { return cmp.Compare(costs[b], costs[a]) })
	return jobs
}

// Count compares the head build against the base build by their counted
// work: it sizes the blocks from a native warm-up of the base (the head
// is counted in blocks of the same sizes), counts every benchmark both
// builds have in o.Processes fresh processes of each under callgrind,
// o.Jobs at a time, base and head alternating, and compares the two sets
// of processes with compare.Compare, where a counted metric is tested by
// Welch's t on the processes (compare.TestWelch) and sizes and
// allocations exactly. why says why the run was made this way, for the
// report.
//
// Counts do not depend on what runs beside them, so unlike the timed
// comparison (Run) there is no pairing in time, no generations and no
// A/A check: the processes are the replicates, and the test's spread is
// theirs.
func Count(ctx context.Context, base, head Program, o CountOptions, opts compare.Options, why string) (*Outcome, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	r, err := newCountRun(o)
	if err != nil {
		return nil, err
	}
	calB, err := calibrate(ctx, "base", base, r.o.BaseEnv, r.o, r.lists)
	if err != nil {
		return nil, err
	}
	calH, err := calibrate(ctx, "head", head, r.o.HeadEnv, r.o, r.lists)
	if err != nil {
		return nil, err
	}
	if calB.hello.Suite != calH.hello.Suite {
		return nil, fmt.Errorf("the base build runs suite %q and the head build suite %q: compare builds of the same suite", calB.hello.Suite, calH.hello.Suite)
	}
	names, missing, added := intersect(calB.names, calH.names)
	if len(names) == 0 {
		return nil, fmt.Errorf("the base build (%d benchmarks) and the head build (%d) have no benchmark in common", len(calB.names), len(calH.names))
	}
	planB := r.plan(names, calB)
	planH := r.plan(names, calH)
	planH.iterations = planB.iterations // both builds count blocks of one size
	r.progressf("counting %d benchmarks (%d only in the base, %d only in the head) in %d processes of each build under callgrind (valgrind %s, cache simulation %s), %d at a time",
		len(names), len(missing), len(added), r.o.Processes, r.o.Valgrind.Version, cacheSimText(r.o.Callgrind), r.o.Jobs)
	var jobs []*job
	for k := range r.o.Processes {
		seed := r.o.Seed + uint64(k)
		jobs = append(jobs,
			&job{side: "base", label: fmt.Sprintf("base process %d", k+1), prog: base, env: r.o.BaseEnv, plan: planB.forProcess(k), seed: seed},
			&job{side: "head", label: fmt.Sprintf("head process %d", k+1), prog: head, env: r.o.HeadEnv, plan: planB.forProcess(k).withBuild(planH), seed: seed})
	}
	if err := r.runJobs(ctx, jobs); err != nil {
		return nil, err
	}
	var procsB, procsH []processCounts
	for _, j := range jobs {
		if j.side == "base" {
			procsB = append(procsB, j.out)
		} else {
			procsH = append(procsH, j.out)
		}
	}
	out := &Outcome{Base: r.results("base", calB.hello, planB, calB.sizes, procsB), Head: r.results("head", calH.hello, planH, calH.sizes, procsH)}
	res, err := compare.Compare(out.Base, out.Head, opts)
	if err != nil {
		return nil, err
	}
	if err := r.confirm(ctx, res, out, base, head, planB, planH, calB, calH, opts); err != nil {
		return nil, err
	}
	res.Missing, res.New = missing, added
	res.Method = compare.MethodCounted
	res.Why = why
	out.Result = res
	out.Elapsed = time.Since(r.start)
	out.Rounds, out.Generations = r.o.Processes, r.o.Processes
	return out, nil
}

// cacheSimText describes the cache simulation for progress lines.
func cacheSimText(o callgrind.Options) string {
	if !o.CacheSim {
		return "off"
	}
	return o.Geometry()
}

// confirm counts the benchmarks res has as regressions or improvements
// again, in as many fresh processes of each build as the first count, and
// judges them on all processes of both (settle). out's results get the
// further processes. A count can be bimodal by process (a code path
// chosen once per process: msgpack's float encoding, measured here, is
// ~5% apart between its modes), and two sets of five processes that
// landed in different modes would look like a certain change, either way.
func (r *countRun) confirm(ctx context.Context, res *compare.Result, out *Outcome, base, head Program, planB, planH *countPlan, calB, calH *calibration, opts compare.Options) error {
	flaggedNames := countedChanges(res)
	if len(flaggedNames) == 0 {
		return nil
	}
	r.progressf("%d counted changes: counting them again in %d fresh processes of each build", len(flaggedNames), r.o.Processes)
	pb, ph := planB.only(flaggedNames), planH.only(flaggedNames)
	var jobs []*job
	for k := range r.o.Processes {
		seed := r.o.Seed + uint64(r.o.Processes+k)
		jobs = append(jobs,
			&job{side: "base", label: fmt.Sprintf("base confirmation process %d", k+1), prog: base, env: r.o.BaseEnv, plan: pb, seed: seed},
			&job{side: "head", label: fmt.Sprintf("head confirmation process %d", k+1), prog: head, env: r.o.HeadEnv, plan: ph, seed: seed})
	}
	if err := r.runJobs(ctx, jobs); err != nil {
		return err
	}
	var procsB, procsH []processCounts
	for _, j := range jobs {
		if j.side == "base" {
			procsB = append(procsB, j.out)
		} else {
			procsH = append(procsH, j.out)
		}
	}
	out.Base.AddProcesses(r.results("base", calB.hello, pb, calB.sizes, procsB))
	out.Head.AddProcesses(r.results("head", calH.hello, ph, calH.sizes, procsH))
	out.Base.Settings.Elapsed, out.Head.Settings.Elapsed = time.Since(r.start), time.Since(r.start)
	all, err := compare.Compare(out.Base, out.Head, opts)
	if err != nil {
		return err
	}
	out.Confirmations = append(out.Confirmations, settle(res, all)...)
	out.ConfirmRounds = r.o.Processes
	return nil
}

// confirmable reports whether confirm counts c's benchmark again: a
// counted regression that would fail the run, or a counted improvement.
func confirmable(res *compare.Result, c compare.Comparison) bool {
	if c.Test != compare.TestWelch {
		return false
	}
	return c.Verdict == compare.Regression && res.Enforced(c) || c.Verdict == compare.Improvement
}

// countedChanges are the benchmarks of res's confirmable comparisons, by key.
func countedChanges(res *compare.Result) []string {
	var names []string
	for _, c := range res.Comparisons {
		if confirmable(res, c) && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

// settle re-judges res's confirmable comparisons by all, the comparison
// of every process of both builds, and returns the comparisons of all it
// used. A regression that does not hold there is marked unconfirmed
// (reported, not enforced); one that does says so in its note. An
// improvement that holds says so; one that does not is replaced by its
// judgement on all processes (compare.NotHeld).
func settle(res, all *compare.Result) []compare.Comparison {
	var used []compare.Comparison
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		if !confirmable(res, *c) {
			continue
		}
		for _, a := range all.Comparisons {
			if a.Name != c.Name || a.Unit != c.Unit {
				continue
			}
			used = append(used, a)
			what := fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%], p (adj.) = %.2g over %d+%d processes", 100*(a.Ratio-1), 100*(a.Lo-1), 100*(a.Hi-1), a.PAdjusted, a.Baseline.N, a.Candidate.N)
			switch {
			case c.Verdict == compare.Regression && a.Verdict == compare.Regression && all.Enforced(a):
				c.Note = joinNote(c.Note, "held on all processes: "+what)
			case c.Verdict == compare.Regression:
				c.Unconfirmed = true
				c.Note = joinNote(c.Note, "did not hold on all processes ("+what+"): reported, not enforced")
			case a.Verdict == compare.Improvement:
				c.Note = joinNote(c.Note, "held on all processes: "+what)
			default:
				*c = compare.NotHeld(*c, a)
			}
		}
	}
	return used
}

// cost is the native time of what a process with plan p counts, in
// nanoseconds: per benchmark its blocks and the uncounted one before
// them. Valgrind slows every benchmark by a similar factor, so it orders
// and balances processes.
func (p *countPlan) cost(blocks int) float64 {
	var c float64
	for _, n := range p.names {
		c += p.benchCost(n, blocks)
	}
	return c
}

// benchCost is the native time, in nanoseconds, of what a process counts
// of the benchmark name: its blocks (one when one operation fills a
// block) and the uncounted block before them.
func (p *countPlan) benchCost(name string, blocks int) float64 {
	if p.iterations[name] <= 1 {
		blocks = 1
	}
	return p.nsPerOp[name] * float64(p.iterations[name]) * float64(blocks+1)
}

// split is p's benchmarks in at most k plans of about equal cost, the
// costliest benchmark first into the plan with the least so far; a plan
// that would be empty is left out, and the names keep p's order.
func (p *countPlan) split(k, blocks int) []*countPlan {
	if k <= 1 || len(p.names) <= 1 {
		return []*countPlan{p}
	}
	byCost := slices.Clone(p.names)
	slices.SortStableFunc(byCost, func(a, b string) int { return cmp.Compare(p.benchCost(b, blocks), p.benchCost(a, blocks)) })
	sums := make([]float64, k)
	part := map[string]int{}
	for _, n := range byCost {
		i := slices.Index(sums, slices.Min(sums))
		part[n] = i
		sums[i] += p.benchCost(n, blocks)
	}
	var out []*countPlan
	for i := range k {
		var names []string
		for _, n := range p.names {
			if part[n] == i {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			out = append(out, p.only(names))
		}
	}
	return out
}

// forProcess is the plan of process k (from 0): the benchmarks counted in
// more than k processes.
func (p *countPlan) forProcess(k int) *countPlan {
	var names []string
	for _, n := range p.names {
		if p.processes[n] > k {
			names = append(names, n)
		}
	}
	return p.only(names)
}

// withBuild is p for the build whose own plan is b: p's benchmarks and
// block sizes, b's costs and way of counting.
func (p *countPlan) withBuild(b *countPlan) *countPlan {
	q := *b
	q.names, q.iterations, q.processes = p.names, p.iterations, p.processes
	return &q
}

// only is the plan for the benchmarks names of p alone.
func (p *countPlan) only(names []string) *countPlan {
	q := *p
	q.names = nil
	for _, n := range p.names {
		if slices.Contains(names, n) {
			q.names = append(q.names, n)
		}
	}
	return &q
}
