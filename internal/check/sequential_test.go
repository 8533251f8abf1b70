package check

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// The simulation of the staged count (judgeCounts) against the fixed
// plan: docs/lab/counted-stages.md, "When counting stops", gives its
// figures, from
//
//	go test ./internal/ab -run TestSequentialSimulation -sequential.runs 10000 -v
//
// The default runs are few, so that the test suite stays quick; the
// seeds are fixed, so every run of it sees the same draws.
var (
	sequentialRuns  = flag.Int("sequential.runs", 60, "simulated A/A runs per row of TestSequentialSimulation")
	sequentialPower = flag.Int("sequential.power", 60, "simulated runs per row with a change, of TestSequentialSimulation")
)

// spreadClass is one kind of benchmark in the simulation's model of
// counted spreads (docs/lab/counted-pairs.md, "Pairs"): the standard
// deviation of
// the log count between pairs of processes (seeds: shared by the base's
// and the head's process of a pair, so the paired test cancels it) and
// within a pair, and a bimodal count: with probability modeP a process
// lands in a mode modeShift higher, drawn per process (not per pair).
type spreadClass struct {
	share           float64
	pair, within    float64
	modeP, modeStep float64
}

// spreadModel is the mix of spreads measured on the embedded suite and
// on msgpack/v5's own benchmarks: most counts the same or nearly in
// every process of a pair; a third moving with the seed but agreeing
// within pairs to ~0.01%; allocation-heavy ones whose pairs differ by
// 0.1% and 0.55% (msgpack's and protobuf's unmarshal); a bimodal one
// (msgpack's float encoding, modes ~2.4% apart).
var spreadModel = []spreadClass{
	{share: 0.50, pair: 0, within: 0.00001},
	{share: 0.30, pair: 0.002, within: 0.0001},
	{share: 0.12, pair: 0.005, within: 0.001},
	{share: 0.06, pair: 0.005, within: 0.0055},
	{share: 0.02, pair: 0.001, within: 0.0001, modeP: 0.2, modeStep: 0.024},
}

// simBench is one simulated benchmark: its class and level.
type simBench struct {
	name  string
	class spreadClass
	level float64
}

// simCounts is a simulated count.Pair: every process of either build
// draws its benchmarks' counts from the model, process k of both builds
// sharing the pair's seed effect; effect multiplies the head's count of
// the benchmark target.
type simCounts struct {
	rng              *rand.Rand
	benches          []simBench
	first, processes int
	target           string
	effect           float64
	// beyond is whether More counts (the rule since issue 40) or counts
	// nothing (the fixed plan before it).
	beyond bool
	again  int
	// counted is the processes of each build counted, as work done.
	counted map[string]int
	work    int
}

func newSimCounts(rng *rand.Rand, m int, pl simPlan, target string, effect float64) *simCounts {
	s := &simCounts{rng: rng, first: pl.first, processes: pl.processes, beyond: pl.beyond, target: target, effect: effect, counted: map[string]int{}}
	for i := range m {
		u, class := rng.Float64(), spreadModel[len(spreadModel)-1]
		for _, c := range spreadModel {
			if u < c.share {
				class = c
				break
			}
			u -= c.share
		}
		s.benches = append(s.benches, simBench{name: fmt.Sprintf("BenchmarkB%03d", i), class: class, level: math.Log(500 + 1e5*rng.Float64())})
	}
	return s
}

func (s *simCounts) First() int     { return s.first }
func (s *simCounts) Processes() int { return s.processes }

// processes draws the processes of seeds ks of both builds for names
// (all when nil).
func (s *simCounts) draw(names []string, ks []uint64) (base, head *results.Results) {
	base, head = results.New("sim", results.Env{}), results.New("sim", results.Env{})
	for _, r := range []*results.Results{base, head} {
		r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: len(ks), Blocks: 3, Random: "seeded"}
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, b := range s.benches {
		if names != nil && !want[b.name] {
			continue
		}
		bb, hb := results.Benchmark{Name: b.name}, results.Benchmark{Name: b.name}
		for _, k := range ks {
			u := s.rng.NormFloat64() * b.class.pair
			one := func(effect float64) float64 {
				x := b.level + u + s.rng.NormFloat64()*b.class.within
				if b.class.modeP > 0 && s.rng.Float64() < b.class.modeP {
					x += math.Log1p(b.class.modeStep)
				}
				return math.Exp(x) * effect
			}
			effect := 1.0
			if b.name == s.target {
				effect = s.effect
			}
			for _, side := range []struct {
				b *results.Benchmark
				e float64
			}{{&bb, 1}, {&hb, effect}} {
				side.b.Iterations = append(side.b.Iterations, 1000)
				side.b.Seeds = append(side.b.Seeds, k)
				side.b.Add(results.UnitInstructionsPerOp, one(side.e))
				side.b.Add(results.UnitAllocsPerOp, 2)
			}
			s.work++
		}
		base.Benchmarks, head.Benchmarks = append(base.Benchmarks, bb), append(head.Benchmarks, hb)
	}
	return base, head
}

