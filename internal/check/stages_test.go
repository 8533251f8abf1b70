package check

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// The simulation of the stages of a counted A/B run with several metrics
// a benchmark (issue 54): docs/lab/counted-stages.md, "What each stage
// settles",
// gives its figures, from
//
//	go test ./internal/check -run TestStagesSimulation -stages.runs 2000 -stages.big 200 -v
//
// (docs/experiments/stages/). The default runs are few, so that the test
// suite stays quick; the seeds are fixed, so every run sees the same
// draws.
var (
	stagesRuns    = flag.Int("stages.runs", 6, "simulated runs per row of TestStagesSimulation (176 benchmarks)")
	stagesBig     = flag.Int("stages.big", 2, "simulated runs per row of TestStagesSimulation with 1000 benchmarks")
	stagesWorkers = flag.Int("stages.workers", 1, "runs simulated at once by TestStagesSimulation")
	stagesOut     = flag.String("stages.out", "", "a file TestStagesSimulation writes its table to, tab-separated")
	stagesOnly    = flag.String("stages.only", "", "when set, the scenarios of TestStagesSimulation whose name has it, alone")
)

// gcClass is the spread of a benchmark's gc-instructions/op
// (docs/lab/counted-pairs.md, "What a count contains"; paired-msgpack-gc and
// quiet-aa-gc of 2026-12-07): between processes 1.1-3.4% (the heap's
// shape moves with the seed, shared by the pair), within pairs
// 0.06-0.3% (0.87% and 0.46% beside a CPU hog).
type gcClass struct {
	share        float64
	pair, within float64
}

var gcModel = []gcClass{
	{share: 0.45, pair: 0.015, within: 0.001},
	{share: 0.40, pair: 0.015, within: 0.0025},
	{share: 0.15, pair: 0.02, within: 0.008},
}

// stageSpreads is the mix of instructions/op spreads (spreadModel's,
// TestSequentialSimulation's) with its 2% of bimodal counts split: half
// modes 2.4% apart, a fifth of the processes in the higher one, half
// 5% apart and half the processes in each (msgpack's float encoding:
// "Two units", ~5% apart).
var stageSpreads = []spreadClass{
	{share: 0.50, pair: 0, within: 0.00001},
	{share: 0.30, pair: 0.002, within: 0.0001},
	{share: 0.12, pair: 0.005, within: 0.001},
	{share: 0.06, pair: 0.005, within: 0.0055},
	{share: 0.01, pair: 0.001, within: 0.0001, modeP: 0.2, modeStep: 0.024},
	{share: 0.01, pair: 0.001, within: 0.0001, modeP: 0.5, modeStep: 0.05},
}

// stageBench is one simulated benchmark: instructions/op of a spread
// class and level; for one that allocates (gc set), gc-instructions/op
// and an exact allocs/op; and what the head does to each (1: nothing).
type stageBench struct {
	name             string
	ins              spreadClass
	gc               *gcClass
	level, gcLevel   float64
	allocs           float64
	effect, gcEffect float64
	allocsHead       float64
}

// changedUnits are the units of b the head changed.
func (b stageBench) changed(unit string) bool {
	switch unit {
	case results.UnitInstructionsPerOp:
		return b.effect != 1
	case results.UnitGCInstructionsPerOp:
		return b.gcEffect != 1
	case results.UnitAllocsPerOp:
		return b.allocsHead != b.allocs
	}
	return false
}

// stageScenario is what a row of runs simulates: m benchmarks, a share
// bimodal of them moved into the 5% bimodal class, and what the head
// changes (change, given the run's stream, edits the drawn benchmarks).
type stageScenario struct {
	name    string
	m       int
	bimodal float64
	change  func(rng *rand.Rand, bs []stageBench)
	big     bool
}

func drawShare[T any](rng *rand.Rand, shares []float64, of []T) T {
	u := rng.Float64()
	for i, s := range shares {
		if u < s {
			return of[i]
		}
		u -= s
	}
	return of[len(of)-1]
}

