// Package compare decides, benchmark by benchmark and metric by metric,
// whether a candidate run differs from a baseline run: exact metrics
// (encoded size, deterministic allocation counts) by plain comparison
// against a threshold, noisy metrics (timings) by a Mann–Whitney test with
// a Hodges–Lehmann estimate of the ratio and its interval, with the
// p-values of the whole run adjusted so the chance of any false alarm stays
// below alpha. When the two runs come from different machines it separates
// the machine's global speed shift from each benchmark's own change.
package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// Verdict is the outcome of one comparison.
type Verdict string

const (
	// Regression: significant (exact metrics: any change) and worse than
	// the threshold.
	Regression Verdict = "regression"
	// Improvement: significant and better than the threshold.
	Improvement Verdict = "improvement"
	// Unchanged: the confidence interval lies inside ±threshold (exact
	// metrics: the change is within the threshold).
	Unchanged Verdict = "unchanged"
	// Inconclusive: neither — too noisy or too few samples to tell.
	Inconclusive Verdict = "inconclusive"
)

// Verdicts lists the verdicts in report order.
var Verdicts = []Verdict{Regression, Improvement, Inconclusive, Unchanged}

// Kind says how a metric was compared.
type Kind string

const (
	// Exact metrics are deterministic: any change is real.
	Exact Kind = "exact"
	// Noisy metrics are compared with a statistical test.
	Noisy Kind = "noisy"
)

// Correction names a multiple-comparison adjustment.
type Correction string

const (
	Holm              Correction = "holm"
	BenjaminiHochberg Correction = "bh"
	NoCorrection      Correction = "none"
)

// Normalize says when to separate the machine's speed shift.
type Normalize string

const (
	// NormalizeAuto normalises timings when the two runs' machines differ.
	NormalizeAuto   Normalize = "auto"
	NormalizeAlways Normalize = "always"
	NormalizeNever  Normalize = "never"
)

// Options are the comparison's thresholds and levels.
type Options struct {
	// Threshold is the relative change of a noisy metric that matters:
	// 0.05 means 5%. Default 0.05.
	Threshold float64
	// SizeThreshold is the relative growth of the encoded size (B/msg)
	// that counts as a regression. Default 0: any byte more.
	SizeThreshold float64
	// AllocThreshold is the relative growth of a deterministic allocation
	// count (allocs/op, B/op when every sample agrees) that counts as a
	// regression. Default 0: any allocation more.
	AllocThreshold float64
	// Alpha bounds the false alarms of the run after adjustment: with
	// Holm, the chance of any false alarm; with BH, the expected share of
	// false discoveries. Default 0.01.
	Alpha float64
	// Correction is the multiple-comparison adjustment. Default Holm.
	Correction Correction
	// Confidence is the level of the reported intervals, which also decide
	// "unchanged". Default 0.95.
	Confidence float64
	// Power is the power at which the minimum detectable effect is
	// computed. Default 0.8.
	Power float64
	// Normalize decides when timings are judged against the machine's
	// global speed shift. Default auto.
	Normalize Normalize
	// BetweenRun is the between-run noise of the timings, from the
	// baseline's history; nil when unknown.
	BetweenRun *Noise `json:"-"`
}

// Noise maps a benchmark name to the between-run noise of its ns/op: a
// log-scale standard deviation (see baseline.BetweenRunNoise). A timing
// must change by more than three times that noise, as well as by the
// threshold, to count.
type Noise struct {
	Spread map[string]float64
}

// Defaults returns the default options.
func Defaults() Options {
	return Options{Threshold: 0.05, Alpha: 0.01, Correction: Holm, Confidence: 0.95, Power: 0.8, Normalize: NormalizeAuto}
}

