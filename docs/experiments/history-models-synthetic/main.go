// Command history-models-synthetic measures the history's models of
// counted and exact metrics (internal/history, issue 31) on synthetic
// histories: how often a push of unchanged code reports a change point
// or a creep (the family-wise false-alarm rate, which must stay below
// alpha), and on which push a step or a creep of known size is first
// reported. It is pure computation (seeded): the same figures on any
// machine; docs/change-points.md has them.
//
//	go run ./docs/experiments/history-models-synthetic [-series 84] [-histories 100] [-runs 30] [-seed 31]
//
// A run is a counted update: every benchmark counted in 5 processes, the
// run's value their median and its spread the standard deviation of
// their logarithms (baseline.Entry.Spread), as update stores them. Noise
// models of a process's count, on a log scale:
//
//	normal        0.05% normal (a run's median moves by about 0.03%:
//	              the spread measured between a count's processes)
//	heavy         0.05% times Student's t with 3 degrees of freedom
//	bimodal       each process on one of two paths 5% apart (the
//	              second with probability 0.3, as msgpack's float
//	              encoding), plus 0.01% normal
//	bimodal-old   the same, the spread not recorded (entries of
//	              earlier versions)
//	between-runs  0.01% normal between processes and 0.05% normal
//	              between runs that the processes do not show
//
// The family: series counted series (84: the embedded suite counted,
// one instructions/op each) and as many exact sizes (B/msg, constant),
// alpha 0.01, the 1% floor and a creep limit of 2% since 20 runs back:
// the defaults of update.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
)

// noise draws a run of a benchmark: the median of its processes' counts
// around 1 (log scale) and their spread; ok false when the spread is not
// recorded.
type noise struct {
	name string
	run  func(r *rand.Rand, between float64) (logMedian, spread float64, ok bool)
}

const processes = 5

// processRun is a run of processes whose log counts each draws.
func processRun(r *rand.Rand, shift float64, each func() float64, recorded bool) (float64, float64, bool) {
	v := make([]float64, processes)
	for i := range v {
		v[i] = shift + each()
	}
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= processes
	ss := 0.0
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	slices.Sort(v)
	return v[processes/2], math.Sqrt(ss / (processes - 1)), recorded
}

var noises = []noise{
	{"normal", func(r *rand.Rand, _ float64) (float64, float64, bool) {
		return processRun(r, 0, func() float64 { return 5e-4 * r.NormFloat64() }, true)
	}},
	{"heavy", func(r *rand.Rand, _ float64) (float64, float64, bool) {
		return processRun(r, 0, func() float64 { return 5e-4 * studentT3(r) }, true)
	}},
	{"bimodal", func(r *rand.Rand, _ float64) (float64, float64, bool) {
		return processRun(r, 0, func() float64 { return bimodal(r) }, true)
	}},
	{"bimodal-old", func(r *rand.Rand, _ float64) (float64, float64, bool) {
		return processRun(r, 0, func() float64 { return bimodal(r) }, false)
	}},
	{"between-runs", func(r *rand.Rand, _ float64) (float64, float64, bool) {
		return processRun(r, 5e-4*r.NormFloat64(), func() float64 { return 1e-4 * r.NormFloat64() }, true)
	}},
}

// bimodal is a process's log count on one of two paths 5% apart (the
// second with probability 0.3), plus 0.01% normal.
func bimodal(r *rand.Rand) float64 {
	x := 1e-4 * r.NormFloat64()
	if r.Float64() < 0.3 {
		x += math.Log(1.05)
	}
	return x
}

// studentT3 is a Student's t deviate with 3 degrees of freedom.
func studentT3(r *rand.Rand) float64 {
	z := r.NormFloat64()
	var c float64
	for range 3 {
		g := r.NormFloat64()
		c += g * g
	}
	return z / math.Sqrt(c/3)
}

// shape is what the code does to the first benchmark's count over the
// runs: a factor for run i (0-based), and its message size.
type shape func(i int) (work, size float64)

func flat(int) (float64, float64) { return 1, 41 }

