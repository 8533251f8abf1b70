package report

import (
	"github.com/wirebench/wirebench/internal/outcome"
	"math"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

// Fixtures: comparisons built by hand, so the golden files depend on the
// renderer alone, not on the statistics behind compare.Compare.

// fixtureCandTime is when the fixtures' candidate ran, two days after
// the suite history's latest run.
var fixtureCandTime = time.Date(2026, 9, 16, 13, 5, 0, 0, time.UTC)

func fixtureEnvs(sameMachine bool) (base, cand results.Env) {
	mods := map[string]string{"google.golang.org/protobuf": "v1.36.12", "github.com/vmihailenco/msgpack/v5": "v5.4.1", "github.com/google/flatbuffers": "v25.12.19+incompatible"}
	base = results.Env{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "AMD EPYC 7763 64-Core Processor", GOMAXPROCS: 4, NumCPU: 4,
		Machine: "3f9a2c1e", Runner: "GitHub Actions, ubuntu24, X64", Commit: "abc1234def5678901234567890abcdef12345678", Ref: "main",
		Modules: mods, Wirebench: "v1.0.0", Time: reporttest.BaseTime}
	cand = base
	cand.Commit, cand.Ref, cand.Time = "def5678abc1234901234567890abcdef12345678", "refs/pull/42/merge", fixtureCandTime
	if !sameMachine {
		cand.Machine, cand.CPU = "7b41d0aa", "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz"
	}
	return base, cand
}

// suiteResult builds the comparison of the whole default suite (84
// benchmarks, 294 comparisons), every comparison unchanged: timings within
// a percent or two, judged against a history of 8 runs (reporttest.History)
// by the new-run test, exact metrics identical. On another machine the
// candidate's timings are 12% slower across the board and judged relative
// to that shift, as compare.Compare would.
func suiteResult(sameMachine bool) *compare.Result {
	base, cand := fixtureEnvs(sameMachine)
	r := &compare.Result{Options: compare.Defaults(), BaselineEnv: base, CandidateEnv: cand,
		Gate: &compare.TimingGate{Runs: 8, SameCode: 1, Needed: compare.MinHistoryRuns}}
	// Against a history that gates, every run is judged relative to its
	// typical speed, the median of its timings' ratios.
	const history = "timings are judged against the baseline's history, whose runs each moved as a whole with the machine's speed of the moment: every run, this one too, is judged relative to its own typical speed (the median of its timings' ratios to the reference), so what stands out is a benchmark's own change"
	shift := 1.0 // the candidates' medians as measured; the estimate is what compare found
	r.Shift = &compare.Shift{Estimate: 1.004, Lo: 0.996, Hi: 1.012, N: 84, Applied: true, Median: true, Reason: history}
	if !sameMachine {
		shift = 1.12
		r.MachineDiffers = []results.Difference{{Field: "machine", Old: base.Machine, New: cand.Machine}, {Field: "cpu", Old: base.CPU, New: cand.CPU}}
		r.Shift = &compare.Shift{Estimate: 1.12, Lo: 1.09, Hi: 1.15, N: 84, Applied: true, Median: true, Reason: history}
	}
	i := 0
	for _, ds := range reporttest.SuiteDatasets {
		for _, codec := range reporttest.SuiteCodecs {
			for _, op := range []string{"Serialize", "Deserialize"} {
				m := reporttest.SuiteMedians(op, codec, ds)
				for _, unit := range []string{results.UnitNsPerOp, results.UnitBytesPerOp, results.UnitAllocsPerOp, results.UnitBytesPerMsg} {
					v, ok := m[unit]
					if !ok {
						continue
					}
					i++
					c := compare.Comparison{Name: reporttest.SuiteName(op, codec, ds), Unit: unit, Verdict: compare.Unchanged,
						Baseline: compare.Summary{Median: v, N: 15}, Candidate: compare.Summary{Median: v, N: 15}}
					if unit == results.UnitNsPerOp {
						ratio := 1 + 0.01*reporttest.Jitter(i)
						c.Kind = compare.Noisy
						c.Ratio, c.Lo, c.Hi = ratio, ratio-0.018, ratio+0.018
						c.RawRatio = ratio * shift
						c.Candidate.Median = math.Round(v*ratio*shift*10) / 10
						c.P = 0.2 + 0.3*(1+reporttest.Jitter(i+3))
						c.PAdjusted = 1
						c.MDE = 0.031
						c.Normalized = true
						c.Test, c.DF, c.HistoryRuns = compare.TestNewRun, 6, 8
					} else {
						c.Kind = compare.Exact
						c.Ratio, c.Lo, c.Hi, c.RawRatio = 1, 1, 1, 1
						c.P, c.PAdjusted, c.MDE = math.NaN(), math.NaN(), math.NaN()
					}
					r.Comparisons = append(r.Comparisons, c)
				}
			}
		}
	}
	return r
}

// find returns the comparison of name and unit.
func find(r *compare.Result, name, unit string) *compare.Comparison {
	for i := range r.Comparisons {
		if r.Comparisons[i].Name == name && r.Comparisons[i].Unit == unit {
			return &r.Comparisons[i]
		}
	}
	panic("no comparison " + name + " " + unit)
}

// setTiming gives a noisy comparison a change (ratio in [lo, hi], judged
// relative to shift), p-values and a verdict.
func setTiming(c *compare.Comparison, shift, ratio, lo, hi, p, padj float64, v compare.Verdict) {
	c.Ratio, c.Lo, c.Hi, c.RawRatio = ratio, lo, hi, ratio*shift
	c.Candidate.Median = math.Round(c.Baseline.Median*ratio*shift*10) / 10
	c.P, c.PAdjusted, c.Verdict = p, padj, v
}

// typicalResult is the default suite on another machine (normalisation
// applied) with two regressions (a timing and an allocation count), one
// improvement and three inconclusive comparisons.
func typicalResult() *compare.Result {
	r := suiteResult(false)
	setTiming(find(r, reporttest.SuiteName("Serialize", "protobuf", "medium"), results.UnitNsPerOp), 1.12, 1.123, 1.098, 1.149, 0.000001, 0.0003, compare.Regression)
	setTiming(find(r, reporttest.SuiteName("Deserialize", "msgpack", "large"), results.UnitNsPerOp), 1.12, 0.916, 0.897, 0.935, 0.0000001, 0.00004, compare.Improvement)

	allocs := find(r, reporttest.SuiteName("Deserialize", "protobuf", "medium"), results.UnitAllocsPerOp)
	allocs.Candidate.Median = allocs.Baseline.Median + 2
	allocs.Ratio = allocs.Candidate.Median / allocs.Baseline.Median
	allocs.Lo, allocs.Hi, allocs.RawRatio, allocs.Verdict = allocs.Ratio, allocs.Ratio, allocs.Ratio, compare.Regression
	inc := find(r, reporttest.SuiteName("Serialize", "gob", "small"), results.UnitNsPerOp)
	setTiming(inc, 1.12, 1.041, 0.995, 1.089, 0.012, 0.21, compare.Inconclusive)
	inc.MDE = 0.062
	inc.Note = "this benchmark moves ±1.7% between runs (8 runs of history, 6 degrees of freedom): more runs of history, not more samples, narrow it down"
	inc = find(r, reporttest.SuiteName("Deserialize", "json", "floats-1m"), results.UnitNsPerOp)
	setTiming(inc, 1.12, 1.062, 1.020, 1.105, 0.00002, 0.004, compare.Inconclusive)
	inc.MDE = 0.045
	inc.Note = "a significant change of +6.2%, but its interval reaches past the ±5% threshold"
	inc = find(r, reporttest.SuiteName("Serialize", "raw", "floats-64k"), results.UnitBytesPerOp)
	inc.Kind, inc.Verdict = compare.Noisy, compare.Inconclusive
	inc.Candidate.Median = inc.Baseline.Median * 1.025
	inc.Ratio, inc.Lo, inc.Hi, inc.RawRatio = 1.025, 0.97, 1.09, 1.025
	inc.P, inc.PAdjusted, inc.MDE, inc.SamplesNeeded = 0.08, 1, 0.12, 60
	return r
}

// fixtureCandidate is the run behind a fixture result: one sample per
// metric, the candidate's median.
func fixtureCandidate(r *compare.Result) *results.Results {
	c := results.New("default", r.CandidateEnv)
	c.Settings = results.Settings{Samples: 15, Rounds: 15, Source: "wirebench"}
	for _, cmp := range r.Comparisons {
		b := c.Lookup(cmp.Name)
		if b == nil {
			c.Benchmarks = append(c.Benchmarks, suiteBenchmark(cmp.Name))
			b = &c.Benchmarks[len(c.Benchmarks)-1]
		}
		b.Add(cmp.Unit, cmp.Candidate.Median)
	}
	return c
}

// suiteBenchmark fills Op, Codec and Dataset from a suite name.
func suiteBenchmark(name string) results.Benchmark {
	b := results.Benchmark{Name: name}
	op, rest, _ := strings.Cut(ShortName(name), " ")
	codec, ds, ok := strings.Cut(rest, "/")
	if ok && (op == "Serialize" || op == "Deserialize") {
		b.Op, b.Codec, b.Dataset = strings.ToLower(op), codec, ds
	}
	return b
}

// typicalInput is the report input of typicalResult.
func typicalInput() outcome.Report {
	r := typicalResult()
	return outcome.Report{
		Result: r, Candidate: fixtureCandidate(r), History: reporttest.History(),
		BaselineSource: "branch main via the GitHub API", Title: "wirebench: default suite",
		FailOn: compare.FailOnRegression, Notes: []string{"Mode `check` (pull request #42)."},
		Details: "https://github.com/acme/codec/actions/runs/123456789",
	}
}

// shortHistoryResult is the unchanged suite against a baseline whose
// history holds one run: every timing is reported by the test of the
// samples and not enforced.
func shortHistoryResult() *compare.Result {
	r := suiteResult(true)
	r.Gate = &compare.TimingGate{Runs: 1, SameCode: 1, Needed: compare.MinHistoryRuns}
	// Too little history to judge by: the shift as compare finds it
	// without one, on the same machine.
	r.Shift = &compare.Shift{Estimate: 1.004, Lo: 0.996, Hi: 1.012, N: 84, Reason: "both runs ran on the same machine"}
	for i := range r.Comparisons {
		if c := &r.Comparisons[i]; c.Kind == compare.Noisy {
			c.Normalized, c.RawRatio = false, c.Ratio
			c.Test, c.DF, c.HistoryRuns = "", 0, 1
			c.NotEnforced = "not enforced: the baseline's history has 1 run of this benchmark measured like the reference, 5 needed to estimate how much it moves between runs (one run's samples cannot show it); 4 more make it gate"
		}
	}
	return r
}

// inconclusiveResult is the unchanged suite against a history of five
// runs of other commits (3 degrees of freedom): every timing is enforced,
// and every one inconclusive, able to detect only changes of 40% to 70%
// (about 33 standard errors, at ±1% between runs).
func inconclusiveResult() *compare.Result {
	r := suiteResult(true)
	r.Gate = &compare.TimingGate{Runs: 5, SameCode: 1, Needed: compare.MinHistoryRuns}
	i := 0
	for k := range r.Comparisons {
		c := &r.Comparisons[k]
		if c.Kind != compare.Noisy {
			continue
		}
		i++
		c.Verdict, c.DF, c.HistoryRuns = compare.Inconclusive, 3, 5
		c.Lo, c.Hi = c.Ratio*0.8, c.Ratio*1.25
		c.MDE = 0.55 + 0.15*reporttest.Jitter(i)
		c.Note = "this benchmark moves ±1.0% between runs (5 runs of history, 3 degrees of freedom): more runs of history, not more samples, narrow it down"
	}
	return r
}

// speedOutsideResult is the unchanged suite against a history of 8 quiet
// runs, measured while the machine was loaded: its median timing moved
// ×1.51, outside the ×0.98 to ×1.02 of the history, so no timing is
// enforced.
func speedOutsideResult() *compare.Result {
	r := suiteResult(true)
	r.Gate.Speed = &compare.SpeedCheck{Shift: 1.51, Lo: 0.98, Hi: 1.02, Outside: true}
	r.Shift.Estimate, r.Shift.Lo, r.Shift.Hi = 1.51, 1.47, 1.55
	for i := range r.Comparisons {
		if c := &r.Comparisons[i]; c.Kind == compare.Noisy {
			c.RawRatio = c.Ratio * 1.51
			c.Candidate.Median = math.Round(c.Baseline.Median*c.RawRatio*10) / 10
			c.NotEnforced = "not enforced: this run's median timing moved ×1.51 against the reference, outside the ×0.98 to ×1.02 a run of the history moves: the machine was not in a state the history measured (load, another runner, a process off its usual speed), which moves benchmarks unlike each other"
		}
	}
	return r
}
