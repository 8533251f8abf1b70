package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// MinProcesses is how many counted processes each side needs before a
// counted metric gates: with fewer, Welch's test has too few degrees of
// freedom to reach Holm's level over a suite.
const MinProcesses = 3

// TestWelch is stats.Welch on the log of the processes' counts.
const TestWelch Test = "welch-t"

// countedGate says why the counted metrics of cand cannot be judged
// against base's ("" when they can): each run counted the same way
// (results.Counter.Diff). Per benchmark the block sizes must agree too
// (see testCounted).
func countedGate(base, cand *results.Results) string {
	b, c := base.Settings.Counter, cand.Settings.Counter
	switch {
	case b == nil || c == nil:
		return "" // units only one side counted do not pair
	}
	if d := b.Diff(c); len(d) > 0 {
		parts := make([]string, len(d))
		for i, x := range d {
			parts[i] = x.String()
		}
		return "counted differently from the baseline (" + strings.Join(parts, ", ") + ")"
	}
	return ""
}

// testCounted tests a counted metric (instructions/op, est-cycles/op):
// every sample is one process's count, so the test is Welch's t on the
// log of the processes' counts, base against candidate; the estimate is
// the ratio of their geometric means. When both sides' processes all
// counted the same there is no spread: equal counts are no change
// (p = 1), different ones a certain change (p = 0), as for an exact
// metric. It is reported, not enforced, when the runs counted
// differently (gate, from countedGate), with other block sizes, in fewer
// than MinProcesses processes a side, or when the unit is not the one
// the run gates on (Options.CountedUnit).
func testCounted(n *noisy, gate string, opts Options) {
	c := n.c
	switch {
	case gate != "":
		c.NotEnforced = gate
	case !sameBlocks(n.p.bn, n.p.cn):
		c.NotEnforced = fmt.Sprintf("counted in blocks of %s, the baseline in blocks of %s: a count per operation depends on the block size",
			blocksText(n.p.cn), blocksText(n.p.bn))
	case len(n.p.b) < MinProcesses || len(n.p.c) < MinProcesses:
		c.NotEnforced = fmt.Sprintf("counted in %s and %s: counts gate with at least %d a side",
			human.Plural(len(n.p.b), "process", "processes"), human.Plural(len(n.p.c), "process", "processes"), MinProcesses)
	case opts.CountedUnit != "" && c.Unit != opts.CountedUnit:
		c.NotEnforced = "reported beside " + opts.CountedUnit + ", which the run gates on"
	}
	c.Ratio, c.Lo, c.Hi, c.RawRatio = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	c.Note = ""
	if len(n.p.b) < 2 || len(n.p.c) < 2 {
		c.Note = fmt.Sprintf("too few processes (%d vs %d): a count is tested with at least 2 a side", len(n.p.b), len(n.p.c))
		if c.Baseline.Median > 0 {
			c.Ratio = c.Candidate.Median / c.Baseline.Median
			c.RawRatio = c.Ratio
		}
		return
	}
	if slices.Min(n.p.b) <= 0 || slices.Min(n.p.c) <= 0 {
		c.Note = "a process counted nothing: no ratio"
		return
	}
	lb, lc := logs(n.p.b), logs(n.p.c)
	w, err := stats.Welch(lb, lc, opts.Confidence)
	switch {
	case errors.Is(err, stats.ErrAllEqual):
		r := math.Exp(lc[0] - lb[0])
		c.Ratio, c.Lo, c.Hi, c.RawRatio = r, r, r, r
		c.P, c.Test = 1, TestWelch
		if r != 1 {
			c.P = 0
		}
		c.Note = "every process counted the same on each side"
		return
	case err != nil:
		c.Note = "no test: " + err.Error()
		return
	}
	c.Ratio, c.Lo, c.Hi = math.Exp(w.Estimate), math.Exp(w.Lo), math.Exp(w.Hi)
	c.RawRatio = c.Ratio
	c.P, c.Test, c.DF = w.P, TestWelch, w.DF
	n.counted = &w
}

// sameBlocks reports whether two sides' block sizes agree: every
// process of each side counted in blocks of one size, the same on both
// (sizes not recorded count as agreeing).
func sameBlocks(b, c []int64) bool {
	if len(b) == 0 || len(c) == 0 {
		return true
	}
	for _, x := range append(slices.Clone(b[1:]), c...) {
		if x != b[0] {
			return false
		}
	}
	return true
}

// blocksText names the block sizes of one side: "64 iterations", or
// "8 to 64 iterations" when its processes differ.
func blocksText(n []int64) string {
	lo, hi := slices.Min(n), slices.Max(n)
	if lo == hi {
		return human.Plural(int(lo), "iteration", "iterations")
	}
	return fmt.Sprintf("%d to %d iterations", lo, hi)
}

func logs(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Log(x)
	}
	return out
}

// processSensitivity is the Sensitivity of Welch's test of counts: its
// standard error se with df degrees of freedom, from per-process log
// variances vb and vc with nb and nc processes.
type processSensitivity struct {
	se, df float64
	vb, vc float64
}

func newProcessSensitivity(w *stats.WelchTest, b, c []float64) processSensitivity {
	return processSensitivity{se: w.SE, df: w.DF, vb: variance(logs(b)), vc: variance(logs(c))}
}

// MDE is stats.NewRunMDE of the test's standard error and degrees of
// freedom (the same noncentral t), as a relative change.
func (s processSensitivity) MDE(level, power float64) (float64, bool) {
	d, err := stats.NewRunMDE(s.se, s.df, level, power)
	if err != nil {
		return 0, false
	}
	return math.Expm1(d), true
}

// SamplesFor is the processes a side that would detect effect: the
// fewest n (at most 100) whose standard error sqrt((vb+vc)/n), with
// 2n-2 degrees of freedom, gives an MDE at or below effect.
func (s processSensitivity) SamplesFor(effect, level, power float64) int {
	for n := 2; n <= 100; n++ {
		se := math.Sqrt((s.vb + s.vc) / float64(n))
		if !(se > 0) {
			return n
		}
		d, err := stats.NewRunMDE(se, float64(2*n-2), level, power)
		if err == nil && math.Expm1(d) <= effect {
			return n
		}
	}
	return 0
}

func variance(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	ss := 0.0
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return ss / float64(len(v)-1)
}

// NotHeld is the comparison that replaces c, a counted improvement that
// did not hold when its benchmark was counted again: all, the same
// benchmark and unit judged on every process, with a note saying what c
// showed. Nothing fails on an improvement, but a report should not claim
// one that two modes of a bimodal count made.
func NotHeld(c, all Comparison) Comparison {
	first := fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%] over %d+%d processes", 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1), c.Baseline.N, c.Candidate.N)
	note := "an improvement of " + first + " that did not hold when counted again: judged on all processes"
	if all.Note != "" {
		note = all.Note + "; " + note
	}
	all.Note = note
	return all
}
