package ab

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// series is one paired timing comparison: the time per operation of the
// base's and the other side's block, pair by pair (same index, same
// round, adjacent in time), and the generation of workers each pair came
// from (nil: all from one).
type series struct {
	name        string
	base, other []float64
	gen         []int
}

// logRatios returns log(other/base) pair by pair, skipping pairs where a
// side measured no time (a clock that did not move cannot be compared).
func (s series) logRatios() []float64 {
	lr := make([]float64, 0, len(s.base))
	for i := range s.base {
		if s.base[i] > 0 && s.other[i] > 0 {
			lr = append(lr, math.Log(s.other[i]/s.base[i]))
		}
	}
	return lr
}

// paired compares every series and judges it with the effect floor
// opts.Threshold: a regression is significant after adjustment (Holm by
// default, over all the series together) and slower than 1+floor;
// unchanged means the interval lies inside ±floor.
//
// Pairs from one generation of workers: the Wilcoxon signed-rank test on
// the per-pair log ratios, and the ratio other/base as the exponentiated
// pseudo-median (the one-sample Hodges–Lehmann estimate) with its
// distribution-free interval.
//
// Pairs from several generations: each generation's pseudo-median is one
// estimate, and the generations are combined as a random-effects
// meta-analysis, because pairs from one pair of worker processes share
// that pair's offset (see Spawner) and are not independent replicates of
// the comparison; generations are. inst is the variance of that offset
// (on the log scale, see instanceVariance); the estimate is the weighted
// mean of the generations' estimates, its standard error accounts for
// both the noise within generations and the offsets between them, and the
// test and interval use Student's t.
func paired(ss []series, opts compare.Options, inst noise) []compare.Comparison {
	cs := make([]compare.Comparison, len(ss))
	lrs := make([][]float64, len(ss))
	ses := make([]float64, len(ss))
	var ps []float64
	for i, s := range ss {
		c := compare.Comparison{
			Name: s.name, Unit: results.UnitNsPerOp, Kind: compare.Noisy, Paired: true,
			Baseline: compare.Summarize(s.base), Candidate: compare.Summarize(s.other),
			Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), RawRatio: math.NaN(),
			P: math.NaN(), PAdjusted: math.NaN(), MDE: math.NaN(),
		}
		lr := group(s.logRatios(), maxTested)
		lrs[i] = lr
		ses[i] = math.NaN()
		if gs := s.generations(); len(gs) >= 2 {
			ses[i] = estimateGenerations(&c, gs, inst, opts.Confidence)
		} else {
			estimatePaired(&c, lr, opts.Confidence)
		}
		if !math.IsNaN(c.P) {
			ps = append(ps, c.P)
		}
		cs[i] = c
	}
	var adjusted []float64
	switch opts.Correction {
	case compare.BenjaminiHochberg:
		adjusted = stats.BenjaminiHochberg(ps)
	case compare.NoCorrection:
		adjusted = slices.Clone(ps)
	default:
		adjusted = stats.Holm(ps)
	}
	m, k := len(ps), 0
	for i := range cs {
		c := &cs[i]
		if !math.IsNaN(c.P) {
			c.PAdjusted = adjusted[k]
			k++
		}
		judgePaired(c, lrs[i], ses[i], opts, m)
	}
	return cs
}

// generations returns the series' log ratios by generation, skipping
// generations without pairs.
func (s series) generations() [][]float64 {
	if s.gen == nil {
		return nil
	}
	by := map[int][]float64{}
	var order []int
	for i := range s.base {
		if s.base[i] > 0 && s.other[i] > 0 {
			g := s.gen[i]
			if _, ok := by[g]; !ok {
				order = append(order, g)
			}
			by[g] = append(by[g], math.Log(s.other[i]/s.base[i]))
		}
	}
	out := make([][]float64, 0, len(order))
	for _, g := range order {
		out = append(out, by[g])
	}
	return out
}

// noise is what the run knows about the offsets between generations of
// workers: their pooled variance on the log scale (see instanceVariance)
// and the degrees of freedom behind it.
type noise struct {
	variance, df float64
}

