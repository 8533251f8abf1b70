package report

import (
	"bytes"
	"flag"
	"github.com/wirebench/wirebench/internal/outcome"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	reporttest.Golden(t, filepath.Join("testdata", name), got, *update)
}

// firstRunInput is a run of the default suite without a baseline.
func firstRunInput() outcome.Report {
	r := suiteResult(true)
	return outcome.Report{Candidate: fixtureCandidate(r), BaselineSource: "baseline/default.json in the workspace",
		Title: "wirebench: default suite", Notes: []string{"Mode `check`: no baseline, so nothing can fail."}}
}

// unchangedInput is the default suite on the same machine, nothing changed.
func unchangedInput() outcome.Report {
	r := suiteResult(true)
	return outcome.Report{Result: r, Candidate: fixtureCandidate(r), History: reporttest.History(),
		BaselineSource: "baseline/default.json in the workspace", Title: "wirebench: default suite"}
}

// resultInput is the report input of a fixture result of the default
// suite on the same machine, with its history.
func resultInput(r *compare.Result) outcome.Report {
	return outcome.Report{Result: r, Candidate: fixtureCandidate(r), History: reporttest.History(),
		BaselineSource: "baseline/default.json in the workspace", Title: "wirebench: default suite"}
}

// TestHeadlineSaysWhatWasJudged: the headline counts the timings that
// gated and says why the others could not, and a run whose timings all
// failed to gate is never marked as a plain pass.
func TestHeadlineSaysWhatWasJudged(t *testing.T) {
	tests := []struct {
		name string
		r    *compare.Result
		want string
	}{
		{"all gated", suiteResult(true), "### ✅ No regressions · timings: all 84 gated · sizes and allocations: all 210 gated"},
		{"some inconclusive", typicalResult(), "### ❌ 2 regressions · 1 improvement · timings: 82 of 84 gated, 2 inconclusive (could detect ±5.3%, median) · sizes and allocations: 209 of 210 gated, 1 inconclusive"},
		{"short history", shortHistoryResult(), "### ❔ No regressions · timings: 0 of 84 gated, 84 not enforced (the baseline's history has 1 run, 4 more needed) · sizes and allocations: all 210 gated"},
		{"speed outside the history's", speedOutsideResult(), "### ❔ No regressions · timings: 0 of 84 gated, 84 not enforced (its median timing moved ×1.51, outside the history's ×0.98 to ×1.02) · sizes and allocations: all 210 gated"},
		{"all inconclusive", inconclusiveResult(), "### ❔ No regressions · timings: 0 of 84 gated, 84 inconclusive (could detect ±55.0%, median) · sizes and allocations: all 210 gated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := headline(tt.r, compare.FailOnRegression); got != tt.want {
				t.Errorf("headline\n got: %s\nwant: %s", got, tt.want)
			}
			if tt.r.Gate != nil && tt.r.Gate.SpeedOutside() && !strings.Contains(Markdown(outcome.Report{Result: tt.r}, Options{}), "The machine was in a state the history never measured") {
				t.Error("the report does not say why a run outside the history's speed is not enforced")
			}
			var b bytes.Buffer
			if err := Text(&b, tt.r); err != nil {
				t.Fatal(err)
			}
			if j := judge(tt.r); j.noTimingGated() != strings.Contains(b.String(), "ok (no timing gated)") {
				t.Errorf("text report: no timing gated %v, but it says:\n%s", j.noTimingGated(), b.String())
			}
		})
	}
}

func TestMarkdownGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   outcome.Report
	}{
		{"typical.md", typicalInput()},
		{"first-run.md", firstRunInput()},
		{"unchanged.md", unchangedInput()},
		{"short-history.md", resultInput(shortHistoryResult())},
		{"inconclusive.md", resultInput(inconclusiveResult())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.name+".golden", Markdown(tc.in, Options{}))
		})
	}
}

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, typicalResult()); err != nil {
		t.Fatal(err)
	}
	golden(t, "typical.txt.golden", b.String())
}

