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

// TestPairedT is stats.PairedT on the log of the processes' counts,
// each base process with the head process of its seed: both met the
// same inputs (the same order of benchmarks and, where the worker took
// the seed, the same random state), and what those add to a count
// cancels in their difference.
const TestPairedT Test = "paired-t"

// Counted reports whether c's p-value is a counted metric's test of the
// processes' counts, paired or not.
func (c Comparison) Counted() bool { return c.Test == TestWelch || c.Test == TestPairedT }

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
// every sample is one process's count, so the test is on the log of the
// processes' counts, base against candidate: paired by seed when both
// sides' processes pair (bySeed), Welch's t otherwise; the estimate is
// the ratio of their geometric means. When the differences have no
// spread (every process counted the same on each side, or every pair
// differed by the same) equal counts are no change (p = 1), different
// ones a certain change (p = 0), as for an exact metric. It is reported, not enforced, when the runs counted
// differently (gate, from countedGate), with other block sizes, in fewer
// than MinProcesses processes a side, or when the unit is not the one
// the run gates on (Options.CountedUnit) nor the collector's
// (results.UnitGCInstructionsPerOp, which gates beside it).
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
	case opts.CountedUnit != "" && c.Unit != opts.CountedUnit && c.Unit != results.UnitGCInstructionsPerOp:
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
	x, y := logs(n.p.b), logs(n.p.c)
	c.Spread = pooledSD(x, y)
	test, same := TestWelch, "every process counted the same on each side"
	run := stats.Welch
	if px, py, ok := bySeed(n.p); ok {
		x, y, test, same, run = px, py, TestPairedT, "every pair of processes differed by the same", stats.PairedT
		c.Pairs = len(x)
		c.PairSpread = pairSpread(x, y)
	}
	w, err := run(x, y, opts.Confidence)
	switch {
	case errors.Is(err, stats.ErrAllEqual):
		r := math.Exp(y[0] - x[0])
		c.Ratio, c.Lo, c.Hi, c.RawRatio = r, r, r, r
		c.P, c.Test = 1, test
		if r != 1 {
			c.P = 0
		}
		c.Note = same
		return
	case err != nil:
		c.Note = "no test: " + err.Error()
		return
	}
	c.Ratio, c.Lo, c.Hi = math.Exp(w.Estimate), math.Exp(w.Lo), math.Exp(w.Hi)
	c.RawRatio = c.Ratio
	c.P, c.Test, c.DF = w.P, test, w.DF
	n.counted = &w
}

// bySeed returns the log counts of p's two sides in pairs, x[i] and
// y[i] the base's and the head's processes of one seed, when pairing
// holds: every sample of both sides has a seed, each seed once a side,
// and both sides the same seeds (a same-runner A/B: process k of both
// builds has seed k). ok is false otherwise: a stored baseline counted
// with other seeds, or runs that did not record them.
func bySeed(p pair) (x, y []float64, ok bool) {
	if p.bs == nil || p.cs == nil || len(p.bs) != len(p.cs) {
		return nil, nil, false
	}
	at := make(map[uint64]int, len(p.cs))
	for j, s := range p.cs {
		if _, dup := at[s]; dup {
			return nil, nil, false
		}
		at[s] = j
	}
	for i, s := range p.bs {
		j, found := at[s]
		if !found {
			return nil, nil, false
		}
		delete(at, s) // a seed twice in the base finds none the second time
		x, y = append(x, math.Log(p.b[i])), append(y, math.Log(p.c[j]))
	}
	return x, y, true
}

// pooledSD is the standard deviation between processes of two sides'
// log counts, each around its own mean: the spread an unpaired test
// sees (relative, as logs are).
func pooledSD(x, y []float64) float64 {
	var ss, df float64
	for _, v := range [][]float64{x, y} {
		if len(v) > 1 {
			ss, df = ss+variance(v)*float64(len(v)-1), df+float64(len(v)-1)
		}
	}
	if df == 0 {
		return 0
	}
	return math.Sqrt(ss / df)
}

// pairSpread is the spread a paired test leaves of one process: the
// standard deviation of the pairs' log differences over sqrt 2 (each
// difference has two processes' own noise), to set beside pooledSD.
func pairSpread(x, y []float64) float64 {
	d := make([]float64, len(x))
	for i := range x {
		d[i] = y[i] - x[i]
	}
	if len(d) < 2 {
		return 0
	}
	return math.Sqrt(variance(d) / 2)
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

// processSensitivity is the Sensitivity of the test of counts: its
// standard error se with df degrees of freedom, from per-process log
// variances vb and vc (Welch's), or the variance vd of the pairs' log
// differences (paired).
type processSensitivity struct {
	se, df     float64
	vb, vc, vd float64
	paired     bool
}

func newProcessSensitivity(w *stats.WelchTest, c *Comparison, p pair) processSensitivity {
	if c.Pairs > 0 {
		return processSensitivity{se: w.SE, df: w.DF, vd: 2 * c.PairSpread * c.PairSpread, paired: true}
	}
	return processSensitivity{se: w.SE, df: w.DF, vb: variance(logs(p.b)), vc: variance(logs(p.c))}
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
// 2n-2 degrees of freedom (paired: sqrt(vd/n), n-1), gives an MDE at or
// below effect.
func (s processSensitivity) SamplesFor(effect, level, power float64) int {
	for n := 2; n <= 100; n++ {
		se, df := math.Sqrt((s.vb+s.vc)/float64(n)), float64(2*n-2)
		if s.paired {
			se, df = math.Sqrt(s.vd/float64(n)), float64(n-1)
		}
		if !(se > 0) {
			return n
		}
		d, err := stats.NewRunMDE(se, df, level, power)
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
