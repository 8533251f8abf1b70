// Command changepoint-synthetic measures the change-point detection of
// internal/history on synthetic series: how often a step of known size is
// found, where, and how many runs after it; and how often a series
// without a step shows one. It is pure computation (seeded), so its
// output is the same on any machine; docs/change-points.md has it.
//
//	go run ./docs/experiments/changepoint-synthetic [-series 100] [-family 100] [-workers 1]
//
// Noise models, as the runs of this machine's history move (between-run
// spreads of about ±3% to ±10%, docs/sensitivity.md, and a heavy tail: 1
// unchanged timing in 100 moved by 16-36%):
//
//	normal-3%    value·exp(0.03·z), z standard normal
//	normal-10%   value·exp(0.10·z)
//	heavy-3%     value·exp(0.03·t), t Student's t with 3 degrees of
//	             freedom (of 100 points, about 1 beyond ±16%)
//
// A step of k times the noise multiplies the series by exp(k·σ) from the
// step on (σ = 0.03 or 0.10, the scale). The level of each series' test
// is alpha/family, the Bonferroni share of one series when family series
// of a suite vary (the default suite has about 100: 84 timings and a few
// allocation counts that vary), with alpha 0.01: what history.Analyze
// uses on a push.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/wirebench/wirebench/internal/changepoint"
	"github.com/wirebench/wirebench/internal/history"
)

type noise struct {
	name  string
	sigma float64
	draw  func(r *rand.Rand) float64 // one standardised deviate
}

var noises = []noise{
	{"normal-3%", 0.03, func(r *rand.Rand) float64 { return r.NormFloat64() }},
	{"normal-10%", 0.10, func(r *rand.Rand) float64 { return r.NormFloat64() }},
	{"heavy-3%", 0.03, studentT3},
}

// studentT3 is a Student's t deviate with 3 degrees of freedom:
// z / sqrt(chi²₃/3).
func studentT3(r *rand.Rand) float64 {
	z := r.NormFloat64()
	var c float64
	for range 3 {
		g := r.NormFloat64()
		c += g * g
	}
	return z / math.Sqrt(c/3)
}

// series is n points of noise nz around 1000 with a step of k·σ at step
// (no step when k is 0).
func series(r *rand.Rand, nz noise, n, step int, k float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1000 * math.Exp(nz.sigma*nz.draw(r))
		if k > 0 && i >= step {
			x[i] *= math.Exp(k * nz.sigma)
		}
	}
	return x
}

// stepResult is what detection made of one series with a step.
type stepResult struct {
	found bool // a point within ±1 of the step, by the last run
	exact bool // the point found first was at the step itself
	delay int  // runs measured after the step (the step's run included) when it was first found
	extra int  // points more than one run from the step, in the full series
}

// detectStep grows the series one run at a time, as pushes do, from the
// first length that could split after the step, and notes when a point
// near the step first appears.
func detectStep(x []float64, step int, o changepoint.Options) stepResult {
	var res stepResult
	for n := step + history.MinSize; n <= len(x); n++ {
		for _, p := range changepoint.Detect(x[:n], o).Points {
			if abs(p.Index-step) <= 1 {
				res.found, res.exact, res.delay = true, p.Index == step, n-step
				break
			}
		}
		if res.found {
			break
		}
	}
	for _, p := range changepoint.Detect(x, o).Points {
		if abs(p.Index-step) > 1 {
			res.extra++
		}
	}
	return res
}

func abs(x int) int { return max(x, -x) }

// seedOffset is added to the seeds of the series' noise (-seed).
var seedOffset uint64

func main() {
	nSeries := flag.Int("series", 100, "series per configuration")
	family := flag.Int("family", 100, "series that vary in the suite: the test's level is alpha/family")
	alpha := flag.Float64("alpha", 0.01, "the chance of any false change point on a push")
	pushes := flag.Int("pushes", 100, "simulated pushes of the whole suite (family flat series each) for the per-push rate")
	workers := flag.Int("workers", 1, "series analysed at once")
	only := flag.String("only", "", "steps or flat: only that half")
	lengths := flag.String("lengths", "30,50", "series lengths, separated by commas")
	flag.Uint64Var(&seedOffset, "seed", 0, "added to every seed: another draw of the same experiment")
	flag.Parse()
	var ns []int
	for _, f := range strings.Split(*lengths, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2*history.MinSize {
			fmt.Fprintf(os.Stderr, "changepoint-synthetic: -lengths %q: %q is not a length of at least %d\n", *lengths, f, 2*history.MinSize)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	level := *alpha / float64(*family)
	opts := history.TestOptions(level, 1)
	fmt.Printf("level of each series' test: %.3g (alpha %g / %d series), %d permutations at most, segments of at least %d runs\n\n",
		level, *alpha, *family, opts.Permutations, history.MinSize)

	par := func(n int, f func(i int)) {
		var wg sync.WaitGroup
		next := make(chan int)
		for range *workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					f(i)
				}
			}()
		}
		for i := range n {
			next <- i
		}
		close(next)
		wg.Wait()
	}

	if *only != "flat" {
		steps(ns, *nSeries, opts, par)
	}
	if *only != "steps" {
		flat(ns, *nSeries, *pushes, *family, opts, par)
	}
}