// mixedResult is a small comparison with every case the JSON and text
// formats must spell: exact and noisy, NaN and infinite numbers, a
// normalisation that was not applied, missing and new benchmarks, and
// timings reported, not enforced, for lack of history (two go test files
// compared: one run each).
func mixedResult() *compare.Result {
	base, cand := fixtureEnvs(true)
	cand.GoVersion = "go1.27rc1"
	nan := math.NaN()
	const short = "not enforced: the baseline's history has 1 run of this benchmark measured like the reference, 5 needed to estimate how much it moves between runs (one run's samples cannot show it); 4 more make it gate"
	r := &compare.Result{
		Options:      compare.Defaults(),
		BaselineEnv:  base,
		CandidateEnv: cand,
		OtherDiffers: []results.Difference{{Field: "go", Old: "go1.26.8", New: "go1.27rc1"}},
		Shift:        &compare.Shift{Estimate: 1.031, Lo: 1.002, Hi: 1.061, N: 3, Reason: "both runs ran on the same machine"},
		Comparisons: []compare.Comparison{
			{Name: "BenchmarkEncode/size=10", Unit: "ns/op", Kind: compare.Noisy, Baseline: compare.Summary{Median: 1520, N: 10}, Candidate: compare.Summary{Median: 1710, N: 10},
				Ratio: 1.125, Lo: 1.101, Hi: 1.152, RawRatio: 1.125, P: 0.00018, PAdjusted: 0.00054, Verdict: compare.Regression, MDE: 0.041},
			{Name: "BenchmarkEncode/size=10", Unit: "B/op", Kind: compare.Exact, Baseline: compare.Summary{Median: 0, N: 10}, Candidate: compare.Summary{Median: 48, N: 10},
				Ratio: math.Inf(1), Lo: math.Inf(1), Hi: math.Inf(1), RawRatio: math.Inf(1), P: nan, PAdjusted: nan, Verdict: compare.Regression, MDE: nan},
			{Name: "BenchmarkDecode/size=10", Unit: "ns/op", Kind: compare.Noisy, Baseline: compare.Summary{Median: 2100, N: 10}, Candidate: compare.Summary{Median: 2090, N: 10},
				Ratio: 0.995, Lo: 0.981, Hi: 1.012, RawRatio: 0.995, P: 0.62, PAdjusted: 1, Verdict: compare.Unchanged, MDE: 0.038},
			{Name: "BenchmarkDecode/size=10", Unit: "MB/s", Kind: compare.Noisy, Baseline: compare.Summary{Median: 81.2, N: 2}, Candidate: compare.Summary{Median: 85.0, N: 2},
				Ratio: 1.047, Lo: 0.8, Hi: 1.3, RawRatio: 1.047, P: 0.33, PAdjusted: 0.66, Verdict: compare.Inconclusive, MDE: math.Inf(1), SamplesNeeded: 14, HigherIsBetter: true},
			{Name: "BenchmarkOdd|name<b>`x`", Unit: "ns/op", Kind: compare.Noisy, Baseline: compare.Summary{Median: 10, N: 1}, Candidate: compare.Summary{Median: 11, N: 1},
				Ratio: 1.1, Lo: nan, Hi: nan, RawRatio: 1.1, P: nan, PAdjusted: nan, Verdict: compare.Inconclusive, MDE: nan,
				Note: "too few samples (1 vs 1): need at least 2 a side, 10 or more to detect small changes"},
		},
		Missing: []string{"BenchmarkGone"},
		New:     []string{"BenchmarkFresh/a=1"},
		Gate:    &compare.TimingGate{Runs: 1, SameCode: 1, Needed: compare.MinHistoryRuns},
	}
	for i := range r.Comparisons {
		if c := &r.Comparisons[i]; c.Kind == compare.Noisy {
			c.NotEnforced, c.HistoryRuns = short, 1
		}
	}
	return r
}

func TestJSONGolden(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, mixedResult(), compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	golden(t, "mixed.json.golden", b.String())
}

func TestTextMixedGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, mixedResult()); err != nil {
		t.Fatal(err)
	}
	golden(t, "mixed.txt.golden", b.String())
}

func TestMarkdownMixedGolden(t *testing.T) {
	in := outcome.Report{Result: mixedResult(), Title: "wirebench: go test -bench ./...", FailOn: compare.FailOnNever}
	golden(t, "mixed.md.golden", Markdown(in, Options{}))
}