func seeds(from, to int) []uint64 {
	var ks []uint64
	for k := from; k < to; k++ {
		ks = append(ks, uint64(k))
	}
	return ks
}

func (s *simCounts) Count(context.Context) (*results.Results, *results.Results, error) {
	b, h := s.draw(nil, seeds(0, s.first))
	return b, h, nil
}

func (s *simCounts) Rest(_ context.Context, names []string) (*results.Results, *results.Results, error) {
	if s.first >= s.processes {
		return nil, nil, nil
	}
	b, h := s.draw(names, seeds(s.first, s.processes))
	return b, h, nil
}

func (s *simCounts) More(ctx context.Context, names []string) (*results.Results, *results.Results, error) {
	if !s.beyond {
		return nil, nil, nil
	}
	return s.Again(ctx, names)
}

func (s *simCounts) Again(_ context.Context, names []string) (*results.Results, *results.Results, error) {
	s.again++
	from := s.processes * s.again
	b, h := s.draw(names, seeds(1000+from, 1000+from+s.processes))
	return b, h, nil
}

// simRow is what a row of simulated runs found: runs failed, the
// target's failures, and the work counted (benchmark-processes of each
// build, per run).
type simRow struct {
	runs, failed, caught, otherFailed int
	work                              float64
	// open is the counted comparisons left inconclusive, over all runs.
	open int
}

// simPlan is a plan of counting: first processes of each build for every
// benchmark, up to processes for those not settled, and, with beyond,
// as many again for those still open after them.
type simPlan struct {
	name             string
	first, processes int
	beyond           bool
}

// simPlans are the plans the simulation compares: the fixed plan before
// issue 40, a count that costs too little to stage (count.StageFrom), in
// full and beyond, and the staged one.
var simPlans = []simPlan{
	{"fixed 5 (before)", 5, 5, false},
	{"5, open +5", 5, 5, true},
	{"3 -> 5, open +5", 3, 5, true},
}

// simulate judges runs simulated runs of m benchmarks counted by plan
// pl, the head's target benchmark effect times the base's (1: A/A).
func simulate(t *testing.T, seed uint64, runs, m int, pl simPlan, effect float64) simRow {
	t.Helper()
	opts := compare.Defaults()
	opts.Threshold = 0.01
	opts.CountedUnit = results.UnitInstructionsPerOp
	rows := make([]simRow, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				// Run i draws from a stream of its own: the same draws
				// however many run at once.
				s := newSimCounts(rand.New(rand.NewPCG(seed, uint64(i))), m, pl, "BenchmarkB000", effect)
				out, err := judgeCounts(context.Background(), s, opts)
				if err != nil {
					errs[i] = err
					continue
				}
				r := &rows[i]
				r.runs, r.work = 1, float64(s.work)
				failing := out.Result.Failing()
				if len(failing) > 0 {
					r.failed = 1
				}
				for _, c := range failing {
					if c.Name == s.target {
						r.caught = 1
					} else {
						r.otherFailed = 1
					}
				}
				for _, c := range out.Result.Comparisons {
					if c.Counted() && c.Verdict == compare.Inconclusive {
						r.open++
					}
				}
			}
		})
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	var row simRow
	for i, r := range rows {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		row.runs += r.runs
		row.failed += r.failed
		row.caught += r.caught
		row.otherFailed += r.otherFailed
		row.work += r.work
		row.open += r.open
	}
	row.work /= float64(runs)
	return row
}