// drawBenches draws sc's benchmarks: 60% allocate (a gc-instructions/op
// and 1-40 allocations an operation), the others not.
func drawBenches(rng *rand.Rand, sc stageScenario) []stageBench {
	var insShares, gcShares []float64
	for _, c := range stageSpreads {
		insShares = append(insShares, c.share)
	}
	for _, c := range gcModel {
		gcShares = append(gcShares, c.share)
	}
	bs := make([]stageBench, sc.m)
	for i := range bs {
		b := stageBench{name: fmt.Sprintf("BenchmarkB%04d", i), effect: 1, gcEffect: 1}
		b.ins = drawShare(rng, insShares, stageSpreads)
		if rng.Float64() < sc.bimodal {
			b.ins = stageSpreads[len(stageSpreads)-1]
		}
		b.level = math.Log(500 + 1e5*rng.Float64())
		if rng.Float64() < 0.6 {
			g := drawShare(rng, gcShares, gcModel)
			b.gc = &g
			b.gcLevel = b.level + math.Log(0.05+0.5*rng.Float64())
			b.allocs = float64(1 + rng.IntN(40))
		}
		b.allocsHead = b.allocs
		bs[i] = b
	}
	if sc.change != nil {
		sc.change(rng, bs)
	}
	return bs
}

// releaseDiff is a release's diff: 60% of the benchmarks do 2-10% more
// or less work (log-uniform, either way), half of those that allocate
// with their collector's work changed by 2-10% too and a fifth with an
// allocation more or fewer.
func releaseDiff(rng *rand.Rand, bs []stageBench) {
	size := func() float64 {
		f := math.Exp(math.Log(1.02) + rng.Float64()*(math.Log(1.10)-math.Log(1.02)))
		if rng.Float64() < 0.5 {
			return 1 / f
		}
		return f
	}
	for i := range bs {
		b := &bs[i]
		if rng.Float64() >= 0.6 {
			continue
		}
		b.effect = size()
		if b.gc == nil {
			continue
		}
		if rng.Float64() < 0.5 {
			b.gcEffect = size()
		}
		if rng.Float64() < 0.2 {
			b.allocsHead = max(0, b.allocs+float64(1-2*rng.IntN(2)))
		}
	}
}

// oneMore is a head whose first benchmark (of the mix's spreads) does
// effect times the work.
func oneMore(effect float64) func(*rand.Rand, []stageBench) {
	return func(_ *rand.Rand, bs []stageBench) { bs[0].effect = effect }
}

var stageScenarios = []stageScenario{
	{name: "A/A, 176", m: 176},
	{name: "A/A, 1000", m: 1000, big: true},
	{name: "A/A, 176, 20% bimodal 5%", m: 176, bimodal: 0.2},
	{name: "+1% in one of 176", m: 176, change: oneMore(1.01)},
	{name: "+1.5% in one of 176", m: 176, change: oneMore(1.015)},
	{name: "+2% in one of 176", m: 176, change: oneMore(1.02)},
	{name: "release diff, 176", m: 176, change: releaseDiff},
}

// stagePlan is a way of counting the simulation compares: the first
// processes, the plan's, the rule that picks what the first leave open,
// and the fresh pairs a confirmation counts (0: none, the flags stand).
type stagePlan struct {
	name             string
	first, processes int
	rule             func(*compare.Result) []string
	again            int
}