// synthetic is a synthetic counted history of runs runs of series
// benchmarks: the first follows sh, the others flat.
func synthetic(r *rand.Rand, nz noise, series, runs int, sh shape) []baseline.Entry {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	h := make([]baseline.Entry, runs)
	for i := range h {
		e := baseline.Entry{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Hour), Commit: fmt.Sprintf("%040x", i+1), RunID: fmt.Sprint(i + 1),
			Medians: map[string]map[string]float64{}, Spread: map[string]map[string]float64{}}
		for b := range series {
			key := fmt.Sprintf("pkg BenchmarkB%03d", b)
			work, size := 1.0, 41.0
			if b == 0 {
				work, size = sh(i)
			}
			lm, sp, ok := nz.run(r, 0)
			e.Medians[key] = map[string]float64{"instructions/op": 10000 * float64(b+1) * work * math.Exp(lm), "B/msg": size}
			if ok {
				e.Spread[key] = map[string]float64{"instructions/op": sp}
			}
		}
		h[i] = e
	}
	return h
}

// replayed is what replay found: for each push (index of its run),
// whether it reported a new change point and a new creep of the other
// benchmarks, and the push that first reported a change point of the
// first benchmark's count, its size, and its creep (-1: never).
type replayed struct {
	falsePoint, falseCreep []bool
	countAt, sizeAt        int
	creepAt                int
}

// replay analyses every push of h from its 2nd run, as update would.
func replay(h []baseline.Entry, o history.Options) replayed {
	rp := replayed{countAt: -1, sizeAt: -1, creepAt: -1}
	for n := 2; n <= len(h); n++ {
		a := history.Analyze(h[:n], h[:n-1], o)
		fp, fc := false, false
		for _, p := range a.NewPoints() {
			switch {
			case p.Key == "pkg BenchmarkB000" && p.Unit == "instructions/op":
				if rp.countAt < 0 {
					rp.countAt = n - 1
				}
			case p.Key == "pkg BenchmarkB000" && p.Unit == "B/msg":
				if rp.sizeAt < 0 {
					rp.sizeAt = n - 1
				}
			default:
				fp = true
			}
		}
		if a.Creep != nil {
			for _, c := range a.Creep.Found {
				switch {
				case !c.New:
				case c.Key == "pkg BenchmarkB000":
					if rp.creepAt < 0 {
						rp.creepAt = n - 1
					}
				default:
					fc = true
				}
			}
		}
		rp.falsePoint, rp.falseCreep = append(rp.falsePoint, fp), append(rp.falseCreep, fc)
	}
	return rp
}

// falseAlarms counts rp's pushes and those that reported a change point,
// a creep, and either, of benchmarks whose code did not change.
func (rp replayed) falseAlarms() (pushes, points, creeps, either int) {
	for i := range rp.falsePoint {
		pushes++
		if rp.falsePoint[i] {
			points++
		}
		if rp.falseCreep[i] {
			creeps++
		}
		if rp.falsePoint[i] || rp.falseCreep[i] {
			either++
		}
	}
	return pushes, points, creeps, either
}

// family is the experiment's flags: the size of the family of series
// and of a row's histories, and the seed of their noise.
type family struct {
	series, histories, runs int
	seed                    uint64
}

// defaults are update's options: the 1% floor, a creep limit of 2%
// since 20 runs back.
var defaults = history.Options{Creep: history.CreepOptions{Limit: 0.02, Runs: 20}}

func main() {
	var f family
	flag.IntVar(&f.series, "series", 84, "counted series in the family (and as many exact sizes)")
	flag.IntVar(&f.histories, "histories", 100, "histories a row")
	flag.IntVar(&f.runs, "runs", 30, "runs of the null histories")
	flag.Uint64Var(&f.seed, "seed", 31, "seed")
	only := flag.String("only", "", "null or steps: one part only")
	flag.Parse()
	start := time.Now()
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if *only != "steps" {
		unchanged(w, f)
		fmt.Println()
	}
	if *only != "null" {
		steps(w, f)
	}
	fmt.Fprintf(os.Stderr, "took %s\n", time.Since(start).Round(time.Second))
}

