package ab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// call is one request a fake worker received.
type call struct {
	worker, op, name string
	n, pre           int
}

// fakeWorker answers like a worker, without running anything: a block of
// n iterations takes n * nsPerOp * slow(name) * noise nanoseconds.
type fakeWorker struct {
	label   string
	names   []string
	nsPerOp map[string]float64
	slow    func(name string) float64 // nil: 1
	noise   float64                   // sd of the log of a block's time
	size    map[string]int            // nil: 100
	allocs  uint64                    // per operation
	par     map[string]bool           // the benchmarks that call RunParallel
	rng     *rand.Rand
	mu      *sync.Mutex
	log     *[]call
}

func (f *fakeWorker) record(c call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	*f.log = append(*f.log, c)
}

func (f *fakeWorker) Handshake() worker.Hello {
	return worker.Hello{Protocol: worker.Protocol, Version: worker.Version, MinVersion: worker.MinVersion, Suite: "default",
		Benchmarks: f.names, Env: results.Env{GoVersion: "go1.26", Machine: "m"}}
}

func (f *fakeWorker) sample(name string, n int) bench.Sample {
	ns := f.nsPerOp[name]
	if ns == 0 {
		ns = 100
	}
	if f.slow != nil {
		ns *= f.slow(name)
	}
	e := float64(n) * ns
	if f.noise > 0 {
		e *= math.Exp(f.noise * f.rng.NormFloat64())
	}
	return bench.Sample{Iterations: n, Elapsed: time.Duration(e), Allocs: f.allocs * uint64(n), Bytes: 48 * f.allocs * uint64(n)}
}

func (f *fakeWorker) Warmup(_ context.Context, name string, _ time.Duration) (bench.Sample, error) {
	f.record(call{worker: f.label, op: "warmup", name: name})
	return f.sample(name, 100), nil
}

func (f *fakeWorker) Run(_ context.Context, name string, n, pre int) (bench.Sample, error) {
	if !slices.Contains(f.names, name) {
		return bench.Sample{}, fmt.Errorf("unknown benchmark %q", name)
	}
	f.record(call{worker: f.label, op: "run", name: name, n: n, pre: pre})
	return f.sample(name, n), nil
}

func (f *fakeWorker) Size(_ context.Context, name string) (int, error) {
	if s, ok := f.size[name]; ok {
		return s, nil
	}
	return 100, nil
}

// Parallel makes a fakeWorker a ParallelWorker.
func (f *fakeWorker) Parallel(name string) bool { return f.par[name] }

func (f *fakeWorker) GC(context.Context) error {
	f.record(call{worker: f.label, op: "gc"})
	return nil
}

// fakes builds spawners of fake workers.
type fakes struct {
	names   []string
	nsPerOp map[string]float64
	noise   float64
	// slow returns the slowdown of a worker ("base", "head", "base2") of
	// generation gen (0: the main phase) on a benchmark; nil: none.
	slow     func(gen int, label, name string) float64
	headSize map[string]int
	allocs   map[string]uint64 // per worker label
	parallel map[string]bool   // the benchmarks that call RunParallel

	mu     sync.Mutex
	log    []call
	gens   int
	spawns [][]string // names asked for, per generation
}

func (fk *fakes) spawner(seed uint64) Spawner {
	return func(ctx context.Context, names []string, aa bool) (*Generation, error) {
		fk.mu.Lock()
		gen := fk.gens
		fk.gens++
		fk.spawns = append(fk.spawns, names)
		fk.mu.Unlock()
		if names == nil {
			names = fk.names
		}
		mk := func(label string) *fakeWorker {
			w := &fakeWorker{label: label, names: names, nsPerOp: fk.nsPerOp, noise: fk.noise,
				rng: rand.New(rand.NewPCG(seed, streamOf(label, gen))), mu: &fk.mu, log: &fk.log, allocs: fk.allocs[label], par: fk.parallel}
			if fk.slow != nil {
				w.slow = func(name string) float64 { return fk.slow(gen, label, name) }
			}
			if label == "head" {
				w.size = fk.headSize
			}
			return w
		}
		g := &Generation{Base: mk("base"), Head: mk("head")}
		if aa {
			g.Base2 = mk("base2")
		}
		return g, nil
	}
}

// streamOf is the random stream of a worker's noise: its own for every
// label and generation (two workers sharing one would have identical
// noise, which pairing cancels exactly).
func streamOf(label string, gen int) uint64 {
	h := uint64(gen)*1_000_003 + 1
	for _, b := range []byte(label) {
		h = h*131 + uint64(b)
	}
	return h
}

