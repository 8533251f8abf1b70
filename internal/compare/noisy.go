package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// noisy is the comparison of a noisy metric with the pair of samples it is
// estimated, tested and judged on, and, for a timing judged against the
// history, that test.
type noisy struct {
	c       *Comparison
	p       pair
	between *stats.NewRunTest
	// counted is the Welch test of a counted metric's processes.
	counted *stats.WelchTest
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

// allTooFew reports whether every noisy comparison lacks the samples for
// an estimate.
func allTooFew(ns []noisy) bool {
	for _, n := range ns {
		if !strings.HasPrefix(n.c.Note, "too few samples") {
			return false
		}
	}
	return true
}

// families are the sizes of the two families of p-values a comparison
// adjusts apart: the comparisons that can fail the run, and those only
// reported (Comparison.NotEnforced). Only the first are the gate, so only
// they share its error rate.
type families struct{ enforced, reported int }

// testNoisy tests every noisy comparison of ns that has an estimate, on
// the candidate's samples divided by its machine's speed shift where that
// shift is applied (see normalizeTiming): a timing against the history
// (testTiming), anything else by the Mann–Whitney test of the samples.
// A counted metric is tested by testCounted, its gate (countedGate) given
// as counted.
// It adjusts the p-values of the comparisons that can fail the run
// together, and those only reported together apart, and returns how many
// each family has: the m of Judge.
func testNoisy(ns []noisy, shifts map[int]*Shift, h *historyModel, counted string, opts Options) families {
	var enforced, reported []*Comparison
	for i := range ns {
		n := &ns[i]
		cand := normalizeTiming(n.c, n.p.c, shifts[n.p.shard])
		switch {
		case results.IsCounted(n.c.Unit):
			testCounted(n, counted, opts)
		case isTiming(n.c.Unit):
			h.testTiming(n, cand, opts.Confidence)
		case n.c.Note != "":
		default:
			rankSum(n.c, n.p.b, cand)
		}
	}
	h.gate.Dispersion = disperse(ns)
	for i := range ns {
		n := &ns[i]
		if n.c.NotEnforced != "" {
			reported = append(reported, n.c)
		} else {
			enforced = append(enforced, n.c)
		}
	}
	return families{enforced: adjust(enforced, opts.Correction), reported: adjust(reported, opts.Correction)}
}

// testTiming tests a timing against the history: the candidate is one new
// run, its log ratio to the reference (relative to its machine's speed
// shift when normalised) judged by stats.NewRun against the same log
// ratios of the reference's replicates and of the history's other runs
// (each relative to its own run's speed shift when normalised); a
// candidate judged on several runs (History.Candidate) is their mean,
// by stats.NewRuns. The
// estimate becomes the change against the replicates' mean, with the
// interval of the new-run test. With fewer than MinHistoryRuns runs of the
// benchmark there is no estimate of its spread between runs: the
// Mann–Whitney test of the samples decides what is reported, and the
// timing is not enforced. Measured with other settings than the
// reference, or in a state of the machine the history never saw (its
// speed shift outside the history's, TimingGate.Speed), it is tested but
// not enforced either. A timing without an estimate (its note says why)
// is not tested.
func (h *historyModel) testTiming(n *noisy, cand []float64, confidence float64) {
	c := n.c
	replicates, others := h.values(c.Name, c.Unit, c.Normalized)
	c.HistoryRuns = len(replicates) + len(others)
	short := c.HistoryRuns < h.gate.Needed
	switch {
	case short:
		c.NotEnforced = historyReason(c.HistoryRuns, &h.gate)
	case !h.gate.SettingsMatch():
		c.NotEnforced = settingsReason(h.gate.SettingsDiffer)
	case h.gate.SpeedOutside():
		c.NotEnforced = speedReason(&h.gate)
	case h.gate.Busy.holdsBack(c.Name):
		c.NotEnforced = busyReason(h.gate.Busy)
	}
	switch {
	case c.Note != "":
		return
	case short:
		rankSum(c, n.p.b, cand)
		return
	}
	if !(c.Ratio > 0) || math.IsInf(c.Ratio, 0) {
		c.Note = "no test: no ratio to the baseline"
		return
	}
	x := math.Log(c.Ratio)
	xs := h.candidateValues(c.Name, c.Unit, c.Normalized)
	if len(xs) < 2 {
		xs = []float64{x}
	}
	t, err := stats.NewRuns(xs, replicates, others, confidence)
	if err != nil {
		c.Note = "no test against the history: " + err.Error()
		return
	}
	f := math.Exp(t.Estimate - x) // from the reference to the replicates' mean
	c.Ratio, c.RawRatio = c.Ratio*f, c.RawRatio*f
	c.Lo, c.Hi = math.Exp(t.Lo), math.Exp(t.Hi)
	c.P, c.Test, c.DF = t.P, TestNewRun, t.DF
	n.between = &t
}

// disperse estimates the dispersion of the timings of ns tested against
// the history (stats.Dispersion) and, with at least MinDispersionTimings
// of them and lambda above 1, widens every one of those tests by
// sqrt(lambda): their standard errors, intervals and p-values. nil when
// no timing was tested against the history.
func disperse(ns []noisy) *Dispersion {
	var tested []*noisy
	var ts []stats.NewRunTest
	for i := range ns {
		if ns[i].between != nil {
			tested = append(tested, &ns[i])
			ts = append(ts, *ns[i].between)
		}
	}
	if len(ts) == 0 {
		return nil
	}
	lambda, err := stats.Dispersion(ts)
	if err != nil {
		return nil
	}
	d := &Dispersion{Lambda: lambda, Timings: len(ts), Applied: lambda > 1 && len(ts) >= MinDispersionTimings}
	if !d.Applied {
		return d
	}
	f := d.Widening()
	for _, n := range tested {
		t := n.between.Inflate(f)
		n.between = &t
		n.c.Lo, n.c.Hi, n.c.P = math.Exp(t.Lo), math.Exp(t.Hi), t.P
	}
	return d
}

// rankSum sets c.P to the Mann–Whitney p-value of b against cand: 1 when
// every value is the same (no evidence of change), or a note saying why
// there is no test.
func rankSum(c *Comparison, b, cand []float64) {
	t, err := stats.MannWhitney(b, cand)
	switch {
	case err == nil:
		c.P = t.P
	case errors.Is(err, stats.ErrAllEqual):
		c.P = 1
	default:
		c.Note = "no test: " + err.Error()
	}
}

// adjust sets PAdjusted on every comparison of cs that has a p-value, all
// adjusted together by correction (Holm unless it names another), and
// returns how many there were.
func adjust(cs []*Comparison, correction Correction) int {
	var ps []float64
	for _, c := range cs {
		if !math.IsNaN(c.P) {
			ps = append(ps, c.P)
		}
	}
	var adjusted []float64
	switch correction {
	case BenjaminiHochberg:
		adjusted = stats.BenjaminiHochberg(ps)
	case NoCorrection:
		adjusted = slices.Clone(ps)
	default:
		adjusted = stats.Holm(ps)
	}
	k := 0
	for _, c := range cs {
		if !math.IsNaN(c.P) {
			c.PAdjusted = adjusted[k]
			k++
		}
	}
	return len(ps)
}
