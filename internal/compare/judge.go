package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/stats"
)

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

// Sensitivity is the part of judging that depends on how a comparison was
// measured: how small a change its samples could detect. A stored-baseline
// comparison computes it from unpaired samples (see unpaired), a
// same-runner A/B comparison from paired rounds.
type Sensitivity interface {
	// MDE returns the minimum detectable effect (a fraction, 0.03 = 3%)
	// of a two-sided test at level with the given power, +Inf when no
	// outcome could reach level, and false when it cannot be computed.
	MDE(level, power float64) (float64, bool)
	// SamplesFor returns the samples a side (pairs, for paired rounds)
	// that would detect a change of effect at level with the given power;
	// 0 when it cannot be computed.
	SamplesFor(effect, level, power float64) int
}

// Judge is the judging rule of a tested noisy comparison, the same for a
// stored baseline and a same-runner A/B run. c carries its estimate
// (Ratio, Lo, Hi) and adjusted p-value, one of m adjusted together. Judge
// sets
//
//   - the verdict, by Decide against opts.Threshold;
//   - MDE, what c could detect at the per-comparison level (see
//     comparisonLevel), and for an inconclusive comparison
//     SamplesNeeded, both from s;
//   - a note on a significant change whose interval reaches past the
//     threshold.
//
// A comparison without an adjusted p-value is inconclusive, and Judge sets
// nothing else.
func Judge(c *Comparison, opts Options, m int, s Sensitivity) {
	t := opts.Threshold
	c.Verdict = Decide(c.Ratio, c.Lo, c.Hi, c.PAdjusted, t, opts.Alpha, c.HigherIsBetter)
	if math.IsNaN(c.PAdjusted) {
		return
	}
	level := comparisonLevel(opts, m)
	if mde, ok := s.MDE(level, opts.Power); ok {
		c.MDE = mde
	}
	if c.Verdict == Inconclusive {
		c.SamplesNeeded = s.SamplesFor(max(t, 0.001), level, opts.Power)
		if c.PAdjusted < opts.Alpha {
			c.Note = JoinNote(c.Note, reachNote(c, t))
		}
	}
}

// comparisonLevel is the per-comparison level at which a comparison's
// power is computed: what the adjustment demands of the strongest of m
// results, alpha/m under Holm (the default, also when opts.Correction is
// empty), alpha under BH or no correction.
func comparisonLevel(opts Options, m int) float64 {
	switch opts.Correction {
	case BenjaminiHochberg, NoCorrection:
		return opts.Alpha
	}
	return opts.Alpha / float64(max(m, 1))
}

// reachNote is the note on a significant change whose interval reaches
// past ±t. Each way of comparing words it as its reports always have: a
// stored-baseline comparison against a threshold in whole percent, a
// paired one against a floor to two decimals.
func reachNote(c *Comparison, t float64) string {
	if c.Paired {
		return fmt.Sprintf("a significant change of %+.2f%%, but its interval reaches past the ±%s floor", 100*(c.Ratio-1), human.Percent(t))
	}
	return fmt.Sprintf("a significant change of %+.1f%%, but its interval reaches past the ±%.0f%% threshold", 100*(c.Ratio-1), 100*t)
}

// JoinNote appends note b to note a, as a comparison's notes are joined.
func JoinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// judgeStored judges a noisy comparison of a stored baseline by Judge:
// a timing tested against the history g describes with the sensitivity
// of the new-run test (see newRunSensitivity), anything else with that of
// the rank-sum test on the samples as measured; m is the size of the
// family its p-value was adjusted in (enforced comparisons and those
// reported only are adjusted apart).
func judgeStored(n noisy, opts Options, f families, g *TimingGate) {
	m := f.enforced
	if n.c.NotEnforced != "" {
		m = f.reported
	}
	if n.counted != nil {
		Judge(n.c, opts, m, newProcessSensitivity(n.counted, n.c, n.p))
		return
	}
	if n.between == nil {
		Judge(n.c, opts, m, unpaired{n.p.b, n.p.c})
		if isTiming(n.c.Unit) && n.c.NotEnforced != "" {
			// Samples cannot make it gate: runs can (its note says how many).
			n.c.SamplesNeeded = 0
		}
		return
	}
	Judge(n.c, opts, m, newRunSensitivity{se: n.between.SE, df: n.between.DF})
	if n.c.Verdict == Inconclusive && n.c.Note == "" {
		spread := strings.TrimPrefix(human.Change(math.Expm1(n.between.S), 1), "+")
		if g.Processes {
			n.c.Note = fmt.Sprintf("this benchmark moves ±%s between go test processes (%s of the baseline, %s of the candidate, %s): more processes, not more samples (-count), narrow it down",
				spread, human.Count(n.c.HistoryRuns), human.Count(g.CandidateRuns), dfText(n.between.DF))
			return
		}
		n.c.Note = fmt.Sprintf("this benchmark moves ±%s between runs (%s of history, %s): more runs of history, not more samples, narrow it down",
			spread, human.Plural(n.c.HistoryRuns, "run", "runs"), dfText(n.between.DF))
	}
}

// dfText is "3 degrees of freedom".
func dfText(df float64) string {
	return human.Plural(int(math.Round(df)), "degree of freedom", "degrees of freedom")
}

// newRunSensitivity is the Sensitivity of the new-run test of a timing:
// its standard error se with df degrees of freedom. More samples do not
// help it (the spread between runs does not shrink with them), so it
// names no sample count.
type newRunSensitivity struct{ se, df float64 }

// MDE is stats.NewRunMDE as a relative change.
func (s newRunSensitivity) MDE(level, power float64) (float64, bool) {
	d, err := stats.NewRunMDE(s.se, s.df, level, power)
	if err != nil {
		return 0, false
	}
	return math.Expm1(d), true
}

// SamplesFor is 0: no sample count resolves a between-run comparison.
func (newRunSensitivity) SamplesFor(effect, level, power float64) int { return 0 }

// unpaired is the Sensitivity of the rank-sum test on a baseline's samples
// b and a candidate's n. It works on ratios of samples, so with a zero
// on either side it cannot say; nor when their robust spread
// (stats.LogSpread) is zero, most samples equal and a few not (an
// allocation count that now and then allocates more): the detectable
// change would come out as 0, and the samples to resolve it as what
// complete separation needs, beside a comparison that was not decided.
type unpaired struct{ b, n []float64 }

func (u unpaired) estimable() bool {
	if !(slices.Min(u.b) > 0 && slices.Min(u.n) > 0) {
		return false
	}
	s, err := stats.LogSpread(u.b, u.n)
	return err == nil && s > 0
}

// MDE is stats.MDE of the samples.
func (u unpaired) MDE(level, power float64) (float64, bool) {
	if !u.estimable() {
		return 0, false
	}
	mde, err := stats.MDE(u.b, u.n, level, power)
	return mde, err == nil || math.IsInf(mde, 1)
}

// SamplesFor is stats.SamplesFor of the samples.
func (u unpaired) SamplesFor(effect, level, power float64) int {
	if !u.estimable() {
		return 0
	}
	k, err := stats.SamplesFor(u.b, u.n, effect, level, power)
	if err != nil {
		return 0
	}
	return k
}