// steps measures series with a step at two thirds of their length.
func steps(ns []int, nSeries int, opts changepoint.Options, par func(int, func(int))) {
	fmt.Println("Steps (at two thirds: run 20 of 30, 33 of 50): found = a change point within one run of the step by the last run;")
	fmt.Println("delay = runs measured from the step on (its own run included) when it was first found, as the history grows a run a push.")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "length\tnoise\tstep\tfound\tat the step\tdelay median\tdelay 90%\tmax\tother points\t")
	for _, n := range ns {
		step := 2 * n / 3
		for _, nz := range noises {
			for _, k := range []float64{1, 2, 5, 20} {
				out := make([]stepResult, nSeries)
				par(nSeries, func(i int) {
					r := rand.New(rand.NewPCG(uint64(n)+seedOffset<<32, uint64(i)*1000+uint64(k)))
					o := opts
					o.Seed = uint64(i)
					out[i] = detectStep(series(r, nz, n, step, k), step, o)
				})
				var delays []int
				found, exact, extra := 0, 0, 0
				for _, s := range out {
					if s.found {
						found++
						delays = append(delays, s.delay)
						if s.exact {
							exact++
						}
					}
					extra += s.extra
				}
				fmt.Fprintf(tw, "%d\t%s\t%g×\t%d/%d\t%d\t%s\t%s\t%s\t%d\t\n", n, nz.name, k, found, nSeries, exact,
					quantile(delays, 0.5), quantile(delays, 0.9), quantile(delays, 1), extra)
			}
		}
	}
	tw.Flush()
	fmt.Println()
}

// flat measures series without a step: per series, per push of a whole
// suite, and over a history's life.
func flat(ns []int, nSeries, pushes, family int, opts changepoint.Options, par func(int, func(int))) {
	fmt.Printf("Flat series (no step): per series, %d series of the full length; per push, %d pushes of %d flat series each (the whole suite unchanged);\n", nSeries, pushes, family)
	fmt.Println("over a history's life, the same series grown a run a push from 6 to its length, any point on any push.")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "length\tnoise\tseries with a point\tpushes with a point\tseries with a point on some push\t")
	for _, n := range ns {
		for _, nz := range noises {
			perSeries := make([]bool, nSeries)
			life := make([]bool, nSeries)
			par(nSeries, func(i int) {
				r := rand.New(rand.NewPCG(uint64(n)+7+seedOffset<<32, uint64(i)))
				x := series(r, nz, n, 0, 0)
				o := opts
				o.Seed = uint64(i)
				perSeries[i] = len(changepoint.Detect(x, o).Points) > 0
				for m := 2 * history.MinSize; m <= n && !life[i]; m++ {
					life[i] = len(changepoint.Detect(x[:m], o).Points) > 0
				}
			})
			pushHit := make([]bool, pushes)
			par(pushes, func(p int) {
				for j := range family {
					r := rand.New(rand.NewPCG(uint64(n)+99+seedOffset<<32, uint64(p)*100000+uint64(j)))
					o := opts
					o.Seed = uint64(p*100000 + j)
					if len(changepoint.Detect(series(r, nz, n, 0, 0), o).Points) > 0 {
						pushHit[p] = true
						return
					}
				}
			})
			fmt.Fprintf(tw, "%d\t%s\t%d/%d\t%d/%d\t%d/%d\t\n", n, nz.name, count(perSeries), nSeries, count(pushHit), pushes, count(life), nSeries)
		}
	}
	tw.Flush()
}

func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// quantile is the q-quantile of v (nearest rank), "–" when empty.
func quantile(v []int, q float64) string {
	if len(v) == 0 {
		return "–"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return fmt.Sprint(s[max(0, i)])
}