// TestSequentialSimulation: in simulated A/A runs of the model of
// counted spreads, the rule of issue 40 (3 processes first and the
// unsettled benchmarks up to 5, or 5 for all where staging would save
// little; then 5 more for those still inconclusive) raises no more
// false alarms than the fixed plan before it (5 for all; none at all in
// this model, whose bimodal counts the confirmation settles), catches a
// change beyond the floor as often (within the binomial noise of the
// runs drawn), leaves fewer counts inconclusive, and the staged plan
// counts far less.
func TestSequentialSimulation(t *testing.T) {
	aa, power := *sequentialRuns, *sequentialPower
	type row struct {
		name   string
		effect float64
		plans  []simRow
	}
	var rows []row
	for _, m := range []int{12, 84} {
		for _, effect := range []float64{1, 1.01, 1.012, 1.015, 1.02} {
			r := row{name: fmt.Sprintf("m=%d effect=%+.1f%%", m, 100*(effect-1)), effect: effect}
			seed := uint64(m)*1000 + uint64(math.Round(effect*1000))
			runs := power
			if effect == 1 {
				runs = aa
			}
			for _, pl := range simPlans {
				r.plans = append(r.plans, simulate(t, seed, runs, m, pl, effect))
			}
			rows = append(rows, r)
		}
	}
	head := fmt.Sprintf("%d A/A runs a row, %d with a change", aa, power)
	for _, pl := range simPlans {
		head += " | " + pl.name + ": failed, caught, work, inconclusive"
	}
	t.Log(head)
	for _, r := range rows {
		line := fmt.Sprintf("%-20s", r.name)
		for _, p := range r.plans {
			line += fmt.Sprintf(" | %6.2f%% %6.2f%% %6.1f %6.2f", pct(p.failed, p.runs), pct(p.caught, p.runs), p.work, float64(p.open)/float64(p.runs))
		}
		t.Log(line)
		fixed := r.plans[0]
		runs := fixed.runs
		for i, p := range r.plans[1:] {
			name := r.name + ", " + simPlans[i+1].name
			if r.effect == 1 {
				// The false-alarm rate: at most alpha for the whole run, and
				// no more than the fixed plan's but for one run's draw.
				if fa := pct(p.failed, p.runs) / 100; fa > 0.01 || p.failed > fixed.failed+runs/100 {
					t.Errorf("%s: failed %d of %d A/A runs (the fixed plan %d): more than alpha", name, p.failed, p.runs, fixed.failed)
				}
				if p.open > fixed.open {
					t.Errorf("%s: %d inconclusive counts in %d A/A runs, the fixed plan %d: counting beyond the plan resolves none", name, p.open, runs, fixed.open)
				}
			}
			// Power: as the fixed plan's, within 3 points and twice the
			// standard error of the difference of two binomial rates.
			q := float64(fixed.caught) / float64(runs)
			if slack := 3 + 200*math.Sqrt(2*q*(1-q)/float64(runs)); r.effect >= 1.015 && pct(p.caught, runs) < pct(fixed.caught, runs)-slack {
				t.Errorf("%s: caught %d of %d, the fixed plan %d: it loses power", name, p.caught, runs, fixed.caught)
			}
			if p.otherFailed > fixed.otherFailed+runs/100 {
				t.Errorf("%s: failed %d runs on another benchmark than the target, the fixed plan %d", name, p.otherFailed, fixed.otherFailed)
			}
		}
		if staged := r.plans[2]; r.effect == 1 && staged.work > 0.75*fixed.work {
			t.Errorf("%s: the staged count counted %.1f benchmark-processes a run, the fixed plan %.1f: want at most three quarters", r.name, staged.work, fixed.work)
		}
	}
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }

// TestJudgeCountsStages: benchmarks whose first 3 processes agree are
// counted no further; one that clearly changed is settled by them too,
// and counted again in 5 fresh processes before it fails; one too
// noisy to settle is counted in 5 and judged on them (5 more would not
// narrow its interval enough to settle it); one whose interval straddles
// the floor after 5 but would not after 10 is counted in 5 more and
// settled. The counter records the plan, how many were settled and how
// many counted beyond the plan.
func TestJudgeCountsStages(t *testing.T) {
	quiet := spreadClass{share: 1, pair: 0.002, within: 0.00001}
	noisy := spreadClass{share: 1, pair: 0.005, within: 0.02}
	open := spreadClass{share: 1, pair: 0.005, within: 0.004}
	for _, tt := range []struct {
		name    string
		classes []spreadClass
		effect  float64
		// work is the benchmark-processes of each build counted;
		// settled the benchmarks the first 3 settled.
		work, settled, further int
		fails                  bool
		inconclusive           int
	}{
		{"A/A, quiet", []spreadClass{quiet, quiet, quiet, quiet}, 1, 4 * 3, 4, 0, false, 0},
		{"one 5% slower, settled by the first 3 and confirmed", []spreadClass{quiet, quiet, quiet, quiet}, 1.05, 4*3 + 5, 4, 0, true, 0},
		{"one too noisy to settle", []spreadClass{noisy, quiet, quiet, quiet}, 1, 3*3 + 5, 3, 0, false, 1},
		{"one open after 5, settled by 5 more", []spreadClass{open, quiet, quiet, quiet}, 1, 3*3 + 5 + 5, 3, 1, false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &simCounts{rng: rand.New(rand.NewPCG(1, 2)), first: 3, processes: 5, beyond: true, target: "BenchmarkB000", effect: tt.effect}
			for i, c := range tt.classes {
				s.benches = append(s.benches, simBench{name: fmt.Sprintf("BenchmarkB%03d", i), class: c, level: math.Log(1000)})
			}
			opts := compare.Defaults()
			opts.Threshold = 0.01
			opts.CountedUnit = results.UnitInstructionsPerOp
			out, err := judgeCounts(context.Background(), s, opts)
			if err != nil {
				t.Fatal(err)
			}
			c := out.Head.Settings.Counter
			if s.work != tt.work || c.First != 3 || c.Settled != tt.settled || c.Further != tt.further || out.Result.Failed(compare.FailOnRegression) != tt.fails {
				t.Errorf("counted %d benchmark-processes, first %d, settled %d, further %d, failed %v; want %d, 3, %d, %d, %v",
					s.work, c.First, c.Settled, c.Further, out.Result.Failed(compare.FailOnRegression), tt.work, tt.settled, tt.further, tt.fails)
			}
			if got := out.Result.Count(compare.Inconclusive); got != tt.inconclusive {
				t.Errorf("%d comparisons inconclusive, want %d", got, tt.inconclusive)
			}
		})
	}
}