// genEstimates returns each generation's pseudo-median of the log ratios
// and its squared standard error, from the pooled within-generation
// spread (MAD of the log ratios around their generation's estimate) and
// the Hodges–Lehmann estimator's efficiency (its standard error is
// sqrt(pi/3) sigma/sqrt(n) for normal data).
func genEstimates(gs [][]float64) (d, s2 []float64) {
	var resid []float64
	for _, lr := range gs {
		e := pseudoMedianEstimate(lr)
		d = append(d, e)
		for _, x := range lr {
			resid = append(resid, x-e)
		}
	}
	sigma, err := stats.MAD(resid)
	if err != nil || sigma == 0 {
		sigma = 1e-9
	}
	for _, lr := range gs {
		s2 = append(s2, math.Pi/3*sigma*sigma/float64(len(lr)))
	}
	return d, s2
}

// pseudoMedianEstimate is the pseudo-median of x (the median when it has
// no interval, e.g. all values equal), on at most maxTested values.
func pseudoMedianEstimate(x []float64) float64 {
	x = group(x, maxTested)
	if pm, err := stats.PseudoMedian(x, 0.95); err == nil {
		return pm.Estimate
	}
	m, err := stats.Median(x)
	if err != nil {
		return 0
	}
	return m
}

// excessVariance is the variance between generations' estimates beyond
// what the noise within generations explains (may be negative), and its
// degrees of freedom.
func excessVariance(gs [][]float64) (float64, float64) {
	d, s2 := genEstimates(gs)
	if len(d) < 2 {
		return math.NaN(), 0
	}
	mean, within := 0.0, 0.0
	for i := range d {
		mean += d[i]
		within += s2[i]
	}
	mean /= float64(len(d))
	within /= float64(len(d))
	v := 0.0
	for _, x := range d {
		v += (x - mean) * (x - mean)
	}
	return v/float64(len(d)-1) - within, float64(len(d) - 1)
}

// instanceVariance pools the excess variance between generations over
// the series ss, comparisons of one kind (see run.judge): a real change
// moves every generation the same way, so it adds nothing to the spread
// between them, and the head's comparisons may be pooled whatever the
// pull request changed. It takes the median
// over the series, so a few benchmarks with wild generations do not set
// the level for all, corrected for the median of a chi-square falling
// below its mean (Wilson–Hilferty), and never less than 0.
func instanceVariance(ss []series) noise {
	var vs []float64
	df := 0.0
	for _, s := range ss {
		if v, k := excessVariance(s.generations()); k > 0 {
			vs = append(vs, v)
			df += k
		}
	}
	if len(vs) == 0 {
		return noise{}
	}
	med, _ := stats.Median(vs)
	k := df / float64(len(vs))
	corr := math.Pow(1-2/(9*k), 3)
	return noise{variance: max(0, med/corr), df: df}
}

// priorWeight is how many generations' worth of evidence the run's pooled
// instance variance counts for against a series' own spread between
// generations.
const priorWeight = 8

// estimateGenerations fills c from the generations' estimates, combined as
// a random-effects meta-analysis with the series' instance variance: its
// own excess spread between generations shrunk towards the run's pooled
// one. It returns the standard error of the log ratio.
func estimateGenerations(c *compare.Comparison, gs [][]float64, inst noise, confidence float64) float64 {
	d, s2 := genEstimates(gs)
	own, k := excessVariance(gs)
	tau2 := inst.variance
	if k > 0 && !math.IsNaN(own) {
		tau2 = (k*max(own, 0) + priorWeight*inst.variance) / (k + priorWeight)
	}
	var sw, swd float64
	for i := range d {
		w := 1 / (s2[i] + tau2)
		sw += w
		swd += w * d[i]
	}
	mu, se := swd/sw, math.Sqrt(1/sw)
	df := k + priorWeight
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	c.P = 2 * t.Survival(math.Abs(mu)/se)
	q := t.Quantile(1 - (1-confidence)/2)
	c.Ratio, c.Lo, c.Hi = math.Exp(mu), math.Exp(mu-q*se), math.Exp(mu+q*se)
	c.RawRatio = c.Ratio
	c.Note = fmt.Sprintf("%d generations of workers, offsets between them ±%.1f%% (sd)", len(d), 100*math.Sqrt(tau2))
	return se
}