// Validate checks the options' ranges.
func (o Options) Validate() error {
	switch {
	case !(o.Threshold >= 0 && o.Threshold < 1):
		return fmt.Errorf("threshold %v: want a fraction in [0, 1), e.g. 0.05 for 5%%", o.Threshold)
	case !(o.SizeThreshold >= 0) || !(o.AllocThreshold >= 0):
		return fmt.Errorf("size and allocation thresholds must be >= 0")
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("alpha %v: want a probability in (0, 1), e.g. 0.01", o.Alpha)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("confidence %v: want a probability in (0, 1), e.g. 0.95", o.Confidence)
	case !(o.Power > 0 && o.Power < 1):
		return fmt.Errorf("power %v: want a probability in (0, 1), e.g. 0.8", o.Power)
	}
	switch o.Correction {
	case Holm, BenjaminiHochberg, NoCorrection:
	default:
		return fmt.Errorf("correction %q: want holm, bh or none", o.Correction)
	}
	switch o.Normalize {
	case NormalizeAuto, NormalizeAlways, NormalizeNever:
	default:
		return fmt.Errorf("normalize %q: want auto, always or never", o.Normalize)
	}
	return nil
}

// Summary describes one side's samples of a metric.
type Summary struct {
	Median float64 `json:"median"`
	N      int     `json:"n"`
}

// Comparison is one benchmark and unit compared.
type Comparison struct {
	Name      string
	Unit      string
	Kind      Kind
	Baseline  Summary
	Candidate Summary
	// Ratio is the estimated candidate/baseline ratio: for noisy metrics
	// the Hodges–Lehmann estimate (divided by the speed shift when
	// timings were normalised), for exact ones the plain ratio. Lo and Hi
	// bound it at Options.Confidence (equal to Ratio for exact metrics).
	Ratio, Lo, Hi float64
	// RawRatio is Ratio before normalisation.
	RawRatio float64
	// P is the test's two-sided p-value and PAdjusted its value after the
	// run's multiple-comparison adjustment; NaN for exact metrics.
	P, PAdjusted float64
	Verdict      Verdict
	// MDE is the smallest change (as a fraction, 0.03 = 3%) this
	// comparison could detect with Options.Power at the adjusted level;
	// +Inf when no outcome could reach it with these sample counts; NaN
	// for exact metrics.
	MDE float64
	// SamplesNeeded is the per-side sample count that would detect a
	// change of the threshold, for inconclusive comparisons; 0 when not
	// computed.
	SamplesNeeded int
	// Note explains anything unusual (too few samples, all equal, ...).
	Note string
	// Normalized is set when Ratio was judged against the speed shift.
	Normalized bool
	// HigherIsBetter is set for units like MB/s.
	HigherIsBetter bool
	// Paired is set when the comparison used paired rounds (Wilcoxon
	// signed-rank on per-round log ratios) rather than unpaired samples.
	Paired bool
	// Unconfirmed is set on a regression that did not reproduce when
	// re-measured: it is reported, not enforced.
	Unconfirmed bool
	// Threshold, when not zero, is the threshold this comparison was
	// judged by instead of Options.Threshold: raised to three times the
	// benchmark's between-run noise in the baseline's history.
	Threshold float64
}

// Change is the relative change, Ratio-1 (0.05 = +5%).
func (c Comparison) Change() float64 { return c.Ratio - 1 }

// Shift is the machine's global speed shift between the runs: the
// geometric mean of all timing ratios, with its interval.
type Shift struct {
	Estimate, Lo, Hi float64
	N                int // timings it was computed from
	// Applied says whether timings were judged against it, and Reason why
	// (or why not).
	Applied bool
	Reason  string
}

// Result is a whole comparison.
type Result struct {
	Options        Options
	BaselineEnv    results.Env
	CandidateEnv   results.Env
	MachineDiffers []results.Difference
	OtherDiffers   []results.Difference
	Shift          *Shift
	Comparisons    []Comparison
	// Missing lists benchmarks only in the baseline, New those only in the
	// candidate, UnitMismatch those whose units have nothing in common.
	Missing, New, UnitMismatch []string
	// Method says how timings were compared: MethodStored (a stored
	// baseline, unpaired samples) or MethodPaired (same-runner A/B, paired
	// rounds). Empty means MethodStored.
	Method Method
	// Why explains the choice of Method (e.g. "no base checkout: fell
	// back to the stored baseline").
	Why string
	// AA is the built-in A/A check of a paired run, nil otherwise.
	AA *AACheck
	// ShardShifts holds the speed shift of each shard when the candidate
	// was merged from shards; Shift then summarises them.
	ShardShifts []ShardShift
}