// unsettledBefore is the rule of issue 40, before issue 54: a benchmark
// is open while any comparison of its is not unchanged.
func unsettledBefore(res *compare.Result) []string {
	var names []string
	for _, c := range res.Comparisons {
		if c.Verdict != compare.Unchanged && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

var stagePlans = []stagePlan{
	{"in full: 5, open +5, confirm 5", 5, 5, unsettled, 5},
	{"before: 3 -> 5 unless all unchanged, confirm 5", 3, 5, unsettledBefore, 5},
	{"now: 3 -> 5 while a gated metric straddles, confirm 5", 3, 5, unsettled, 5},
	{"now, confirm in 3", 3, 5, unsettled, 3},
}

// stageSim is a simulated count.Pair of stageBenches, which records
// what each stage counted (benchmark-pairs) and judged.
type stageSim struct {
	rng              *rand.Rand
	bs               []stageBench
	first, processes int
	againPairs       int
	fresh            int
	work             map[string]int
	judgedAt         map[string]*compare.Result
}

func (s *stageSim) First() int     { return s.first }
func (s *stageSim) Processes() int { return s.processes }

func (s *stageSim) judged(stage string, res *compare.Result) {
	r := *res
	r.Comparisons = slices.Clone(res.Comparisons)
	s.judgedAt[stage] = &r
}

// draw counts the benchmarks names (all when nil) in pairs of processes
// with seeds ks: a pair shares its seed's effect on each count, each
// process adds its own noise and, for a bimodal count, its own mode.
func (s *stageSim) draw(stage string, names []string, ks []uint64) (base, head *results.Results) {
	base, head = results.New("sim", results.Env{}), results.New("sim", results.Env{})
	for _, r := range []*results.Results{base, head} {
		r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: len(ks), Blocks: 3, Random: "seeded"}
	}
	for _, b := range s.bs {
		if names != nil && !slices.Contains(names, b.name) {
			continue
		}
		bb, hb := results.Benchmark{Name: b.name}, results.Benchmark{Name: b.name}
		for _, k := range ks {
			u := s.rng.NormFloat64() * b.ins.pair
			var ug float64
			if b.gc != nil {
				ug = s.rng.NormFloat64() * b.gc.pair
			}
			for _, side := range []struct {
				r      *results.Benchmark
				head   bool
				effect float64
			}{{&bb, false, 1}, {&hb, true, b.effect}} {
				x := b.level + u + s.rng.NormFloat64()*b.ins.within
				if b.ins.modeP > 0 && s.rng.Float64() < b.ins.modeP {
					x += math.Log1p(b.ins.modeStep)
				}
				side.r.Iterations = append(side.r.Iterations, 1000)
				side.r.Seeds = append(side.r.Seeds, k)
				side.r.Add(results.UnitInstructionsPerOp, math.Exp(x)*side.effect)
				if b.gc != nil {
					g, a := math.Exp(b.gcLevel+ug+s.rng.NormFloat64()*b.gc.within), b.allocs
					if side.head {
						g, a = g*b.gcEffect, b.allocsHead
					}
					side.r.Add(results.UnitGCInstructionsPerOp, g)
					side.r.Add(results.UnitAllocsPerOp, a)
				} else {
					side.r.Add(results.UnitAllocsPerOp, 0)
				}
			}
			s.work[stage]++
		}
		base.Benchmarks, head.Benchmarks = append(base.Benchmarks, bb), append(head.Benchmarks, hb)
	}
	return base, head
}

func (s *stageSim) Count(context.Context) (*results.Results, *results.Results, error) {
	b, h := s.draw("first", nil, seeds(0, s.first))
	return b, h, nil
}

func (s *stageSim) Rest(_ context.Context, names []string) (*results.Results, *results.Results, error) {
	if s.first >= s.processes {
		return nil, nil, nil
	}
	b, h := s.draw("plan", names, seeds(s.first, s.processes))
	return b, h, nil
}

func (s *stageSim) More(_ context.Context, names []string) (*results.Results, *results.Results, error) {
	b, h := s.draw("beyond", names, seeds(1000+s.fresh, 1000+s.fresh+s.processes))
	s.fresh += s.processes
	return b, h, nil
}

func (s *stageSim) Again(_ context.Context, names []string) (*results.Results, *results.Results, error) {
	if s.againPairs == 0 {
		return nil, nil, nil
	}
	b, h := s.draw("confirmed", names, seeds(1000+s.fresh, 1000+s.fresh+s.againPairs))
	s.fresh += s.againPairs
	return b, h, nil
}

// stageStages are the stages of a run, in order, as judgeStaged names
// them.
var debugStages = false

var stageStages = []string{"first", "plan", "beyond", "confirmed"}

// stageTally is what the runs of one scenario and plan found, per stage
// (stageStages): runs with a false flag (a regression that fails the
// run or an improvement claimed on a metric the head did not change)
// and with a false failure (a regression only), the changed metrics
// flagged the right way, and the benchmark-pairs counted.
type stageTally struct {
	runs, changed       int
	falseFlag, falseRun [4]int
	caught              [4]int
	work                [4]int
	judged              [4]int
	settled             int
	// gcOnly is the benchmarks the first stage left open for their
	// gc-instructions/op alone (by the rule of issue 54).
	gcOnly int
	// heldBack is changes settled after the first stage that the plan's
	// judgement did not flag (Holm's adjustment moved by the others).
	heldBack int
}

// flagged reports whether c is a change res claims: a regression that
// fails the run or a counted improvement, not unconfirmed.
func flagged(res *compare.Result, c compare.Comparison) bool {
	return (c.Verdict == compare.Regression || c.Verdict == compare.Improvement) && !c.Unconfirmed && res.Enforced(c)
}

func runStages(seed uint64, i int, sc stageScenario, pl stagePlan, opts compare.Options) (stageTally, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	bs := drawBenches(rng, sc)
	s := &stageSim{rng: rng, bs: bs, first: pl.first, processes: pl.processes, againPairs: pl.again, work: map[string]int{}, judgedAt: map[string]*compare.Result{}}
	out, err := judgeStaged(context.Background(), s, opts, pl.rule)
	if err != nil {
		return stageTally{}, err
	}
	byName := map[string]stageBench{}
	for _, b := range bs {
		byName[b.name] = b
	}
	var t stageTally
	t.runs = 1
	for _, b := range bs {
		for _, u := range []string{results.UnitInstructionsPerOp, results.UnitGCInstructionsPerOp, results.UnitAllocsPerOp} {
			if b.changed(u) {
				t.changed++
			}
		}
	}
	for k, stage := range stageStages {
		res := s.judgedAt[stage]
		if res == nil {
			continue
		}
		t.judged[k] = 1
		var falseFlag, falseRun bool
		for _, c := range res.Comparisons {
			if !flagged(res, c) {
				continue
			}
			b := byName[c.Name]
			if !b.changed(c.Unit) {
				falseFlag = true
				falseRun = falseRun || c.Verdict == compare.Regression
				continue
			}
			up := b.effect > 1
			switch c.Unit {
			case results.UnitGCInstructionsPerOp:
				up = b.gcEffect > 1
			case results.UnitAllocsPerOp:
				up = b.allocsHead > b.allocs
			}
			if up == (c.Verdict == compare.Regression) {
				t.caught[k]++
			}
		}
		if falseFlag {
			t.falseFlag[k] = 1
		}
		if falseRun {
			t.falseRun[k] = 1
		}
	}
	for k, stage := range stageStages {
		t.work[k] = s.work[stage]
	}
	if c := out.Head.Settings.Counter; c != nil && c.First > 0 {
		t.settled = c.Settled
	}
	if first := s.judgedAt["first"]; first != nil {
		m := tested(first)
		open := map[string][2]bool{} // open for gc-instructions/op, for another comparison
		for _, c := range first.Comparisons {
			if !settled(first, c, m) {
				o := open[c.Name]
				o[map[bool]int{true: 0, false: 1}[c.Unit == results.UnitGCInstructionsPerOp]] = true
				open[c.Name] = o
			}
		}
		for _, o := range open {
			if o[0] && !o[1] {
				t.gcOnly++
			}
		}
	}
	if first, plan := s.judgedAt["first"], s.judgedAt["plan"]; first != nil && pl.first < pl.processes {
		for _, c := range first.Comparisons {
			if (c.Verdict == compare.Regression || c.Verdict == compare.Improvement) && settled(first, c, tested(first)) && c.Kind == compare.Noisy {
				if p, ok := lookup(plan, c.Name, c.Unit); ok && p.Candidate.N == c.Candidate.N && p.Verdict != c.Verdict {
					if debugStages {
						fmt.Printf("held back: %s %s first %s %.4f [%.4f %.4f] p %.3g padj %.3g n %d; plan %s %.4f [%.4f %.4f] p %.3g padj %.3g n %d\n", c.Name, c.Unit, c.Verdict, c.Ratio, c.Lo, c.Hi, c.P, c.PAdjusted, c.Candidate.N, p.Verdict, p.Ratio, p.Lo, p.Hi, p.P, p.PAdjusted, p.Candidate.N)
					}
					t.heldBack++
				}
			}
		}
	}
	return t, nil
}

func (t *stageTally) add(u stageTally) {
	t.runs += u.runs
	t.changed += u.changed
	t.settled += u.settled
	t.heldBack += u.heldBack
	t.gcOnly += u.gcOnly
	for k := range t.caught {
		t.falseFlag[k] += u.falseFlag[k]
		t.falseRun[k] += u.falseRun[k]
		t.caught[k] += u.caught[k]
		t.work[k] += u.work[k]
		t.judged[k] += u.judged[k]
	}
}

// simulateStages runs runs simulated runs of sc counted by pl, workers
// at once, each run from a stream of its own.
func simulateStages(seed uint64, runs, workers int, sc stageScenario, pl stagePlan) (stageTally, error) {
	opts := compare.Defaults()
	opts.Threshold = 0.01
	opts.CountedUnit = results.UnitInstructionsPerOp
	tallies := make([]stageTally, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, min(workers, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for i := range next {
				tallies[i], errs[i] = runStages(seed, i, sc, pl, opts)
			}
		})
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	var t stageTally
	for i, u := range tallies {
		if errs[i] != nil {
			return t, errs[i]
		}
		t.add(u)
	}
	return t, nil
}

// TestStagesSimulation runs the stages of a counted A/B run (judgeStaged
// with the real compare.Compare, open and settle) on simulated counts
// with instructions/op, gc-instructions/op and allocs/op, by each plan
// of stagePlans, and prints per stage the false-alarm rate and the
// changes caught. It checks that the rule of issue 54 settles at least
// as many benchmarks after the first stage as the rule before it,
// counts at most 2% more, flags a metric the head did not change in at
// most alpha of the runs (1%), and catches the changed ones as often
// (within the binomial noise of the runs drawn).
func TestStagesSimulation(t *testing.T) {
	type row struct {
		sc      stageScenario
		tallies []stageTally
	}
	var rows []row
	for si, sc := range stageScenarios {
		if !strings.Contains(sc.name, *stagesOnly) {
			continue
		}
		runs := *stagesRuns
		if sc.big {
			runs = *stagesBig
		}
		r := row{sc: sc}
		for _, pl := range stagePlans {
			// Every plan sees the same benchmarks and heads (the same
			// seed); their counts differ as their stages do.
			tl, err := simulateStages(uint64(54_000+si), runs, *stagesWorkers, sc, pl)
			if err != nil {
				t.Fatal(err)
			}
			r.tallies = append(r.tallies, tl)
		}
		rows = append(rows, r)
	}
	head := "scenario\tplan\truns\tsettled after 3\tpairs first\tpairs rest\tpairs beyond\tpairs confirmation\tpairs all" +
		"\tfalse failure first\tfalse failure plan\tfalse failure beyond\tfalse failure confirmed" +
		"\tfalse flag first\tfalse flag plan\tfalse flag beyond\tfalse flag confirmed" +
		"\tcaught first\tcaught plan\tcaught beyond\tcaught confirmed\tchanged metrics\theld back\topen for gc alone"
	lines := []string{head}
	for _, r := range rows {
		for j, tl := range r.tallies {
			cells := []string{r.sc.name, stagePlans[j].name, fmt.Sprint(tl.runs), fmt.Sprintf("%.1f", float64(tl.settled)/float64(tl.runs))}
			all := 0
			for _, x := range tl.work {
				cells = append(cells, fmt.Sprintf("%.1f", float64(x)/float64(tl.runs)))
				all += x
			}
			cells = append(cells, fmt.Sprintf("%.1f", float64(all)/float64(tl.runs)))
			rate := func(n [4]int, of int) {
				for k := range stageStages {
					switch {
					case tl.judged[k] == 0 || of == 0:
						cells = append(cells, "-")
					default:
						cells = append(cells, fmt.Sprintf("%.2f%%", pct(n[k], of)))
					}
				}
			}
			rate(tl.falseRun, tl.runs)
			rate(tl.falseFlag, tl.runs)
			rate(tl.caught, tl.changed)
			cells = append(cells, fmt.Sprintf("%.1f", float64(tl.changed)/float64(tl.runs)), fmt.Sprint(tl.heldBack), fmt.Sprintf("%.1f", float64(tl.gcOnly)/float64(tl.runs)))
			lines = append(lines, strings.Join(cells, "\t"))
		}
	}
	for _, l := range lines {
		t.Log(strings.ReplaceAll(l, "\t", " | "))
	}
	if *stagesOut != "" {
		if err := os.WriteFile(*stagesOut, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range rows {
		before, now := r.tallies[1], r.tallies[2]
		if now.settled < before.settled {
			t.Errorf("%s: the rule settled %d benchmarks after the first stage, the rule before it %d", r.sc.name, now.settled, before.settled)
		}
		sum := func(w [4]int) int { return w[0] + w[1] + w[2] + w[3] }
		if float64(sum(now.work)) > 1.02*float64(sum(before.work)) {
			t.Errorf("%s: the rule counted %d benchmark-pairs, the rule before it %d", r.sc.name, sum(now.work), sum(before.work))
		}
		// The family-wise rate of false alarms, regressions failing the
		// run or improvements claimed: at most alpha (1%).
		if pct(now.falseFlag[3], now.runs) > 1 {
			t.Errorf("%s: %d of %d runs flagged a metric the head did not change (%d by the rule before): more than alpha", r.sc.name, now.falseFlag[3], now.runs, before.falseFlag[3])
		}
		// Power: as the rule before's, within 3 points and twice the
		// standard error of the difference of two binomial rates.
		if n := now.changed; n > 0 {
			q := float64(before.caught[3]) / float64(n)
			if slack := 3 + 200*math.Sqrt(2*q*(1-q)/float64(n)); pct(now.caught[3], n) < pct(before.caught[3], n)-slack {
				t.Errorf("%s: caught %d of %d changed metrics, the rule before %d", r.sc.name, now.caught[3], n, before.caught[3])
			}
		}
	}
}

// TestUnsettled: after the first processes a benchmark is open while a
// comparison of its that gates can still change its verdict: one that
// straddles the floor, a significant change not clear of it, one without
// a test, one reported only for too few processes. A clear change, an
// exact one, one inside the floor and one that does not gate settle.
func TestUnsettled(t *testing.T) {
	const floor = 0.01
	cmp := func(name, unit string, v compare.Verdict, lo, hi, p float64) compare.Comparison {
		return compare.Comparison{Name: name, Unit: unit, Kind: compare.Noisy, Test: compare.TestPairedT, Verdict: v,
			Ratio: (lo + hi) / 2, Lo: lo, Hi: hi, P: p, PAdjusted: min(1, 4*p), Baseline: compare.Summary{N: 3}, Candidate: compare.Summary{N: 3}}
	}
	ins, gc, cycles, allocs := results.UnitInstructionsPerOp, results.UnitGCInstructionsPerOp, results.UnitEstCyclesPerOp, results.UnitAllocsPerOp
	exact := func(name string, v compare.Verdict) compare.Comparison {
		return compare.Comparison{Name: name, Unit: allocs, Kind: compare.Exact, Verdict: v, Ratio: 2, P: math.NaN(), PAdjusted: math.NaN()}
	}
	reported := func(c compare.Comparison, why string, n int) compare.Comparison {
		c.NotEnforced, c.Baseline.N, c.Candidate.N = why, n, n
		return c
	}
	for _, tt := range []struct {
		name string
		cs   []compare.Comparison
		open bool
	}{
		{"unchanged", []compare.Comparison{cmp("B", ins, compare.Unchanged, 0.999, 1.001, 0.5), cmp("B", gc, compare.Unchanged, 0.995, 1.004, 0.6)}, false},
		{"a clear regression", []compare.Comparison{cmp("B", ins, compare.Regression, 1.04, 1.06, 1e-6)}, false},
		{"a clear improvement", []compare.Comparison{cmp("B", ins, compare.Improvement, 0.90, 0.93, 1e-6)}, false},
		{"a regression whose interval reaches the floor", []compare.Comparison{cmp("B", ins, compare.Regression, 1.008, 1.03, 1e-4)}, true},
		{"a clear change, but not significant whatever the others' p-values", []compare.Comparison{cmp("B", ins, compare.Regression, 1.04, 1.06, 0.004)}, true},
		{"straddles", []compare.Comparison{cmp("B", ins, compare.Inconclusive, 0.995, 1.012, 0.3)}, true},
		{"no test", []compare.Comparison{cmp("B", ins, compare.Inconclusive, math.NaN(), math.NaN(), math.NaN())}, true},
		{"instructions unchanged, gc-instructions straddling: gc gates", []compare.Comparison{cmp("B", ins, compare.Unchanged, 0.999, 1.001, 0.5), cmp("B", gc, compare.Inconclusive, 0.98, 1.02, 0.5)}, true},
		{"instructions unchanged, gc-instructions clearly changed", []compare.Comparison{cmp("B", ins, compare.Unchanged, 0.999, 1.001, 0.5), cmp("B", gc, compare.Regression, 1.05, 1.12, 1e-7)}, false},
		{"instructions clearly changed, gc-instructions unchanged", []compare.Comparison{cmp("B", ins, compare.Improvement, 0.95, 0.96, 1e-8), cmp("B", gc, compare.Unchanged, 0.995, 1.005, 0.5)}, false},
		{"a noisy metric that does not gate", []compare.Comparison{cmp("B", ins, compare.Unchanged, 0.999, 1.001, 0.5), reported(cmp("B", cycles, compare.Inconclusive, 0.9, 1.1, 0.5), "reported beside instructions/op, which the run gates on", 3)}, false},
		{"reported only for too few processes", []compare.Comparison{reported(cmp("B", ins, compare.Inconclusive, 0.9, 1.1, 0.5), "counted in 2 processes and 2 processes: counts gate with at least 3 a side", 2)}, true},
		{"an exact allocation change", []compare.Comparison{cmp("B", ins, compare.Unchanged, 0.999, 1.001, 0.5), exact("B", compare.Regression)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := compare.Defaults()
			opts.Threshold = floor
			// Four tested comparisons gate in the run: B's and the others'.
			res := &compare.Result{Options: opts, Comparisons: append(slices.Clone(tt.cs),
				cmp("O1", ins, compare.Unchanged, 0.999, 1.001, 0.9), cmp("O2", ins, compare.Unchanged, 0.999, 1.001, 0.9), cmp("O3", ins, compare.Unchanged, 0.999, 1.001, 0.9))}
			got := unsettled(res)
			if want := map[bool][]string{true: {"B"}, false: nil}[tt.open]; !slices.Equal(got, want) {
				t.Errorf("unsettled = %q, want %q", got, want)
			}
		})
	}
}

// TestJudgeCountsSettles: counted with instructions/op, gc-instructions/op
// and allocs/op, a benchmark whose change is clear after the first 3
// pairs is counted no further but to confirm it (5 fresh pairs), whether
// the change is its instructions' or its collector's; one whose
// collector's count straddles the floor is counted in the plan's 5; an
// A/A run settles every benchmark after 3 and flags nothing.
func TestJudgeCountsSettles(t *testing.T) {
	quiet := spreadClass{pair: 0.002, within: 0.00001}
	tightGC := &gcClass{pair: 0.015, within: 0.0002}
	noisyGC := &gcClass{pair: 0.015, within: 0.01}
	for _, tt := range []struct {
		name          string
		gc            *gcClass
		effect, gcEff float64
		work, settled int
		fails         bool
	}{
		{"A/A", tightGC, 1, 1, 4 * 3, 4, false},
		{"instructions +5%", tightGC, 1.05, 1, 4*3 + 5, 4, true},
		{"instructions -5%", tightGC, 1 / 1.05, 1, 4*3 + 5, 4, false},
		{"gc-instructions +10%, instructions unchanged", tightGC, 1, 1.10, 4*3 + 5, 4, true},
		{"gc-instructions straddling", noisyGC, 1, 1, 4*3 + 2, 3, false},
		{"instructions +5%, gc-instructions straddling", noisyGC, 1.05, 1, 4*3 + 2 + 5, 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &stageSim{rng: rand.New(rand.NewPCG(5, 4)), first: 3, processes: 5, againPairs: 5, work: map[string]int{}, judgedAt: map[string]*compare.Result{}}
			for i := range 4 {
				b := stageBench{name: fmt.Sprintf("BenchmarkB%d", i), ins: quiet, gc: tightGC, level: math.Log(1000), gcLevel: math.Log(300), allocs: 3, allocsHead: 3, effect: 1, gcEffect: 1}
				if i == 0 {
					b.gc, b.effect, b.gcEffect = tt.gc, tt.effect, tt.gcEff
				}
				s.bs = append(s.bs, b)
			}
			opts := compare.Defaults()
			opts.Threshold = 0.01
			opts.CountedUnit = results.UnitInstructionsPerOp
			out, err := judgeCounts(context.Background(), s, opts)
			if err != nil {
				t.Fatal(err)
			}
			work := s.work["first"] + s.work["plan"] + s.work["beyond"] + s.work["confirmed"]
			c := out.Head.Settings.Counter
			if work != tt.work || c.Settled != tt.settled || out.Result.Failed(compare.FailOnRegression) != tt.fails {
				t.Errorf("counted %d benchmark-pairs (%v), settled %d, failed %v; want %d, %d, %v", work, s.work, c.Settled, out.Result.Failed(compare.FailOnRegression), tt.work, tt.settled, tt.fails)
			}
			for _, c := range out.Result.Comparisons {
				if c.Name != "BenchmarkB0" && (c.Verdict == compare.Regression || c.Verdict == compare.Improvement) {
					t.Errorf("%s %s flagged: %s", c.Name, c.Unit, c.Verdict)
				}
			}
		})
	}
}
