package compare

import (
	"math"
	"sort"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
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
	// Accepted is set on a regression the pull request accepted as
	// intended (a label or a Wirebench-Accept line): it is reported as
	// accepted, with who and why, and does not fail the run.
	Accepted *accept.Acceptance
	// Test names the test behind P: TestNewRun for a stored-baseline
	// timing judged against the baseline's history, empty for the
	// Mann–Whitney test of the samples (and for exact metrics, which have
	// none; paired comparisons say Paired).
	Test Test
	// Pairs is, for a counted metric tested paired (TestPairedT), how
	// many pairs of processes it was tested on; 0 when unpaired.
	Pairs int
	// Spread is, for a counted metric, the standard deviation of the
	// processes' log counts around each side's mean (relative): what
	// Welch's test sees. PairSpread is, when paired, what remains of it
	// in a pair's difference (its standard deviation over sqrt 2): what
	// the paired test sees. 0 when not computed.
	Spread, PairSpread float64
	// DF is the degrees of freedom of the new-run test, HistoryRuns the
	// runs of the history it was judged against (the reference's
	// included); 0 for other tests.
	DF          float64
	HistoryRuns int
	// NotEnforced, when not empty, says why this comparison is reported
	// but cannot fail the run: a stored-baseline timing with too little
	// history, or measured with other harness settings than the
	// baseline's (see TimingGate).
	NotEnforced string
	// Where is, for a counted regression or improvement (or an
	// inconclusive count beyond the threshold), the functions behind it
	// (Locate); nil for other comparisons, and where either side has no
	// profile of the benchmark.
	Where *Where
	// Varying, for a count of instructions or cycles, are the functions
	// whose cost differed most between the candidate's processes
	// (results.Profile.Varying, per operation): what a wide spread was
	// made of.
	Varying []results.Function
}

// Test names a statistical test behind a p-value.
type Test string

// TestNewRun is stats.NewRun: the candidate as one new run against the
// runs of the baseline's history.
const TestNewRun Test = "new-run-t"

// Change is the relative change, Ratio-1 (0.05 = +5%).
func (c Comparison) Change() float64 { return c.Ratio - 1 }

// Summarize is the median and count of a sample, for a Comparison.
func Summarize(v []float64) Summary {
	m, err := stats.Median(v)
	if err != nil {
		m = math.NaN()
	}
	return Summary{Median: m, N: len(v)}
}

// Result is a whole comparison.
//
// The fields up to UnitMismatch describe a comparison of either kind. The
// last group holds what only one way of comparing fills in (the zero value
// otherwise): Method says which way it was, Why and AA belong to the
// same-runner A/B comparison, ShardShifts to a stored baseline compared
// with a candidate merged from shards, Gate to stored-baseline
// comparisons. (Options.History, likewise, is used by stored-baseline
// comparisons only.)
type Result struct {
	Options        Options
	BaselineEnv    results.Env
	CandidateEnv   results.Env
	MachineDiffers []results.Difference
	OtherDiffers   []results.Difference
	// Shift is the machine's speed shift between the runs; nil when there
	// were no timings.
	Shift       *Shift
	Comparisons []Comparison
	// Missing lists benchmarks only in the baseline, New those only in the
	// candidate, UnitMismatch those whose units have nothing in common.
	Missing, New, UnitMismatch []string

	// Method says how timings were compared: MethodStored (a stored
	// baseline, unpaired samples) or MethodPaired (same-runner A/B, paired
	// rounds). Empty means MethodStored.
	Method Method
	// Why explains the choice of Method when a same-runner A/B comparison
	// was asked for (e.g. "no base checkout: fell back to the stored
	// baseline"); empty otherwise.
	Why string
	// AA is the built-in A/A check of a paired run, nil otherwise.
	AA *AACheck
	// ShardShifts holds the speed shift of each shard when the candidate
	// was merged from shards (stored baseline only); Shift then summarises
	// them.
	ShardShifts []ShardShift
	// Gate says what the stored baseline's history let timings gate
	// (stored baseline only; nil for a same-runner A/B run).
	Gate *TimingGate
	// Counter is how the candidate's work was counted, nil when it was
	// timed (results.Settings.Counter), and BaselineCounter the
	// baseline's: whose processes were seeded, and what wirebench patched
	// in the toolchains (results.Counter.Patches).
	Counter, BaselineCounter *results.Counter
	// Unseen lists the candidate's counted benchmarks whose counts
	// explain little of their native time (results.Results.Unseen): what
	// makes them slower, a count may not see.
	Unseen []results.Unseen
	// Serial lists the candidate's counted benchmarks that call
	// RunParallel (results.Results.Serial): their counts are their serial
	// work.
	Serial []string
	// UnprofiledBase is set when a counted change could not be located
	// (Comparison.Where) because the baseline has no profile of its
	// benchmark and the candidate has: a baseline stored before profiles
	// were, which its next refresh stores.
	UnprofiledBase bool
	// Clock is the wall-time check made beside a counted comparison, nil
	// when there was none: its ns/op comparisons are among Comparisons,
	// judged against a floor of their own (WithClock); in a same-runner
	// A/B run AA is its A/A check.
	Clock *Clock
	// Identical lists the packages not measured because their test binary
	// and files are the same in the baseline and the candidate
	// (gotest.Hash): they run the same instructions on the same inputs, so
	// nothing in them can have changed. Their benchmarks are in no
	// comparison; the report lists each as identical.
	Identical []Identical
	// Troubles are the benchmarks (and packages) either side could not
	// measure as it measured the others: skipped or failed natively,
	// not counted under Valgrind, not built (Trouble). Each is its own
	// row; those the candidate broke fail the run (FailingTroubles).
	Troubles []Trouble
}