// ShardShift is one shard's speed shift.
type ShardShift struct {
	Shard int
	Shift Shift
}

// Method is how timings were compared.
type Method string

const (
	MethodStored Method = "stored-baseline"
	MethodPaired Method = "same-runner-ab"
)

// AACheck is the result of comparing the base build with itself in a
// same-runner run: if it flags anything the machine was too noisy, and
// timing verdicts are reported but do not fail the run.
type AACheck struct {
	Benchmarks int      // benchmarks compared base against base
	Flagged    []string // those that came out as regressions or improvements
	// Noisy is set when Flagged is not empty.
	Noisy bool
}

// Count returns how many comparisons have verdict v.
func (r *Result) Count(v Verdict) int {
	n := 0
	for _, c := range r.Comparisons {
		if c.Verdict == v {
			n++
		}
	}
	return n
}

// Regressions returns the comparisons with a regression verdict.
func (r *Result) Regressions() []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if c.Verdict == Regression {
			out = append(out, c)
		}
	}
	return out
}

// FailOn names the condition that fails a run.
type FailOn string

const (
	FailOnRegression FailOn = "regression"
	FailOnNever      FailOn = "never"
)

// Failed reports whether the result meets the fail-on condition. When a
// paired run's A/A check found the machine too noisy, timing regressions
// are reported but do not fail the run; exact ones still do. Regressions
// that did not reproduce on confirmation never fail it.
func (r *Result) Failed(on FailOn) bool {
	if on != FailOnRegression {
		return false
	}
	for _, c := range r.Comparisons {
		if c.Verdict != Regression || c.Unconfirmed {
			continue
		}
		if c.Kind == Noisy && r.AA != nil && r.AA.Noisy {
			continue
		}
		return true
	}
	return false
}

// ErrNothingToCompare is returned when the two runs share no benchmark.
var ErrNothingToCompare = errors.New("the baseline and the candidate have no benchmark in common")

// machineFields are the environment fields that describe the machine, not
// the code: a change in them moves every timing alike. Go and library
// versions are code changes a pull request may make on purpose, so they are
// reported but never normalised away.
var machineFields = map[string]bool{"machine": true, "cpu": true, "goos/goarch": true, "GOMAXPROCS": true}