func (fk *fakes) runs() []call {
	var out []call
	for _, c := range fk.log {
		if c.op == "run" {
			out = append(out, c)
		}
	}
	return out
}

func names(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("BenchmarkSerialize/codec=c%d/dataset=small", i))
	}
	return out
}

// TestOrdering checks the interleaving with fake workers: every round
// visits every benchmark once (Reps 1), in an order shuffled afresh, each
// visit a block of the base, the head and the second base worker adjacent
// in time, the base before the head iff the round is even, every worker in
// every position equally often.
func TestOrdering(t *testing.T) {
	const nBench, nRounds = 6, 12
	fk := &fakes{names: names(nBench)}
	o, err := Run(context.Background(), fk.spawner(1), Options{Seed: 42, Generations: 1, Rounds: nRounds, Reps: 1, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if o.Rounds != nRounds {
		t.Errorf("%d rounds, want %d", o.Rounds, nRounds)
	}
	runs := fk.runs()
	if len(runs) != nRounds*nBench*3 {
		t.Fatalf("%d blocks, want %d rounds × %d benchmarks × 3 workers", len(runs), nRounds, nBench)
	}
	var orders []string
	position := map[string][3]int{}
	for k := range nRounds {
		round := runs[k*nBench*3 : (k+1)*nBench*3]
		var order []string
		for v := range nBench {
			blocks := round[v*3 : v*3+3]
			name := blocks[0].name
			var who []string
			for p, b := range blocks {
				if b.name != name {
					t.Fatalf("round %d, visit %d: blocks of %s and %s are not adjacent", k, v, name, b.name)
				}
				who = append(who, b.worker)
				c := position[b.worker]
				c[p]++
				position[b.worker] = c
			}
			if slices.Index(who, "base") < 0 || slices.Index(who, "head") < 0 || slices.Index(who, "base2") < 0 {
				t.Fatalf("round %d, visit of %s: workers %v, want base, head and base2", k, name, who)
			}
			if baseFirst := slices.Index(who, "base") < slices.Index(who, "head"); baseFirst != (k%2 == 0) {
				t.Errorf("round %d, %s: order %v, want the base before the head iff the round is even", k, name, who)
			}
			order = append(order, name)
		}
		sorted := slices.Clone(order)
		slices.Sort(sorted)
		want := slices.Clone(fk.names)
		slices.Sort(want)
		if !slices.Equal(sorted, want) {
			t.Errorf("round %d visits %v, want every benchmark once", k, order)
		}
		orders = append(orders, strings.Join(order, ","))
	}
	distinct := map[string]bool{}
	for _, o := range orders {
		distinct[o] = true
	}
	if len(distinct) < nRounds-1 {
		t.Errorf("only %d distinct orders in %d rounds: not shuffled", len(distinct), nRounds)
	}
	for w, c := range position {
		if c[0] != c[1] || c[1] != c[2] {
			t.Errorf("worker %s by position %v: want every position equally often", w, c)
		}
	}
}

// TestOrderingReps checks the ABBA rule with several visits per round:
// the j-th visit of a benchmark in round k runs the base first iff k+j is
// even; and without the A/A check, visits are pairs.
func TestOrderingReps(t *testing.T) {
	const nBench, nRounds, reps = 3, 5, 4
	fk := &fakes{names: names(nBench)}
	_, err := Run(context.Background(), func(ctx context.Context, n []string, aa bool) (*Generation, error) {
		return fk.spawner(2)(ctx, n, false)
	}, Options{Seed: 7, Generations: 1, Rounds: nRounds, Reps: reps, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	runs := fk.runs()
	if len(runs) != nRounds*nBench*reps*2 {
		t.Fatalf("%d blocks, want %d", len(runs), nRounds*nBench*reps*2)
	}
	perRound := nBench * reps * 2
	for k := range nRounds {
		seen := map[string]int{}
		round := runs[k*perRound : (k+1)*perRound]
		for v := 0; v < len(round); v += 2 {
			a, b := round[v], round[v+1]
			if a.name != b.name || a.worker == b.worker {
				t.Fatalf("round %d: a visit is %v then %v", k, a, b)
			}
			j := seen[a.name]
			seen[a.name]++
			if baseFirst := a.worker == "base"; baseFirst != ((k+j)%2 == 0) {
				t.Errorf("round %d, visit %d of %s: %s first, want the base first iff k+j even", k, j, a.name, a.worker)
			}
		}
		for _, n := range fk.names {
			if seen[n] != reps {
				t.Errorf("round %d visits %s %d times, want %d", k, n, seen[n], reps)
			}
		}
	}
}

// TestCollectionsInLockstep: when a worker's garbage would pass the bound,
// every worker is collected, between visits, never inside one.
func TestCollectionsInLockstep(t *testing.T) {
	fk := &fakes{names: names(4), allocs: map[string]uint64{"base": 10, "head": 10, "base2": 10}}
	o, err := Run(context.Background(), fk.spawner(3), Options{Seed: 1, Generations: 1, Rounds: 20, Reps: 2, ConfirmBudget: -1, GCBound: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if o.Collections < 5 {
		t.Fatalf("%d collections with a 1 MiB bound", o.Collections)
	}
	var inVisit int
	for i, c := range fk.log {
		if c.op != "gc" {
			inVisit = 0
			if c.op == "run" {
				inVisit = 1
			}
			continue
		}
		// Collections come in threes, one per worker, and not between the
		// blocks of a visit (a visit's blocks are adjacent runs of one
		// benchmark).
		if i > 0 && i+1 < len(fk.log) && fk.log[i-1].op == "run" && fk.log[i+1].op == "run" &&
			fk.log[i-1].name == fk.log[i+1].name && inVisit == 1 && sameVisit(fk.log, i) {
			t.Errorf("a collection at %d splits a visit", i)
		}
	}
	counts := map[string]int{}
	for _, c := range fk.log {
		if c.op == "gc" {
			counts[c.worker]++
		}
	}
	if counts["base"] != counts["head"] || counts["head"] != counts["base2"] {
		t.Errorf("collections per worker %v, want the same for all", counts)
	}
}

// sameVisit reports whether the runs around index i belong to one visit:
// fewer than 3 runs of that benchmark precede i since the previous
// different call.
func sameVisit(log []call, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && log[j].op == "run" && log[j].name == log[i-1].name; j-- {
		n++
	}
	return n%3 != 0
}

// TestBlockSizing: a block is about Options.Block of work, a
// ParallelBlock for a benchmark that calls RunParallel, with a quarter of
// it untimed before.
func TestBlockSizing(t *testing.T) {
	ns := names(4)
	fk := &fakes{names: ns, nsPerOp: map[string]float64{
		ns[0]: 100,       // 10,000 per ms
		ns[1]: 2_000_000, // longer than a block: 1
		ns[2]: 1000,
		ns[3]: 1000, // calls RunParallel: 20 ms
	}, parallel: map[string]bool{ns[3]: true}}
	_, err := Run(context.Background(), fk.spawner(4), Options{Seed: 1, Generations: 1, Rounds: 2, Reps: 1, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{ns[0]: {10000, 2500}, ns[1]: {1, 0}, ns[2]: {1000, 250}, ns[3]: {20000, 5000}}
	seen := map[string]bool{}
	for _, c := range fk.runs() {
		seen[c.name] = true
		if w := want[c.name]; c.n != w[0] || c.pre != w[1] {
			t.Errorf("%s: n %d pre %d, want %d and %d", c.name, c.n, c.pre, w[0], w[1])
		}
	}
	if len(seen) != len(ns) {
		t.Errorf("ran %d benchmarks, want %d", len(seen), len(ns))
	}
}

func TestPlanReps(t *testing.T) {
	ms := time.Millisecond
	// Two cheap tasks (2 ms a visit) and one expensive (100 ms): 50 rounds
	// in 10 s leave 200 ms a round, so the cheap ones get 50 ms each.
	reps := planReps([]time.Duration{2 * ms, 2 * ms, 100 * ms}, 10*time.Second, 50, 2*ms, 40*ms)
	if reps[0] != 20 || reps[1] != 20 || reps[2] != 1 {
		t.Errorf("reps %v, want [20 20 1] (the cheap share capped at 40 ms)", reps)
	}
	reps = planReps([]time.Duration{2 * ms, 2 * ms, 100 * ms}, time.Second, 50, 2*ms, 40*ms)
	if reps[0] != 1 || reps[2] != 1 {
		t.Errorf("reps %v with a small budget, want one visit each", reps)
	}
}

func TestGroup(t *testing.T) {
	if g := group([]float64{1, 2, 3}, 5); len(g) != 3 {
		t.Errorf("group within the limit changed the data: %v", g)
	}
	g := group([]float64{1, 3, 5, 7, 9, 11, 13}, 3)
	if !slices.Equal(g, []float64{3, 9, 13}) {
		t.Errorf("group = %v, want means of threes [3 9 13]", g)
	}
}

// synthetic returns n pairs whose log ratio is log(ratio) plus normal
// noise of sd noise, on a base that drifts and bursts (common-mode noise
// that pairing cancels).
func synthetic(rng *rand.Rand, n int, ratio, noise float64) series {
	s := series{name: "BenchmarkX"}
	for i := range n {
		common := 1000 * (1 + 0.3*math.Sin(float64(i)/20)) * math.Exp(0.2*rng.NormFloat64())
		s.base = append(s.base, common*math.Exp(noise/math.Sqrt2*rng.NormFloat64()))
		s.other = append(s.other, common*ratio*math.Exp(noise/math.Sqrt2*rng.NormFloat64()))
	}
	return s
}

func defaultCompare() compare.Options {
	o := compare.Defaults()
	o.Threshold = DefaultThreshold
	o.Normalize = compare.NormalizeNever
	return o
}

func TestPairedDetectsTwoPercent(t *testing.T) {
	opts := defaultCompare()
	covered := 0
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		// A 2% slowdown with 1% per-pair noise over 200 rounds, judged in
		// a family of 84 (the default suite): a regression.
		ss := []series{synthetic(rng, 200, 1.02, 0.01)}
		for range 83 {
			ss = append(ss, synthetic(rng, 200, 1, 0.01))
		}
		cs := paired(ss, opts, noise{})
		c := cs[0]
		if c.Verdict != compare.Regression {
			t.Errorf("seed %d: 2%% slowdown: %s (ratio %.4f [%.4f, %.4f], p adj %.3g)", seed, c.Verdict, c.Ratio, c.Lo, c.Hi, c.PAdjusted)
		}
		if !c.Paired || c.Unit != results.UnitNsPerOp || c.Kind != compare.Noisy {
			t.Errorf("comparison not marked paired ns/op noisy: %+v", c)
		}
		if math.Abs(c.Ratio-1.02) > 0.005 {
			t.Errorf("seed %d: estimated ratio %.4f, want about 1.02", seed, c.Ratio)
		}
		if c.Lo < 1.02 && 1.02 < c.Hi {
			covered++
		}
		if !(c.MDE > 0 && c.MDE < 0.02) {
			t.Errorf("seed %d: MDE %v, want below 2%%", seed, c.MDE)
		}
		for _, u := range cs[1:] {
			if u.Verdict == compare.Regression || u.Verdict == compare.Improvement {
				t.Errorf("seed %d: an unchanged benchmark came out %s (%.4f)", seed, u.Verdict, u.Ratio)
			}
		}
	}
	// 95% intervals: 19 of 20 on average; fewer than 17 would be a bug.
	if covered < 17 {
		t.Errorf("the interval covered the true ratio in %d of 20 runs", covered)
	}
}

func TestPairedIdenticalStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	s := synthetic(rng, 300, 1, 0.01)
	s.other = slices.Clone(s.base)
	c := paired([]series{s}, defaultCompare(), noise{})[0]
	if c.Verdict != compare.Unchanged || c.Ratio != 1 || c.P != 1 {
		t.Errorf("identical streams: %s, ratio %v, p %v; want unchanged, 1, 1", c.Verdict, c.Ratio, c.P)
	}
	// The same stream with independent noise: not a change either.
	c = paired([]series{synthetic(rng, 300, 1, 0.01)}, defaultCompare(), noise{})[0]
	if c.Verdict != compare.Unchanged {
		t.Errorf("equal streams with noise: %s (ratio %.4f [%.4f, %.4f])", c.Verdict, c.Ratio, c.Lo, c.Hi)
	}
}

func TestPairedTooFew(t *testing.T) {
	c := paired([]series{{name: "B", base: []float64{1, 2, 3}, other: []float64{2, 3, 4}}}, defaultCompare(), noise{})[0]
	if c.Verdict != compare.Inconclusive || !strings.Contains(c.Note, "too few pairs") {
		t.Errorf("3 pairs: %s %q", c.Verdict, c.Note)
	}
}

func TestVerdictBoundaries(t *testing.T) {
	o := defaultCompare() // floor 1%, alpha 0.01
	for _, tc := range []struct {
		ratio, lo, hi, p float64
		want             compare.Verdict
	}{
		{1.011, 1.008, 1.014, 0.001, compare.Regression},   // just past the floor, significant
		{1.009, 1.006, 1.012, 0.001, compare.Inconclusive}, // significant, inside the floor, interval crosses it
		{1.009, 1.006, 1.0099, 0.001, compare.Unchanged},   // significant but within ±1%: unchanged
		{1.05, 0.99, 1.11, 0.02, compare.Inconclusive},     // large, not significant
		{1.05, 1.03, 1.07, 0.0099, compare.Regression},     // just significant
		{1.05, 1.03, 1.07, 0.01, compare.Inconclusive},     // alpha is strict
		{0.989, 0.985, 0.993, 0.001, compare.Improvement},  // just past the floor, faster
		{0.991, 0.9905, 0.995, 0.5, compare.Unchanged},     // interval inside ±1%
		{1.0, 0.98, 1.02, 1, compare.Inconclusive},         // too wide to say
		{math.NaN(), math.NaN(), math.NaN(), math.NaN(), compare.Inconclusive},
	} {
		if got := compare.Decide(tc.ratio, tc.lo, tc.hi, tc.p, o.Threshold, o.Alpha, false); got != tc.want {
			t.Errorf("ratio %v [%v, %v] p %v: %s, want %s", tc.ratio, tc.lo, tc.hi, tc.p, got, tc.want)
		}
	}
}

// TestRunEndToEnd runs the orchestrator on fake workers with a real
// slowdown in one benchmark, an exact size growth in another, and noise.
func TestRunEndToEnd(t *testing.T) {
	ns := names(6)
	fk := &fakes{names: ns, noise: 0.05,
		slow: func(gen int, label, name string) float64 {
			if label == "head" && name == ns[2] {
				return 1.05
			}
			return 1
		},
		headSize: map[string]int{ns[4]: 101},
	}
	o, err := Run(context.Background(), fk.spawner(5), Options{Seed: 3, Generations: 3, Rounds: 100, Reps: 1, ConfirmGenerations: 2, ConfirmRounds: 150})
	if err != nil {
		t.Fatal(err)
	}
	r := o.Result
	if r.Method != compare.MethodPaired || r.Why == "" || r.AA == nil || r.AA.Noisy || r.AA.Benchmarks != 6 {
		t.Errorf("method %q why %q AA %+v", r.Method, r.Why, r.AA)
	}
	if r.Gate != nil {
		t.Errorf("a same-runner comparison carries a stored baseline's history gate %+v", r.Gate)
	}
	got := map[string]compare.Comparison{}
	for _, c := range r.Comparisons {
		got[c.Name+" "+c.Unit] = c
	}
	if c := got[ns[2]+" ns/op"]; c.Verdict != compare.Regression || c.Unconfirmed || !strings.Contains(c.Note, "confirmed") {
		t.Errorf("the 5%% slowdown: %s unconfirmed=%v %q", c.Verdict, c.Unconfirmed, c.Note)
	}
	if c := got[ns[4]+" B/msg"]; c.Verdict != compare.Regression || c.Kind != compare.Exact {
		t.Errorf("the size growth: %s %s", c.Kind, c.Verdict)
	}
	for _, n := range []int{0, 1, 3, 5} {
		if c := got[ns[n]+" ns/op"]; c.Verdict == compare.Regression || c.Verdict == compare.Improvement {
			t.Errorf("%s: %s", ns[n], c.Verdict)
		}
	}
	if !r.Failed(compare.FailOnRegression) {
		t.Error("the result does not fail")
	}
	// Three generations for the main phase, then the confirmation on two
	// fresh ones holding just the regression.
	if fk.gens != 5 || fk.spawns[2] != nil || fk.spawns[3] != nil || fk.spawns[4] != nil {
		t.Errorf("generations %d, asked for %v", fk.gens, fk.spawns)
	}
	if o.Generations != 3 || o.ConfirmGenerations != 2 || o.Rounds != 300 {
		t.Errorf("%d generations, %d confirmation generations, %d rounds", o.Generations, o.ConfirmGenerations, o.Rounds)
	}
	if o.Head == nil || len(o.Head.Benchmarks) != 6 || len(o.Head.Benchmarks[0].Metric(results.UnitNsPerOp)) != 300 {
		t.Errorf("head results: %d benchmarks", len(o.Head.Benchmarks))
	}
	if o.Head.Lookup(ns[4]).Metric(results.UnitBytesPerMsg)[0] != 101 {
		t.Error("head results do not carry the head's size")
	}
}

// TestProcessOffsetUnconfirmed: the main phase's head process is 4% slower
// on one benchmark, a fresh one is not: the regression is reported,
// unconfirmed, and does not fail the run.
func TestProcessOffsetUnconfirmed(t *testing.T) {
	ns := names(4)
	fk := &fakes{names: ns, noise: 0.03,
		slow: func(gen int, label, name string) float64 {
			if gen == 0 && label == "head" && name == ns[1] {
				return 1.04
			}
			return 1
		},
	}
	o, err := Run(context.Background(), fk.spawner(6), Options{Seed: 4, Generations: 1, Rounds: 300, Reps: 1, ConfirmGenerations: 2, ConfirmRounds: 150})
	if err != nil {
		t.Fatal(err)
	}
	var c compare.Comparison
	for _, x := range o.Result.Comparisons {
		if x.Name == ns[1] && x.Unit == results.UnitNsPerOp {
			c = x
		}
	}
	if c.Verdict != compare.Regression || !c.Unconfirmed || !strings.Contains(c.Note, "did not hold") {
		t.Errorf("process offset: %s unconfirmed=%v %q", c.Verdict, c.Unconfirmed, c.Note)
	}
	if o.Result.Failed(compare.FailOnRegression) {
		t.Error("an unconfirmed regression failed the run")
	}
}

// TestAANoisy: the second base worker is slower in every generation, so
// the A/A check flags, the flag is confirmed, and a real timing regression
// does not fail the run; an exact one still does.
func TestAANoisy(t *testing.T) {
	ns := names(4)
	fk := &fakes{names: ns, noise: 0.03,
		slow: func(gen int, label, name string) float64 {
			switch {
			case label == "base2" && name == ns[0]:
				return 1.06
			case label == "head" && name == ns[3]:
				return 1.06
			}
			return 1
		},
	}
	o, err := Run(context.Background(), fk.spawner(7), Options{Seed: 5, Generations: 3, Rounds: 100, Reps: 1, ConfirmGenerations: 2, ConfirmRounds: 150})
	if err != nil {
		t.Fatal(err)
	}
	aa := o.Result.AA
	if aa == nil || !aa.Noisy || !slices.Equal(aa.Flagged, []string{ns[0]}) {
		t.Fatalf("A/A check %+v, want noisy with %s flagged", aa, ns[0])
	}
	if o.Result.Count(compare.Regression) != 1 || o.Result.Failed(compare.FailOnRegression) {
		t.Errorf("%d regressions, failed %v: want the timing regression reported but not failing", o.Result.Count(compare.Regression), o.Result.Failed(compare.FailOnRegression))
	}
	// An A/A flag that does not reproduce in fresh workers is not noise.
	fk2 := &fakes{names: ns, noise: 0.03,
		slow: func(gen int, label, name string) float64 {
			if gen == 0 && label == "base2" && name == ns[0] {
				return 1.06
			}
			return 1
		},
	}
	o, err = Run(context.Background(), fk2.spawner(8), Options{Seed: 6, Generations: 1, Rounds: 300, Reps: 1, ConfirmGenerations: 2, ConfirmRounds: 150})
	if err != nil {
		t.Fatal(err)
	}
	if aa := o.Result.AA; aa == nil || aa.Noisy || len(o.AA) != 4 || len(o.AAConfirmations) != 1 {
		t.Errorf("a one-off A/A flag: %+v (%d A/A, %d re-measured)", aa, len(o.AA), len(o.AAConfirmations))
	}
}

func TestMissingAndNew(t *testing.T) {
	ns := names(4)
	spawn := func(ctx context.Context, n []string, aa bool) (*Generation, error) {
		var mu sync.Mutex
		var log []call
		mk := func(label string, names []string) *fakeWorker {
			return &fakeWorker{label: label, names: names, mu: &mu, log: &log}
		}
		return &Generation{Base: mk("base", ns[:3]), Head: mk("head", ns[1:]), Base2: mk("base2", ns[:3])}, nil
	}
	o, err := Run(context.Background(), spawn, Options{Seed: 1, Generations: 1, Rounds: 8, Reps: 1, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Result.Missing, ns[:1]) || !slices.Equal(o.Result.New, ns[3:]) {
		t.Errorf("missing %v new %v", o.Result.Missing, o.Result.New)
	}
	// No benchmark in common is an error.
	spawn2 := func(ctx context.Context, n []string, aa bool) (*Generation, error) {
		var mu sync.Mutex
		var log []call
		return &Generation{Base: &fakeWorker{label: "base", names: ns[:1], mu: &mu, log: &log}, Head: &fakeWorker{label: "head", names: ns[1:2], mu: &mu, log: &log}}, nil
	}
	if _, err := Run(context.Background(), spawn2, Options{Rounds: 1}); err == nil || !strings.Contains(err.Error(), "no benchmark in common") {
		t.Errorf("disjoint builds: %v", err)
	}
}

func TestSpawnErrorPassesThrough(t *testing.T) {
	want := fmt.Errorf("%w: the base build is older than the A/B protocol: fall back to the stored baseline", worker.ErrIncompatible)
	_, err := Run(context.Background(), func(context.Context, []string, bool) (*Generation, error) { return nil, want }, Options{})
	if !errors.Is(err, worker.ErrIncompatible) {
		t.Errorf("err = %v", err)
	}
}

// offset is a deterministic pseudo-random normal offset for a generation,
// worker and benchmark.
func offset(gen int, label, name string, sd float64) float64 {
	h := uint64(1469598103934665603)
	for _, b := range []byte(fmt.Sprintf("%d/%s/%s", gen, label, name)) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return math.Exp(sd * rand.New(rand.NewPCG(h, 7)).NormFloat64())
}

// TestGenerationsAbsorbOffsets: every worker process has its own offset
// per benchmark (sd 2%). One generation turns them into false alarms; ten
// generations judged as a random-effects model do not, and still find a
// real 5% slowdown.
func TestGenerationsAbsorbOffsets(t *testing.T) {
	ns := names(8)
	slow := func(gen int, label, name string) float64 {
		f := offset(gen, label, name, 0.02)
		if label == "head" && name == ns[0] {
			f *= 1.05
		}
		return f
	}
	fk := &fakes{names: ns, noise: 0.05, slow: slow}
	o, err := Run(context.Background(), fk.spawner(11), Options{Seed: 11, Generations: 1, Rounds: 1000, Reps: 1, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	false1 := 0
	for _, c := range o.Result.Comparisons {
		if c.Unit == results.UnitNsPerOp && c.Name != ns[0] && flagged(c) {
			false1++
		}
	}
	if false1 == 0 {
		t.Fatal("with one generation the process offsets raised no false alarm: the test does not test anything")
	}

	fk = &fakes{names: ns, noise: 0.05, slow: slow}
	o, err = Run(context.Background(), fk.spawner(12), Options{Seed: 12, Generations: 10, Rounds: 100, Reps: 1, ConfirmGenerations: 4, ConfirmRounds: 100})
	if err != nil {
		t.Fatal(err)
	}
	// The head against the mean of two base processes: offsets of
	// variance 0.02² + 0.02²/2.
	if want := 0.02 * math.Sqrt(1.5); math.Abs(o.InstanceNoise-want) > 0.01 {
		t.Errorf("estimated offsets between generations ±%.2f%%, want about ±%.2f%%", 100*o.InstanceNoise, 100*want)
	}
	for _, c := range o.Result.Comparisons {
		if c.Unit != results.UnitNsPerOp {
			continue
		}
		switch {
		case c.Name == ns[0] && (c.Verdict != compare.Regression || c.Unconfirmed):
			t.Errorf("the 5%% slowdown: %s unconfirmed=%v (%.4f [%.4f, %.4f])", c.Verdict, c.Unconfirmed, c.Ratio, c.Lo, c.Hi)
		case c.Name != ns[0] && flagged(c) && !c.Unconfirmed:
			t.Errorf("%s: %s (%.4f [%.4f, %.4f]) from process offsets alone", c.Name, c.Verdict, c.Ratio, c.Lo, c.Hi)
		}
	}
	if o.Result.AA.Noisy {
		t.Errorf("A/A check noisy: %v", o.Result.AA.Flagged)
	}
}

// TestHeadAgainstBothBases: the head is compared with both base
// workers, so with independent noise in every block its intervals are
// sqrt(3/4) as wide as the A/A check's (the second base worker against
// the first), the noise of a reference of two blocks counting half for
// each.
func TestHeadAgainstBothBases(t *testing.T) {
	ns := names(8)
	fk := &fakes{names: ns, noise: 0.1}
	o, err := Run(context.Background(), fk.spawner(5), Options{Seed: 5, Generations: 1, Rounds: 2000, Reps: 1, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	aa := map[string]float64{}
	for _, c := range o.AA {
		aa[c.Name] = math.Log(c.Hi / c.Lo)
	}
	var ratios []float64
	for _, c := range o.Result.Comparisons {
		if c.Unit == results.UnitNsPerOp {
			ratios = append(ratios, math.Log(c.Hi/c.Lo)/aa[c.Name])
		}
	}
	if len(ratios) != len(ns) {
		t.Fatalf("%d timing comparisons with an A/A partner, want %d", len(ratios), len(ns))
	}
	slices.Sort(ratios)
	if med := (ratios[3] + ratios[4]) / 2; math.Abs(med-math.Sqrt(0.75)) > 0.06 {
		t.Errorf("head's intervals %.3f as wide as the A/A check's (median of %.3f), want about %.3f", med, ratios, math.Sqrt(0.75))
	}
}

// TestReference: the head's block is compared with the geometric mean of
// both base workers' blocks when the visit has the second one's, the
// second base worker's with the base's.
func TestReference(t *testing.T) {
	blk := func(ns float64) bench.Sample { return bench.Sample{Iterations: 10, Elapsed: time.Duration(10 * ns)} }
	tests := []struct {
		name  string
		v     visit
		other int
		want  float64
	}{
		{"head, both bases", visit{blk(100), blk(150), blk(400)}, wHead, 200},
		{"head, no second base", visit{blk(100), blk(150), {}}, wHead, 100},
		{"A/A check", visit{blk(100), blk(150), blk(400)}, wBase2, 100},
	}
	for _, tc := range tests {
		if got := reference(tc.v, tc.other); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: reference %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestMinRoundsPerPhase: with a budget too short for any round, a phase
// still makes MinRounds rounds, spread over its generations, each of which
// makes at least minGenerationRounds: not MinRounds in every generation,
// which with many generations made the run several times its budget.
func TestMinRoundsPerPhase(t *testing.T) {
	tests := []struct{ generations, minRounds, want int }{
		{1, 5, 5},
		{2, 5, 5}, // 3 + 2
		{4, 5, 8}, // 2 in each
		{3, 9, 9}, // 3 in each
		{16, 5, 32},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d generations, min %d", tt.generations, tt.minRounds), func(t *testing.T) {
			fk := &fakes{names: names(3), noise: 0.01}
			o, err := Run(context.Background(), fk.spawner(1), Options{Seed: 1, Budget: time.Nanosecond, ConfirmBudget: -1,
				Generations: tt.generations, MinRounds: tt.minRounds, Reps: 1})
			if err != nil {
				t.Fatal(err)
			}
			if o.Rounds != tt.want || o.Generations != tt.generations {
				t.Errorf("%d rounds on %d generations, want %d on %d", o.Rounds, o.Generations, tt.want, tt.generations)
			}
		})
	}
}

// TestReplanFromVisits: after the first round the visits per round are
// planned again from what each task's visits took: a task whose visits
// cost four times what the model said gets a quarter of the visits of
// one as cheap as modelled, and the round fits the time left as the
// first plan meant it to.
func TestReplanFromVisits(t *testing.T) {
	r := newRun(nil, Options{Seed: 1})
	r.opts.defaults()
	r.ws = make([]Worker, 2)
	r.nsPerOp = []float64{1000, 1000}
	r.tasks = []task{{bench: 0, n: 100}, {bench: 1, n: 100}}
	const available = 10 * time.Second
	r.plan(available, 0)
	first := []int{r.tasks[0].reps, r.tasks[1].reps}
	if first[0] != first[1] {
		t.Fatalf("first plan: visits %v, want equal for equal models", first)
	}
	// The model: 2 × (100 µs of work + 150 µs overhead) = 500 µs a visit.
	// Measured: task 0 at 2 ms a visit, task 1 at 500 µs.
	r.spent = []time.Duration{time.Duration(first[0]) * 2 * time.Millisecond, time.Duration(first[1]) * 500 * time.Microsecond}
	r.visited = first
	r.replanUntil = time.Now().Add(available)
	round := r.replan(time.Second)
	if !r.replanUntil.IsZero() {
		t.Error("replan left itself pending")
	}
	got := []int{r.tasks[0].reps, r.tasks[1].reps}
	if ratio := float64(got[1]) / float64(got[0]); ratio < 3.5 || ratio > 4.5 {
		t.Errorf("visits after replanning %v: ratio %.2f, want about 4", got, ratio)
	}
	want := time.Duration(got[0])*2*time.Millisecond + time.Duration(got[1])*500*time.Microsecond
	if round != want || r.planned != want {
		t.Errorf("predicted round %v (kept %v), want %v from the measured costs", round, r.planned, want)
	}
	// Without a measured visit of every task nothing changes.
	r.visited[1], r.replanUntil = 0, time.Now().Add(available)
	if d := r.replan(time.Second); d != time.Second || r.tasks[0].reps != got[0] {
		t.Errorf("with a task unvisited: round %v, visits %d; want the first round's and the plan kept", d, r.tasks[0].reps)
	}
}