// unchanged writes the table of unchanged code: per noise, with and
// without the floors, how many pushes reported a change point or a
// creep.
func unchanged(w *tabwriter.Writer, f family) {
	fmt.Printf("Unchanged code: %d histories of %d runs, %d counted series and %d sizes, pushes from the 2nd run on (%d a row); alpha 0.01, floor 1%%, creep 2%% since 20 runs back\n\n",
		f.histories, f.runs, f.series, f.series, f.histories*(f.runs-1))
	fmt.Fprintln(w, "noise\tfloors\tpushes\twith a change point\twith a creep\twith either\t%\t")
	for _, withFloors := range []bool{true, false} {
		for k, nz := range noises {
			if !withFloors && nz.name != "normal" && nz.name != "heavy" {
				continue
			}
			o, fl := defaults, "1%, 2%"
			if !withFloors {
				o, fl = history.Options{Floor: 1e-12, Creep: history.CreepOptions{Limit: 1e-12, Runs: 20}}, "none"
			}
			r := rand.New(rand.NewPCG(f.seed, uint64(k)))
			pushes, fp, fc, either := 0, 0, 0, 0
			for range f.histories {
				p, pt, c, e := replay(synthetic(r, nz, f.series, f.runs, flat), o).falseAlarms()
				pushes, fp, fc, either = pushes+p, fp+pt, fc+c, either+e
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%.2f%%\t\n", nz.name, fl, pushes, fp, fc, either, 100*float64(either)/float64(pushes))
		}
	}
	w.Flush()
}

// scenario is a change of the first benchmark over a history of runs
// runs, and what of a replay says the push that first reported it.
type scenario struct {
	name string
	runs int
	sh   shape
	what func(replayed) int
}

// step is a shape whose work grows by grow and whose size grows from 41
// to 51 bytes at run at (0-based).
func step(at int, grow float64) shape {
	return func(i int) (float64, float64) {
		if i >= at {
			return 1 + grow, 51
		}
		return 1, 41
	}
}

// creep is a shape whose work grows by per a run.
func creep(per float64) shape {
	return func(i int) (float64, float64) { return math.Pow(1+per, float64(i)), 41 }
}

var scenarios = []scenario{
	{"size 41 → 51 B at run 4", 6, step(3, 0.15), func(rp replayed) int { return rp.sizeAt }},
	{"count +15% at run 4", 6, step(3, 0.15), func(rp replayed) int { return rp.countAt }},
	{"count +2% at run 4", 6, step(3, 0.02), func(rp replayed) int { return rp.countAt }},
	{"count +1.2% at run 4", 6, step(3, 0.012), func(rp replayed) int { return rp.countAt }},
	{"count +0.8% at run 4 (below the floor)", 6, step(3, 0.008), func(rp replayed) int { return rp.countAt }},
	{"creep +0.4% a push", 13, creep(0.004), func(rp replayed) int { return rp.creepAt }},
	{"creep +0.2% a push", 30, creep(0.002), func(rp replayed) int { return rp.creepAt }},
	{"creep +0.1% a push", 30, creep(0.001), func(rp replayed) int { return rp.creepAt }},
}

// steps writes the table of the scenarios: per scenario and noise, on
// which push a step or a creep was first reported, and how many pushes
// reported a change that was not there.
func steps(w *tabwriter.Writer, f family) {
	fmt.Printf("A step or a creep of the first benchmark (%d histories a row, %d counted series and %d sizes, the defaults of update): the push that first reported it, as the run it stored (1 = the oldest)\n\n", f.histories, f.series, f.series)
	fmt.Fprintln(w, "what\tnoise\tfound\tfirst push: min\tmedian\tmax\tfalse pushes\t")
	for si, sc := range scenarios {
		for k, nz := range noises {
			if nz.name == "bimodal-old" || nz.name == "heavy" && !strings.HasPrefix(sc.name, "count +1.2") && !strings.HasPrefix(sc.name, "creep +0.4") {
				continue
			}
			r := rand.New(rand.NewPCG(f.seed+uint64(100*(si+1)), uint64(k)))
			var at []int
			falsePushes := 0
			for range f.histories {
				rp := replay(synthetic(r, nz, f.series, sc.runs, sc.sh), defaults)
				if x := sc.what(rp); x >= 0 {
					at = append(at, x+1)
				}
				_, _, _, e := rp.falseAlarms()
				falsePushes += e
			}
			sort.Ints(at)
			lo, med, hi := "–", "–", "–"
			if len(at) > 0 {
				lo, med, hi = fmt.Sprint(at[0]), fmt.Sprint(at[len(at)/2]), fmt.Sprint(at[len(at)-1])
			}
			fmt.Fprintf(w, "%s\t%s\t%d/%d\t%s\t%s\t%s\t%d\t\n", sc.name, nz.name, len(at), f.histories, lo, med, hi, falsePushes)
		}
	}
	w.Flush()
}
