package report

import (
	"bytes"
	"github.com/wirebench/wirebench/internal/outcome"
	"math"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
)

// pairedResult is a same-runner A/B comparison: one timing regression that
// was confirmed, one that did not reproduce, an A/A check.
func pairedResult(noisy bool) *compare.Result {
	base, cand := fixtureEnvs(true)
	nan := math.NaN()
	o := compare.Defaults()
	o.Threshold = 0.01
	o.Normalize = compare.NormalizeNever
	r := &compare.Result{
		Options: o, BaselineEnv: base, CandidateEnv: cand,
		Method: compare.MethodPaired,
		Why:    "pull request with a checkout of its base commit at base (input base-path)",
		AA:     &compare.AACheck{Benchmarks: 3},
		Shift:  &compare.Shift{Estimate: 1.004, Lo: 0.998, Hi: 1.011, N: 3, Reason: "same-runner A/B: both builds ran on this machine at the same time, so there is no machine difference to separate"},
		Comparisons: []compare.Comparison{
			{Name: "BenchmarkSerialize/codec=protobuf/dataset=small", Unit: "ns/op", Kind: compare.Noisy, Paired: true,
				Baseline: compare.Summary{Median: 98.2, N: 812}, Candidate: compare.Summary{Median: 100.3, N: 812},
				Ratio: 1.021, Lo: 1.016, Hi: 1.026, RawRatio: 1.021, P: 1e-9, PAdjusted: 3e-9, Verdict: compare.Regression, MDE: 0.009,
				Note: "confirmed on re-measurement: +2.05% [+1.70%, +2.41%], p (adj.) = 1e-30 over 1624 more pairs"},
			{Name: "BenchmarkDeserialize/codec=msgpack/dataset=small", Unit: "ns/op", Kind: compare.Noisy, Paired: true,
				Baseline: compare.Summary{Median: 355, N: 812}, Candidate: compare.Summary{Median: 376, N: 812},
				Ratio: 1.058, Lo: 1.05, Hi: 1.066, RawRatio: 1.058, P: 1e-12, PAdjusted: 3e-12, Verdict: compare.Regression, MDE: 0.01, Unconfirmed: true,
				Note: "did not reproduce on re-measurement (-0.20% [-0.61%, +0.22%], p (adj.) = 1 over 1624 more pairs): reported, not enforced"},
			{Name: "BenchmarkSerialize/codec=json/dataset=small", Unit: "ns/op", Kind: compare.Noisy, Paired: true,
				Baseline: compare.Summary{Median: 255, N: 812}, Candidate: compare.Summary{Median: 254, N: 812},
				Ratio: 0.997, Lo: 0.993, Hi: 1.002, RawRatio: 0.997, P: 0.3, PAdjusted: 0.9, Verdict: compare.Unchanged, MDE: 0.008},
			{Name: "BenchmarkSerialize/codec=protobuf/dataset=small", Unit: "B/msg", Kind: compare.Exact,
				Baseline: compare.Summary{Median: 26, N: 1}, Candidate: compare.Summary{Median: 26, N: 1},
				Ratio: 1, Lo: 1, Hi: 1, RawRatio: 1, P: nan, PAdjusted: nan, Verdict: compare.Unchanged, MDE: nan},
		},
	}
	if noisy {
		r.AA.Flagged = []string{"BenchmarkSerialize/codec=json/dataset=small"}
		r.AA.Noisy = true
	}
	return r
}

func TestPairedGolden(t *testing.T) {
	for _, noisy := range []bool{false, true} {
		name := "paired"
		if noisy {
			name = "paired-noisy"
		}
		r := pairedResult(noisy)
		golden(t, name+".md.golden", Markdown(outcome.Report{Result: r, Title: "wirebench: default suite"}, Options{}))
		var b bytes.Buffer
		if err := Text(&b, r); err != nil {
			t.Fatal(err)
		}
		golden(t, name+".txt.golden", b.String())
		b.Reset()
		if err := JSON(&b, r, compare.FailOnRegression); err != nil {
			t.Fatal(err)
		}
		golden(t, name+".json.golden", b.String())
	}
}

func TestPairedReportSays(t *testing.T) {
	md := Markdown(outcome.Report{Result: pairedResult(false)}, Options{})
	for _, want := range []string{
		"### ❌ 2 regressions",
		"Wilcoxon signed-rank test on the per-pair log ratios",
		"Comparison: same-runner A/B",
		"Why: pull request with a checkout of its base commit",
		"A/A check: the base build against a second base worker, measured the same way on 3 benchmarks: none came out changed",
		"❌ regression (not reproduced: not enforced)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the paired report does not say %q", want)
		}
	}

	// With the A/A check noisy, no timing regression fails the run, and
	// the headline says why.
	r := pairedResult(true)
	md = Markdown(outcome.Report{Result: r}, Options{})
	for _, want := range []string{
		"### ⚠️ 2 regressions (not failing: it did not reproduce on re-measurement; the A/A check found the machine too noisy for timings)",
		"> ⚠️ A/A check: the base build against a second base worker flagged 1 benchmark of 3",
		"❌ regression (A/A check noisy: not enforced)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the noisy paired report does not say %q", want)
		}
	}
	var b bytes.Buffer
	Text(&b, r)
	if !strings.Contains(b.String(), "ok (regressions not enforced") || strings.Contains(b.String(), "REGRESSED") {
		t.Errorf("text verdict of a run that does not fail:\n%s", b.String())
	}

	// A stored-baseline comparison that says why it was chosen.
	r = typicalResult()
	r.Why = "no base checkout (input base-path is empty)"
	if md := Markdown(outcome.Report{Result: r}, Options{}); !strings.Contains(md, "Comparison: stored baseline") || !strings.Contains(md, "Why: no base checkout") {
		t.Error("a stored-baseline report with a reason does not say which comparison was made and why")
	}
}