// minPairs is the fewest pairs a paired test is run on: with fewer, no
// outcome reaches any useful level.
const minPairs = 6

// maxTested bounds the log ratios the test and the interval see: the
// interval materializes n(n+1)/2 Walsh averages, which must stay within
// internal/stats' limit (10 million, n <= 4471). Beyond it, consecutive
// pairs are averaged in groups (see group).
const maxTested = 4000

// group returns lr with consecutive values averaged in groups of
// ceil(len/max), so at most max values remain. Averaging neighbours keeps
// the centre and makes the values closer to normal; the test stays valid
// because groups of pairs are as exchangeable as the pairs were.
func group(lr []float64, limit int) []float64 {
	if len(lr) <= limit {
		return lr
	}
	k := (len(lr) + limit - 1) / limit
	out := make([]float64, 0, (len(lr)+k-1)/k)
	for i := 0; i < len(lr); i += k {
		j := min(i+k, len(lr))
		sum := 0.0
		for _, x := range lr[i:j] {
			sum += x
		}
		out = append(out, sum/float64(j-i))
	}
	return out
}

// estimatePaired fills the test and the estimate of one series.
func estimatePaired(c *compare.Comparison, lr []float64, confidence float64) {
	if len(lr) < minPairs {
		c.Note = fmt.Sprintf("too few pairs (%d): need at least %d, hundreds to see a few percent", len(lr), minPairs)
		return
	}
	sr, err := stats.WilcoxonSignedRank(lr)
	switch {
	case err == nil:
		c.P = sr.P
	case errors.Is(err, stats.ErrAllEqual):
		c.P = 1 // every pair measured exactly the same time: no evidence of change
	default:
		c.Note = "no test: " + err.Error()
		return
	}
	pm, err := stats.PseudoMedian(lr, confidence)
	switch {
	case err == nil:
		c.Ratio, c.Lo, c.Hi = math.Exp(pm.Estimate), math.Exp(pm.Lo), math.Exp(pm.Hi)
	case errors.Is(err, stats.ErrAllEqual):
		// Every non-zero log ratio is the same (or all are zero).
		v := 0.0
		for _, x := range lr {
			if x != 0 {
				v = x
				break
			}
		}
		c.Ratio, c.Lo, c.Hi = math.Exp(v), math.Exp(v), math.Exp(v)
	default:
		c.Note = "no estimate: " + err.Error()
		c.P = math.NaN()
		return
	}
	c.RawRatio = c.Ratio
}

// judgePaired judges c by compare.Judge, the rule of every comparison,
// with the sensitivity of its design: a comparison over several
// generations by its standard error se of the log ratio, one of a single
// generation (se NaN) by the signed-rank test on its log ratios lr.
func judgePaired(c *compare.Comparison, lr []float64, se float64, opts compare.Options, m int) {
	var s compare.Sensitivity = pairedRounds(lr)
	if !math.IsNaN(se) {
		s = metaAnalysis(se)
	}
	compare.Judge(c, opts, m, s)
}

// pairedRounds is the Sensitivity of the signed-rank test on per-pair log
// ratios.
type pairedRounds []float64

// MDE is stats.PairedMDE of the log ratios.
func (lr pairedRounds) MDE(level, power float64) (float64, bool) {
	mde, err := stats.PairedMDE(lr, level, power)
	return mde, err == nil || math.IsInf(mde, 1)
}

// SamplesFor is pairsFor of the log ratios.
func (lr pairedRounds) SamplesFor(effect, level, power float64) int {
	return pairsFor(lr, effect, level, power)
}

// metaAnalysis is the Sensitivity of a random-effects meta-analysis over
// generations of workers: a normal test of the mean log ratio with this
// standard error.
type metaAnalysis float64