// Compare compares cand against base.
func Compare(base, cand *results.Results, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if base.Suite != "" && cand.Suite != "" && base.Suite != cand.Suite {
		return nil, fmt.Errorf("the baseline is of suite %q and the candidate of suite %q: compare runs of the same suite", base.Suite, cand.Suite)
	}
	res := &Result{Options: opts, BaselineEnv: base.Env, CandidateEnv: cand.Env}
	res.MachineDiffers, res.OtherDiffers = splitDiff(base.Env, cand.Env)

	// Pair the benchmarks and units.
	type pair struct {
		name, unit string
		b, c       []float64
		shard      int
	}
	var pairs []pair
	for _, cb := range cand.Benchmarks {
		bb := base.Lookup(cb.Name)
		if bb == nil {
			res.New = append(res.New, cb.Name)
			continue
		}
		common := 0
		hasNs := cb.Metric(results.UnitNsPerOp) != nil && bb.Metric(results.UnitNsPerOp) != nil
		for _, m := range cb.Metrics {
			bv := bb.Metric(m.Unit)
			if bv == nil {
				continue
			}
			common++
			if m.Unit == results.UnitMBPerSec && hasNs {
				continue // derived from ns/op: comparing it too would count one change twice
			}
			pairs = append(pairs, pair{cb.Name, m.Unit, bv, m.Values, cb.Shard})
		}
		if common == 0 {
			res.UnitMismatch = append(res.UnitMismatch, cb.Name)
		}
	}
	for _, bb := range base.Benchmarks {
		if cand.Lookup(bb.Name) == nil {
			res.Missing = append(res.Missing, bb.Name)
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%w (the baseline has %d, the candidate %d; names must match, e.g. %s)", ErrNothingToCompare,
			len(base.Benchmarks), len(cand.Benchmarks), exampleName(base, cand))
	}

	// First pass: estimate every noisy comparison.
	var noisy []int
	for _, p := range pairs {
		c := Comparison{Name: p.name, Unit: p.unit, HigherIsBetter: results.HigherIsBetter(p.unit),
			Baseline: Summarize(p.b), Candidate: Summarize(p.c), P: math.NaN(), PAdjusted: math.NaN(), MDE: math.NaN()}
		if exactMetric(p.unit, p.b, p.c) {
			c.Kind = Exact
			judgeExact(&c, opts)
		} else {
			c.Kind = Noisy
			estimate(&c, p.b, p.c, opts)
			noisy = append(noisy, len(res.Comparisons))
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	if len(noisy) > 0 && allTooFew(res.Comparisons, noisy) {
		return nil, fmt.Errorf("every benchmark has fewer than 2 samples on a side, so timings cannot be tested: run the suite with --samples 10 or more, or go test -bench with -count=10")
	}

	// The machine's speed shift, from the timings of each machine: the
	// candidate's, or each shard's when the candidate was merged from the
	// shards of a matrix (each shard ran on its own runner).
	groups := map[int][]int{}
	for _, i := range noisy {
		groups[pairs[i].shard] = append(groups[pairs[i].shard], i)
	}
	shifts := map[int]*Shift{}
	for g, idx := range groups {
		env := cand.Env
		if g != 0 {
			env = cand.ShardEnv(&results.Benchmark{Shard: g})
		}
		var ratios []float64
		for _, i := range idx {
			c := &res.Comparisons[i]
			if c.Unit == results.UnitNsPerOp && c.Note == "" && c.RawRatio > 0 && !math.IsInf(c.RawRatio, 0) {
				ratios = append(ratios, c.RawRatio)
			}
		}
		if sh := speedShift(base.Env, env, ratios, opts); sh != nil {
			shifts[g] = sh
			if g != 0 {
				res.ShardShifts = append(res.ShardShifts, ShardShift{Shard: g, Shift: *sh})
			}
		}
	}
	sort.Slice(res.ShardShifts, func(i, j int) bool { return res.ShardShifts[i].Shard < res.ShardShifts[j].Shard })
	if len(res.ShardShifts) == 0 {
		res.Shift = shifts[0]
	} else {
		res.Shift = summarizeShardShifts(res.ShardShifts)
	}

	// Second pass: the tests, on normalised candidate samples if needed.
	var ps []float64
	for _, i := range noisy {
		c := &res.Comparisons[i]
		p := pairs[i]
		cs := p.c
		if sh := shifts[p.shard]; sh != nil && sh.Applied && c.Unit == results.UnitNsPerOp {
			cs = scale(p.c, 1/sh.Estimate)
			c.Normalized = true
			c.Ratio, c.Lo, c.Hi = c.RawRatio/sh.Estimate, c.Lo/sh.Estimate, c.Hi/sh.Estimate
		}
		if c.Note == "" {
			if t, err := stats.MannWhitney(p.b, cs); err == nil {
				c.P = t.P
			} else if errors.Is(err, stats.ErrAllEqual) {
				c.P = 1
			} else {
				c.Note = "no test: " + err.Error()
			}
		}
		if !math.IsNaN(c.P) {
			ps = append(ps, c.P)
		}
	}
	adjusted := adjust(ps, opts.Correction)
	m := len(ps)
	k := 0
	for _, i := range noisy {
		c := &res.Comparisons[i]
		if !math.IsNaN(c.P) {
			c.PAdjusted = adjusted[k]
			k++
		}
		judgeNoisy(c, pairs[i].b, pairs[i].c, opts, m)
	}
	return res, nil
}

// splitDiff separates the machine differences between two environments
// from the others (Go and library versions).
func splitDiff(base, cand results.Env) (machine, other []results.Difference) {
	for _, d := range base.Diff(cand) {
		if machineFields[d.Field] {
			machine = append(machine, d)
		} else {
			other = append(other, d)
		}
	}
	return machine, other
}

// speedShift estimates the speed shift between the baseline's machine and
// the machine that measured ratios (the candidate's timing ratios), and
// decides whether to judge those timings against it. nil when there are no
// timings.
func speedShift(baseEnv, candEnv results.Env, ratios []float64, opts Options) *Shift {
	if len(ratios) == 0 {
		return nil
	}
	machine, _ := splitDiff(baseEnv, candEnv)
	normalize, reason := false, ""
	switch opts.Normalize {
	case NormalizeAlways:
		normalize, reason = true, "requested (--normalize always)"
	case NormalizeNever:
		reason = "not requested (--normalize never)"
	default:
		switch {
		case len(machine) > 0:
			normalize, reason = true, "the two runs ran on different machines ("+diffFields(machine)+")"
		case baseEnv.Machine == "" && candEnv.Machine == "":
			reason = "neither run records its machine; assumed the same (use --normalize always if not)"
		default:
			reason = "both runs ran on the same machine"
		}
	}
	sh := &Shift{N: len(ratios), Reason: reason}
	sh.Estimate, sh.Lo, sh.Hi = geoMean(ratios), math.NaN(), math.NaN()
	if len(ratios) >= 2 {
		if g, err := stats.GeoMean(ratios, opts.Confidence); err == nil {
			sh.Estimate, sh.Lo, sh.Hi = g.Estimate, g.Lo, g.Hi
		}
	}
	// The same machine at another time can be another machine: a busy
	// neighbour or a throttled CPU moves every timing alike. When the
	// whole run moved by more than the threshold with confidence, that is
	// far more likely the machine than a change that slows every
	// benchmark equally, so auto normalises then too, and says so.
	if opts.Normalize == NormalizeAuto && !normalize && len(ratios) >= 3 &&
		(sh.Lo > 1+opts.Threshold || sh.Hi < 1-opts.Threshold) {
		normalize = true
		reason += fmt.Sprintf(", but every timing moved together by ×%.2f [%.2f, %.2f], beyond the ±%.0f%% threshold: the machine's speed changed between the runs (load or throttling), so timings were judged relative to that shift; a change that slows every benchmark alike cannot be told apart from it", sh.Estimate, sh.Lo, sh.Hi, 100*opts.Threshold)
		sh.Reason = reason
	}
	if normalize && len(ratios) < 3 {
		normalize = false
		sh.Reason = reason + ", but fewer than 3 timings cannot separate it from real change, so timings are compared as measured"
	}
	sh.Applied = normalize
	return sh
}

// summarizeShardShifts describes per-shard normalisation in one Shift: the
// geometric mean of the shards' shifts, applied if any shard's was.
func summarizeShardShifts(ss []ShardShift) *Shift {
	var est []float64
	applied := 0
	n := 0
	for _, s := range ss {
		est = append(est, s.Shift.Estimate)
		n += s.Shift.N
		if s.Shift.Applied {
			applied++
		}
	}
	return &Shift{
		Estimate: geoMean(est), Lo: math.NaN(), Hi: math.NaN(), N: n, Applied: applied > 0,
		Reason: fmt.Sprintf("the candidate was merged from %d shards, each measured on its own runner, so the speed shift was estimated per shard and applied to %d of them", len(ss), applied),
	}
}

func exampleName(base, cand *results.Results) string {
	for _, r := range []*results.Results{base, cand} {
		if len(r.Benchmarks) > 0 {
			return r.Benchmarks[0].Name
		}
	}
	return "BenchmarkX"
}

func diffFields(d []results.Difference) string {
	var f []string
	for _, x := range d {
		f = append(f, x.String())
	}
	return strings.Join(f, "; ")
}

// Decide is the decision rule for a tested comparison, shared by the
// stored-baseline and the same-runner A/B comparisons: significant
// (adjusted p below alpha) and beyond ±threshold is a regression or an
// improvement; an interval inside ±threshold is unchanged; anything else,
// a NaN estimate or p-value included, is inconclusive.
func Decide(ratio, lo, hi, pAdjusted, threshold, alpha float64, higherIsBetter bool) Verdict {
	if math.IsNaN(ratio) || math.IsNaN(pAdjusted) {
		return Inconclusive
	}
	t := threshold
	worse, better := ratio > 1+t, ratio < 1-t
	if higherIsBetter {
		worse, better = ratio < 1-t, ratio > 1+t
	}
	significant := pAdjusted < alpha
	switch {
	case significant && worse:
		return Regression
	case significant && better:
		return Improvement
	case lo >= 1-t && hi <= 1+t:
		return Unchanged
	}
	return Inconclusive
}

// Summarize is the median and count of a sample, for a Comparison.
func Summarize(v []float64) Summary {
	m, err := stats.Median(v)
	if err != nil {
		m = math.NaN()
	}
	return Summary{Median: m, N: len(v)}
}

// exactMetric reports whether unit is compared exactly: encoded size
// always; allocation counts and bytes when every sample on both sides
// agrees (they are deterministic for a given code and input).
func exactMetric(unit string, b, c []float64) bool {
	if results.IsExact(unit) {
		return true
	}
	if unit == results.UnitAllocsPerOp || unit == results.UnitBytesPerOp {
		return results.AllEqual(b) && results.AllEqual(c)
	}
	return false
}

func judgeExact(c *Comparison, opts Options) {
	b, n := c.Baseline.Median, c.Candidate.Median
	threshold := opts.AllocThreshold
	if c.Unit == results.UnitBytesPerMsg {
		threshold = opts.SizeThreshold
	}
	switch {
	case b == 0 && n == 0:
		c.Ratio = 1
	case b == 0:
		c.Ratio = math.Inf(1)
	default:
		c.Ratio = n / b
	}
	c.RawRatio, c.Lo, c.Hi = c.Ratio, c.Ratio, c.Ratio
	worse, better := n > b, n < b
	if c.HigherIsBetter {
		worse, better = better, worse
	}
	change := math.Abs(c.Ratio - 1)
	switch {
	case worse && (change > threshold || b == 0):
		c.Verdict = Regression
	case better && change > threshold:
		c.Verdict = Improvement
	default:
		c.Verdict = Unchanged
	}
}

// estimate fills the Hodges–Lehmann ratio and interval of a noisy metric,
// or a note saying why there is none.
func estimate(c *Comparison, b, n []float64, opts Options) {
	c.Ratio, c.Lo, c.Hi, c.RawRatio = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if len(b) < 2 || len(n) < 2 {
		c.Note = fmt.Sprintf("too few samples (%d vs %d): need at least 2 a side, 10 or more to detect small changes", len(b), len(n))
		if c.Baseline.Median > 0 {
			c.Ratio = c.Candidate.Median / c.Baseline.Median
			c.RawRatio = c.Ratio
		}
		return
	}
	if slices.Min(b) > 0 && slices.Min(n) > 0 {
		s, err := stats.RatioHL(b, n, opts.Confidence)
		if err == nil {
			c.Ratio, c.Lo, c.Hi = s.Estimate, s.Lo, s.Hi
			c.RawRatio = c.Ratio
			return
		}
		if !errors.Is(err, stats.ErrAllEqual) {
			c.Note = "no estimate: " + err.Error()
			return
		}
	}
	// Zeros (allocation bytes, say) rule out ratios of samples: estimate
	// the shift in the metric's own unit and express it against the
	// baseline median.
	s, err := stats.HodgesLehmann(b, n, opts.Confidence)
	if err != nil && !errors.Is(err, stats.ErrAllEqual) {
		c.Note = "no estimate: " + err.Error()
		return
	}
	if errors.Is(err, stats.ErrAllEqual) {
		s = stats.Interval{}
	}
	base := c.Baseline.Median
	if base <= 0 {
		c.Note = "baseline median is zero: no relative change"
		return
	}
	c.Ratio, c.Lo, c.Hi = (base+s.Estimate)/base, (base+s.Lo)/base, (base+s.Hi)/base
	c.RawRatio = c.Ratio
}

func (n *Noise) spread(name string) (float64, bool) {
	if n == nil {
		return 0, false
	}
	s, ok := n.Spread[name]
	return s, ok
}

func judgeNoisy(c *Comparison, b, n []float64, opts Options, m int) {
	t := opts.Threshold
	if s, ok := opts.BetweenRun.spread(c.Name); ok && c.Unit == results.UnitNsPerOp {
		if raised := math.Expm1(3 * s); raised > t {
			t = raised
			c.Threshold = raised
		}
	}
	if c.Note != "" || math.IsNaN(c.PAdjusted) {
		c.Verdict = Inconclusive
		return
	}
	c.Verdict = Decide(c.Ratio, c.Lo, c.Hi, c.PAdjusted, t, opts.Alpha, c.HigherIsBetter)
	significant := c.PAdjusted < opts.Alpha
	// What this comparison could see: the effect detectable at the
	// per-comparison level the adjustment demands of the strongest result
	// (alpha/m under Holm).
	level := opts.Alpha
	if opts.Correction == Holm {
		level = opts.Alpha / float64(max(m, 1))
	}
	if slices.Min(b) > 0 && slices.Min(n) > 0 {
		if mde, err := stats.MDE(b, n, level, opts.Power); err == nil || math.IsInf(mde, 1) {
			c.MDE = mde
		}
		if c.Verdict == Inconclusive {
			if k, err := stats.SamplesFor(b, n, max(t, 0.001), level, opts.Power); err == nil {
				c.SamplesNeeded = k
			}
		}
	}
	if c.Verdict == Inconclusive && c.Note == "" && significant {
		c.Note = fmt.Sprintf("a significant change of %+.1f%%, but its interval reaches past the ±%.0f%% threshold", 100*(c.Ratio-1), 100*t)
	}
	if c.Threshold > 0 && c.Note == "" {
		c.Note = fmt.Sprintf("threshold raised to ±%.0f%%: this benchmark's median moves that much between runs in the baseline's history", 100*c.Threshold)
	}
}

func allTooFew(cs []Comparison, idx []int) bool {
	for _, i := range idx {
		if !strings.HasPrefix(cs[i].Note, "too few samples") {
			return false
		}
	}
	return true
}

func adjust(p []float64, c Correction) []float64 {
	switch c {
	case BenjaminiHochberg:
		return stats.BenjaminiHochberg(p)
	case NoCorrection:
		return slices.Clone(p)
	}
	return stats.Holm(p)
}

func scale(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

func geoMean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

// Sort orders comparisons for reports: regressions first, then
// improvements, inconclusive and unchanged; within a verdict by the size of
// the change, largest first.
func Sort(cs []Comparison) {
	rank := map[Verdict]int{}
	for i, v := range Verdicts {
		rank[v] = i
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if rank[cs[i].Verdict] != rank[cs[j].Verdict] {
			return rank[cs[i].Verdict] < rank[cs[j].Verdict]
		}
		return math.Abs(math.Log(cs[i].Ratio)) > math.Abs(math.Log(cs[j].Ratio))
	})
}
