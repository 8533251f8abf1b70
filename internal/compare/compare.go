package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/wirebench/wirebench/internal/results"
)

// ErrNothingToCompare is returned when the two runs share no benchmark.
var ErrNothingToCompare = errors.New("the baseline and the candidate have no benchmark in common")

// Compare compares cand against base: it pairs their benchmarks and units,
// judges the exact metrics and estimates the noisy ones, estimates the
// machine's speed shift, tests the noisy metrics and adjusts their
// p-values together, and judges them.
func Compare(base, cand *results.Results, opts Options) (*Result, error) {
	if err := comparable(base, cand, opts); err != nil {
		return nil, err
	}
	res := &Result{Options: opts, BaselineEnv: base.Env, CandidateEnv: cand.Env, Counter: cand.Settings.Counter, BaselineCounter: base.Settings.Counter, Unseen: cand.Unseen(), Serial: cand.Serial()}
	res.MachineDiffers, res.OtherDiffers = splitDiff(base.Env, cand.Env)
	pairs := res.pairUp(base, cand)
	res.noteTroubles(base, cand)
	if len(pairs) == 0 && len(res.Identical) == 0 && len(res.Troubles) == 0 {
		return nil, fmt.Errorf("%w (the baseline has %d, the candidate %d; names must match, e.g. %s)", ErrNothingToCompare,
			len(base.Benchmarks), len(cand.Benchmarks), exampleName(base, cand))
	}
	ns := res.compareEach(pairs, opts)
	if len(ns) > 0 && allTooFew(ns) {
		return nil, fmt.Errorf("every benchmark has fewer than 2 samples on a side, so timings cannot be tested: run the suite with --samples 10 or more, or go test -bench with -count=10")
	}
	h := newHistoryModel(base, cand, opts.History, opts.ShiftFrom)
	res.Gate = &h.gate
	shifts := res.speedShifts(base, cand, ns, opts)
	if h.gates() && opts.Normalize != NormalizeNever {
		shifts = res.historyShifts(h, cand, shifts, opts)
	}
	h.gate.Speed = h.speedCheck(cand, opts.Confidence)
	f := testNoisy(ns, shifts, h, countedGate(base, cand), opts)
	for _, n := range ns {
		judgeStored(n, opts, f, &h.gate)
	}
	res.locate(base, cand)
	return res, nil
}

// comparable checks the options, and that the two runs are of one suite
// (results that do not name theirs are taken to be).
func comparable(base, cand *results.Results, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	if base.Suite != "" && cand.Suite != "" && base.Suite != cand.Suite {
		return fmt.Errorf("the baseline is of suite %q and the candidate of suite %q: compare runs of the same suite", base.Suite, cand.Suite)
	}
	return nil
}

// compareEach makes the comparison of every pair, in order: an exact
// metric is judged at once, a noisy one estimated, to be tested and judged
// with the run's other noisy metrics, which it returns.
func (r *Result) compareEach(pairs []pair, opts Options) []noisy {
	r.Comparisons = make([]Comparison, len(pairs))
	var ns []noisy
	for i, p := range pairs {
		c := &r.Comparisons[i]
		*c = Comparison{Name: p.name, Unit: p.unit, HigherIsBetter: results.HigherIsBetter(p.unit),
			Baseline: Summarize(p.b), Candidate: Summarize(p.c), P: math.NaN(), PAdjusted: math.NaN(), MDE: math.NaN()}
		if exactMetric(p) {
			c.Kind = Exact
			judgeExact(c, opts)
			continue
		}
		c.Kind = Noisy
		estimate(c, p.b, p.c, opts)
		ns = append(ns, noisy{c: c, p: p})
	}
	return ns
}
