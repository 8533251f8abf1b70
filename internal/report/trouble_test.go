package report

import (
	"bytes"
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// troubleResult is the counted comparison of a module whose benchmarks
// have troubles of their own: one not counted under Valgrind on both
// sides (judged by wall time), one skipped natively on both, and one the
// head broke (it fails natively there, the base ran it).
func troubleResult() *compare.Result {
	base, cand := fixtureEnvs(true)
	const (
		enc  = "example.com/m BenchmarkEncode"
		wide = "example.com/m BenchmarkPaths/wide"
		data = "example.com/m BenchmarkTestdata"
		brk  = "example.com/m BenchmarkBroken"
	)
	notCounted := results.NewTrouble(wide, results.TroubleNotCounted, "skipped under Valgrind: paths_test.go:9: this CPU lacks AVX-512")
	skipped := results.NewTrouble(data, results.TroubleSkipped, "data_test.go:4: needs testdata/big.json")
	failed := results.NewTrouble(brk, results.TroubleFailed, "broken_test.go:7: open testdata/in.bin: no such file or directory")
	return &compare.Result{
		Options: compare.Defaults(), BaselineEnv: base, CandidateEnv: cand, Method: compare.MethodCounted,
		Comparisons: []compare.Comparison{
			{Name: enc, Unit: results.UnitInstructionsPerOp, Kind: compare.Noisy, Baseline: compare.Summary{Median: 1000, N: 5}, Candidate: compare.Summary{Median: 1000.2, N: 5},
				Ratio: 1.0002, RawRatio: 1.0002, Lo: 0.9999, Hi: 1.0005, P: 0.4, PAdjusted: 0.8, Verdict: compare.Unchanged, MDE: 0.001, Test: compare.TestPairedT, Pairs: 5},
			{Name: wide, Unit: results.UnitNsPerOp, Kind: compare.Noisy, Baseline: compare.Summary{Median: 160, N: 700}, Candidate: compare.Summary{Median: 158, N: 700},
				Ratio: 0.99, RawRatio: 0.99, Lo: 0.97, Hi: 1.01, P: 0.3, PAdjusted: 0.6, Verdict: compare.Unchanged, MDE: 0.03},
		},
		Troubles: []compare.Trouble{
			{Name: brk, Head: &failed, BaseMeasured: true},
			{Name: wide, Base: &notCounted, Head: &notCounted, BaseMeasured: true},
			{Name: data, Base: &skipped, Head: &skipped},
		},
		Clock: &compare.Clock{Threshold: 0.15},
	}
}

// TestTroubleReport: the head's broken benchmark fails the run and is
// shown at once with its message; the others are folded, each with why
// and what judged it; the JSON document says which fails, reads back
// into the same comparison, and a forged "fails" is refused.
func TestTroubleReport(t *testing.T) {
	r := troubleResult()
	md := Markdown(outcome.Report{Result: r, FailOn: compare.FailOnRegression}, Options{})
	for _, want := range []string{
		"### ❌ 1 benchmark the head could not measure",
		"**Fails** on 1 benchmark the head could not measure: **Broken** (failed).",
		"#### Not measured, and the head's doing (1 failed)",
		"head failed: broken\\_test.go:7: open testdata/in.bin: no such file or directory — **fails**: the head broke what the base ran",
		"Benchmarks not measured as the others: 1 not counted, 1 skipped",
		"skipped under Valgrind: paths\\_test.go:9: this CPU lacks AVX-512 — judged by wall time",
		"base skipped: data\\_test.go:4: needs testdata/big.json",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "REGRESSED") || !strings.Contains(text.String(), "example.com/m BenchmarkBroken: base measured; head failed") {
		t.Errorf("the text report lacks the verdict or the broken row:\n%s", text.String())
	}

	var doc bytes.Buffer
	if err := JSON(&doc, r, compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	back, _, err := ReadJSON(doc.Bytes())
	if err != nil {
		t.Fatalf("ReadJSON: %v", err)
	}
	if !back.Failed(compare.FailOnRegression) || len(back.Troubles) != 3 || len(back.FailingTroubles()) != 1 {
		t.Errorf("read back: failed %v, %d troubles, %d failing: want the run's", back.Failed(compare.FailOnRegression), len(back.Troubles), len(back.FailingTroubles()))
	}
	var again bytes.Buffer
	if err := JSON(&again, back, compare.FailOnRegression); err != nil || again.String() != doc.String() {
		t.Errorf("the document read back writes another (%v)", err)
	}
	for _, forged := range []struct{ name, old, new, want string }{
		{"a failing trouble passed off", `"fails": true`, `"fails": false`, "says fails false"},
		{"an unknown kind", `"kind": "failed"`, `"kind": "fine"`, `kind "fine"`},
	} {
		data := strings.Replace(doc.String(), forged.old, forged.new, 1)
		if data == doc.String() {
			t.Fatalf("%s: the forgery changed nothing", forged.name)
		}
		if _, _, err := ReadJSON([]byte(data)); err == nil || !strings.Contains(err.Error(), forged.want) {
			t.Errorf("%s: err = %v, want one containing %q", forged.name, err, forged.want)
		}
	}
}