// IdenticalReason is what the reports say of every benchmark of an
// Identical package.
const IdenticalReason = "identical test binary and files: not measured"

// IdenticalSuiteReason is IdenticalReason for the embedded suite's
// benchmarks, whose identity is the wirebench executable's.
const IdenticalSuiteReason = "the same wirebench executable as the baseline's: not measured"

// Identical is a package whose hash (gotest.Hash: the test binary as
// built for measuring, the toolchain, GOOS/GOARCH, the build flags and
// the package's files that are not Go source) is the same in the
// baseline and the candidate.
type Identical struct {
	Package string
	Hash    string
	// Benchmarks are its benchmarks, by results.Key.
	Benchmarks []IdenticalBenchmark
}

// IdenticalBenchmark is one benchmark of an Identical package.
type IdenticalBenchmark struct {
	Name string
	// Baseline is the stored baseline's median of each of its units,
	// carried into the report of a check against a stored baseline; nil
	// in a same-runner A/B run, where neither build was measured.
	Baseline map[string]float64 `json:",omitempty"`
}

// IdenticalCount is how many benchmarks r's Identical packages hold.
func (r *Result) IdenticalCount() int {
	n := 0
	for _, p := range r.Identical {
		n += len(p.Benchmarks)
	}
	return n
}

// Clock is the wall-time check of a counted comparison (metric auto):
// the code also timed natively, so that what a count cannot see (sleeps,
// the kernel, caches, code that acts differently under Valgrind) still
// fails the run when it is large. In a same-runner A/B run both builds
// are timed interleaved and paired; against a stored baseline (History)
// the run's wall times are judged against the baseline's history of
// them, as a timed check's are.
type Clock struct {
	// History is set when the wall times were judged against a stored
	// baseline's history rather than paired with a base build's.
	History bool
	// Threshold is the wall-time comparisons' effect floor, wider than
	// the count's: a different binary's code layout alone moves a
	// benchmark's time by up to about 10%, which no count sees.
	Threshold float64
	// Budget is what the timed phase was given; Elapsed what it took,
	// its confirmation included.
	Budget, Elapsed time.Duration
	// Rounds and Generations are the rounds made and the generations of
	// workers they ran in (the confirmation's included; no generations
	// against a stored baseline).
	Rounds, Generations int
}

// Method is how timings were compared.
type Method string

const (
	MethodStored Method = "stored-baseline"
	MethodPaired Method = "same-runner-ab"
	// MethodCounted is the same-runner A/B comparison of counted work:
	// both builds counted on this machine in processes of their own,
	// compared process set against process set (internal/check, internal/count).
	MethodCounted Method = "counted-ab"
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
func (r *Result) Regressions() []Comparison { return r.withVerdict(Regression) }

// Improvements returns the comparisons with an improvement verdict.
func (r *Result) Improvements() []Comparison { return r.withVerdict(Improvement) }

func (r *Result) withVerdict(v Verdict) []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if c.Verdict == v {
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

// Failed reports whether the result meets the fail-on condition: a
// regression that fails the run (see Fails), or a trouble the candidate
// caused (FailingTroubles).
func (r *Result) Failed(on FailOn) bool {
	return on == FailOnRegression && (len(r.Failing()) > 0 || len(r.FailingTroubles()) > 0)
}

// Failing returns the regressions that fail the run under
// FailOnRegression: enforced (see Enforced) and, for timings that were
// re-measured, reproduced.
func (r *Result) Failing() []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if r.Fails(c) {
			out = append(out, c)
		}
	}
	return out
}

// Fails reports whether c fails the run under fail-on regression: a
// regression that is enforced (see Enforced), reproduced when it was
// re-measured and not accepted by the pull request.
func (r *Result) Fails(c Comparison) bool {
	return c.Verdict == Regression && !c.Unconfirmed && c.Accepted == nil && r.Enforced(c)
}

// Enforced reports whether c's verdict can fail the run. Exact metrics
// always can. A timing cannot when a paired run's A/A check found the
// machine too noisy (a count does not move with the machine, so the A/A
// check of a clock beside a count leaves the counts gated), nor can a
// noisy comparison reported only (Comparison.NotEnforced: a
// stored-baseline timing with too little history, other settings).
// (A regression that did not reproduce on confirmation never fails the
// run either; Failed checks that.)
func (r *Result) Enforced(c Comparison) bool {
	if c.Kind != Noisy {
		return true
	}
	return c.NotEnforced == "" && !(r.AA != nil && r.AA.Noisy && !results.IsCounted(c.Unit))
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