// MDE is the change the test detects with the given power:
// exp((z(1-level/2) + z(power)) * se) - 1.
func (se metaAnalysis) MDE(level, power float64) (float64, bool) {
	return math.Expm1((distuv.UnitNormal.Quantile(1-level/2) + distuv.UnitNormal.Quantile(power)) * float64(se)), true
}

// SamplesFor is 0, not computed: more pairs shrink only the noise within
// generations, not the offsets between them that bound the standard error.
func (metaAnalysis) SamplesFor(effect, level, power float64) int { return 0 }

// pairsFor is the number of pairs the signed-rank test needs to detect a
// change of effect at level alpha with the given power, if the spread of
// the log ratios stays what it is: the inverse of stats.PairedMDE,
// n = ((z(1-alpha/2) + z(power)) * MAD / log(1+effect))^2 * pi/3.
// 0 when it cannot be computed.
func pairsFor(lr []float64, effect, alpha, power float64) int {
	s, err := stats.MAD(lr)
	if err != nil || !(s > 0) {
		return 0
	}
	z := distuv.UnitNormal.Quantile(1-alpha/2) + distuv.UnitNormal.Quantile(power)
	k := z * s / math.Log1p(effect)
	n := math.Ceil(k * k * math.Pi / 3)
	if !(n < 1e9) {
		return 0
	}
	// The smallest two-sided p-value of n pairs is 2/2^n.
	for math.Ldexp(2, -int(n)) > alpha {
		n++
	}
	return int(n)
}

// reconcile applies the confirmation rule. main is the judgement of the
// main phase, final the judgement of every benchmark again on all
// generations, the confirmation's cg fresh ones included for the changes
// re-measured. A regression of the main phase stands only if it is still
// a regression on all the generations; one that is not keeps its
// main-phase numbers, marked Unconfirmed: reported, not enforced. Every
// other comparison takes its final judgement (an improvement that did not
// hold is inconclusive or unchanged there), but for one the main phase
// did not flag that comes out changed only with the confirmation's
// generations added: nothing re-measured it, so it keeps its main-phase
// verdict, with a note. Only what the main phase flagged and the
// confirmation held is claimed, so the changes reported are at most
// those the progress said it was confirming.
func reconcile(main, final []compare.Comparison, cg int) []compare.Comparison {
	byName := make(map[string]compare.Comparison, len(final))
	for _, c := range final {
		byName[c.Name] = c
	}
	out := make([]compare.Comparison, len(main))
	for i, m := range main {
		f, ok := byName[m.Name]
		if !ok {
			out[i] = m
			continue
		}
		what := fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%], p (adj.) = %.2g with %s of fresh workers more", 100*(f.Ratio-1), 100*(f.Lo-1), 100*(f.Hi-1), f.PAdjusted, human.Plural(cg, "generation", "generations"))
		switch {
		case !flagged(m) && flagged(f):
			m.Note = compare.JoinNote(m.Note, fmt.Sprintf("%s only with the confirmation's generations added (%s), not in the main phase: not re-measured, so not claimed", f.Verdict, what))
			out[i] = m
		case !flagged(m):
			out[i] = f
		case m.Verdict == compare.Regression && f.Verdict == compare.Regression:
			f.Note = compare.JoinNote(f.Note, "confirmed on re-measurement: "+what)
			out[i] = f
		case m.Verdict == compare.Regression:
			m.Unconfirmed = true
			m.Note = compare.JoinNote(m.Note, "did not hold on re-measurement ("+what+"): reported, not enforced")
			out[i] = m
		case f.Verdict == m.Verdict:
			f.Note = compare.JoinNote(f.Note, "confirmed on re-measurement: "+what)
			out[i] = f
		default:
			f.Note = compare.JoinNote(f.Note, fmt.Sprintf("a change of %+.2f%% in the main phase that did not hold on re-measurement", 100*(m.Ratio-1)))
			out[i] = f
		}
	}
	return out
}
