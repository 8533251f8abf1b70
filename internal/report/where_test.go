package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"math"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

// whereResult is a counted A/B comparison of a small module in which an
// encoder's helper does more work (a regression, with a function that
// appears and one that shrinks), a decoder got faster (an improvement),
// a third benchmark did not change, and a fourth's regression is judged
// against a stored baseline's compact profile (bounded costs).
func whereResult() *compare.Result {
	base, cand := fixtureEnvs(true)
	counter := &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountTimer, Processes: 5, Blocks: 3}
	r := &compare.Result{Options: compare.Defaults(), BaselineEnv: base, CandidateEnv: cand, Method: compare.MethodCounted, Counter: counter}
	r.Options.Threshold = 0.01
	prof := func(fns ...string) *results.Profile {
		p := &results.Profile{}
		for _, f := range fns {
			name, v, _ := strings.Cut(f, "=")
			var x float64
			fmt.Sscan(v, &x)
			p.Functions = append(p.Functions, results.Function{Name: name, Cost: results.Cost{Instructions: x}})
		}
		return p
	}
	counted := func(name string, b, c float64, v compare.Verdict, bp, cp *results.Profile) compare.Comparison {
		x := compare.Comparison{Name: name, Unit: results.UnitInstructionsPerOp, Kind: compare.Noisy, Test: compare.TestWelch,
			Baseline: compare.Summary{Median: b, N: 5}, Candidate: compare.Summary{Median: c, N: 5},
			Ratio: c / b, Lo: c / b * 0.999, Hi: c / b * 1.001, RawRatio: c / b, P: 1e-6, PAdjusted: 1e-5, DF: 7.9, Verdict: v, MDE: 0.002}
		if v == compare.Regression || v == compare.Improvement {
			x.Where = compare.Locate(bp, cp, x.Unit, c-b)
		}
		return x
	}
	enc := "example.com/wire.(*Encoder).Encode"
	defer func() {
		w := r.Comparisons[0].Where
		w.Dumps, w.Open = "wirebench-results/callgrind/example.com_wire_BenchmarkEncode-0a1b2c3d", "cg_diff --mod-filename='s,.*/,,' base.cg.out head.cg.out > diff.cg.out && cg_annotate diff.cg.out"
	}()
	r.Comparisons = []compare.Comparison{
		counted("example.com/wire BenchmarkEncode", 2360, 2549, compare.Regression,
			prof(enc+"=900", "example.com/wire.appendVarint=400", "example.com/wire.checksum=300", "runtime.mallocgc=500", "example.com/wire.oldPad=60", "runtime.memmove=200"),
			prof(enc+"=900", "example.com/wire.appendVarint=400", "example.com/wire.checksum=450", "runtime.mallocgc=500", "example.com/wire.each[go.shape.float64]=90", "runtime.memmove=209")),
		counted("example.com/wire BenchmarkDecode", 5000, 4500, compare.Improvement,
			prof("example.com/wire.(*Decoder).Decode=2000", "runtime.mallocgc=2000", "example.com/wire.readVarint=1000"),
			prof("example.com/wire.(*Decoder).Decode=2000", "runtime.mallocgc=1500", "example.com/wire.readVarint=1000")),
		counted("example.com/wire BenchmarkPlain", 1000, 1000.2, compare.Unchanged, nil, nil),
		counted("example.com/wire BenchmarkUnsure", 1000, 1020, compare.Inconclusive, nil, nil),
	}
	unsure := &r.Comparisons[len(r.Comparisons)-1]
	unsure.PAdjusted, unsure.Lo, unsure.Hi = 0.2, 0.99, 1.05
	unsure.Where = compare.Locate(prof("example.com/wire.f=980", "example.com/wire.maybe=20"), prof("example.com/wire.f=980", "example.com/wire.maybe=40"), unsure.Unit, 20)
	stored := counted("example.com/wire BenchmarkStored", 1000, 1100, compare.Regression,
		&results.Profile{Functions: []results.Function{{Name: "example.com/wire.f", Cost: results.Cost{Instructions: 900}}},
			Omitted: 12, Rest: &results.Cost{Instructions: 100}, Most: &results.Cost{Instructions: 8}},
		prof("example.com/wire.f=900", "example.com/wire.grown=108", "example.com/wire.tiny=3"))
	r.Comparisons = append(r.Comparisons, stored)
	return r
}

// TestWhereGolden: where the counted changes went, in the Markdown, text
// and JSON reports.
func TestWhereGolden(t *testing.T) {
	r := whereResult()
	golden(t, "where.md.golden", Markdown(outcome.Report{Result: r, Title: "wirebench: go test -bench ."}, Options{}))
	var b bytes.Buffer
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "where.txt.golden", b.String())
	b.Reset()
	if err := JSON(&b, r, compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	golden(t, "where.json.golden", b.String())
}

// TestWhereMarkdown: one folded block per flagged counted benchmark, in
// the order of the changes, whose summary (what a phone shows) names the
// change and the function that moved most; none for the unchanged one;
// what a function's cost is is said once.
func TestWhereMarkdown(t *testing.T) {
	md := Markdown(outcome.Report{Result: whereResult()}, Options{})
	sec := md[strings.Index(md, "#### Where the counted changes went"):]
	sec = sec[:strings.Index(sec, "<details><summary>How this was measured")]
	for _, want := range []string{
		"<summary>❌ <b>Encode</b> instructions/op +8.0% (+189): <code>example.com/wire.checksum</code> +150 (79% of it)</summary>",
		"<summary>✅ <b>Decode</b> instructions/op -10.0% (-500): <code>runtime.mallocgc</code> -500 (100% of it)</summary>",
		"| `example.com/wire.each[float64]` (new) | 0 | 90 | +90 | 48% |",
		"| `example.com/wire.oldPad` (gone) | 60 | 0 | -60 | -32% |",
		"| `example.com/wire.grown` | ≤ 8 | 108 | ≥ +100 | 100% |",
		"These 3 functions explain 95% of the change (+189 instructions/op).",
		"Callgrind's dumps of a block: `wirebench-results/callgrind/example.com_wire_BenchmarkEncode-0a1b2c3d` (with the run's results); there, `cg_diff --mod-filename='s,.*/,,' base.cg.out head.cg.out > diff.cg.out && cg_annotate diff.cg.out` shows",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("the section lacks %q:\n%s", want, sec)
		}
	}
	// What a function's cost is, and what ≤ marks, is said once, in the
	// folded method.
	for _, want := range []string{"≤ marks a function it does not name", "self cost, not that of the functions they call"} {
		if n := strings.Count(md, want); n != 1 {
			t.Errorf("%q appears %d times, want once", want, n)
		}
	}
	if strings.Contains(sec, "Plain") || strings.Contains(sec, "Unsure") || strings.Contains(sec, "memmove") || strings.Contains(sec, "tiny") {
		t.Errorf("the section names an unchanged benchmark or a function that moved less than %v of the change:\n%s", compare.MinWhere, sec)
	}
	if n := strings.Count(sec, "<details>"); n != 3 {
		t.Errorf("%d blocks, want 3 (the flagged benchmarks)", n)
	}
	if strings.Count(md, "inlined") != 1 {
		t.Errorf("inlining is said %d times, want once", strings.Count(md, "inlined"))
	}
	if i, j := strings.Index(sec, "<b>Encode</b>"), strings.Index(sec, "<b>Decode</b>"); i > j {
		t.Error("the improvement's block comes before the regression's")
	}
	if out := reporttest.RenderGFM(t, md); !strings.Contains(out, "<code>example.com/wire.each[float64]</code> (new)") {
		t.Errorf("the table does not render:\n%s", reporttest.Excerpt(out, "each["))
	}
}

// TestWhereText: the text report says where the flagged counted changes
// went, and an inconclusive count beyond the floor too, marked so.
func TestWhereText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, whereResult()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"example.com/wire BenchmarkUnsure instructions/op +2.0% inconclusive (+20 per op):", "example.com/wire.maybe  20  →  40  +20  100%",
		"example.com/wire.checksum             300  →  450  +150  79%"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text report lacks %q:\n%s", want, out)
		}
	}
}

// TestWhereHostileNames: a function's name comes from a binary a pull
// request built; in a summary (HTML, no Markdown) and a cell it stays
// inert and shown.
func TestWhereHostileNames(t *testing.T) {
	r := whereResult()
	w := r.Comparisons[0].Where
	w.Functions[0].Name = "main.x</summary></details><img src=x onerror=alert(1)>@octocat#1"
	r.Comparisons[0].Name = "example.com/wire Benchmark<!--@octocat"
	md := Markdown(outcome.Report{Result: r}, Options{})
	out := reporttest.RenderGFM(t, md)
	for _, active := range []string{"<img", "<!--", "@octocat", "#1"} {
		if strings.Contains(out, active) {
			t.Errorf("%q survives in active form:\n%s", active, reporttest.Excerpt(out, active))
		}
	}
	if o, c := strings.Count(out, "<details>"), strings.Count(out, "</details>"); o != c {
		t.Errorf("%d <details>, %d </details>", o, c)
	}
	if !strings.Contains(out, "onerror=alert(1)") {
		t.Error("the hostile name is not shown")
	}
	reporttest.CheckTableCells(t, out)
}

// TestWhereBounded: however many counted changes, the report stays
// within its limit; their blocks are cut like the rows of the changes
// they explain, the largest regressions' kept, and the report says how
// many it does not show.
func TestWhereBounded(t *testing.T) {
	r := &compare.Result{Options: compare.Defaults(), Method: compare.MethodCounted, Counter: &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}}
	for i := range 500 {
		name := fmt.Sprintf("example.com/m/pkg%03d BenchmarkEncode/case=%03d", i, i)
		ratio := 1.02 + float64(i)/1000
		c := compare.Comparison{Name: name, Unit: results.UnitInstructionsPerOp, Kind: compare.Noisy, Test: compare.TestWelch,
			Baseline: compare.Summary{Median: 1e4, N: 5}, Candidate: compare.Summary{Median: 1e4 * ratio, N: 5},
			Ratio: ratio, Lo: ratio, Hi: ratio, RawRatio: ratio, P: 0, PAdjusted: 0, Verdict: compare.Regression, MDE: 0.001}
		var bf, cf []results.Function
		for k := range 8 {
			fn := fmt.Sprintf("example.com/m/pkg%03d.(*VeryLongReceiverTypeName).helperFunctionWithALongName%d", i, k)
			bf = append(bf, results.Function{Name: fn, Cost: results.Cost{Instructions: 1e3}})
			cf = append(cf, results.Function{Name: fn, Cost: results.Cost{Instructions: 1e3 + (ratio-1)*1e4/8}})
		}
		c.Where = compare.Locate(&results.Profile{Functions: bf}, &results.Profile{Functions: cf}, c.Unit, c.Candidate.Median-c.Baseline.Median)
		r.Comparisons = append(r.Comparisons, c)
	}
	md := Markdown(outcome.Report{Result: r}, Options{})
	if len(md) > DefaultMaxChars {
		t.Fatalf("%d bytes, limit %d", len(md), DefaultMaxChars)
	}
	blocks := strings.Count(md, "<summary>❌")
	if blocks == 0 || blocks == 500 {
		t.Fatalf("%d blocks of 500 shown", blocks)
	}
	if !strings.Contains(md, fmt.Sprintf("where %d more counted changes went is not shown", 500-blocks)) {
		t.Errorf("the report does not say how many blocks it cut (%d shown)", blocks)
	}
	if !strings.Contains(md, "case=499") {
		t.Error("the largest regression's block was cut")
	}
	if o, c := strings.Count(md, "<details>"), strings.Count(md, "</details>"); o != c {
		t.Errorf("%d <details>, %d </details>", o, c)
	}
	t.Logf("500 counted regressions: %d where blocks shown, %d bytes", blocks, len(md))
}

// TestWhereJSON: the JSON report carries every function of a Where, with
// its readable name beside its symbol, and nothing on other comparisons.
func TestWhereJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, whereResult(), compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Comparisons []struct {
			Name  string
			Where *struct {
				Change    float64 `json:"change_per_op"`
				Explained float64
				Functions []struct {
					Function, Symbol    string
					Baseline, Candidate float64
					Change, Share       float64
					Appeared            bool
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Comparisons {
		switch c.Name {
		case "example.com/wire BenchmarkEncode":
			w := c.Where
			if w == nil || w.Change != 189 || len(w.Functions) != 3 || math.Abs(w.Explained-180.0/189) > 1e-9 {
				t.Fatalf("Encode's where: %+v", w)
			}
			f := w.Functions[1]
			if f.Function != "example.com/wire.each[float64]" || f.Symbol != "example.com/wire.each[go.shape.float64]" || !f.Appeared || f.Change != 90 {
				t.Errorf("the new function: %+v", f)
			}
		case "example.com/wire BenchmarkPlain":
			if c.Where != nil {
				t.Errorf("an unchanged benchmark has a where: %+v", c.Where)
			}
		}
	}
}

// TestWhereAddresses: a function known by its address only (a binary
// without its symbol table) is said to be so, once.
func TestWhereAddresses(t *testing.T) {
	r := whereResult()
	r.Comparisons[0].Where.Functions[0].Name = "0x00000000004a1f20"
	md := Markdown(outcome.Report{Result: r}, Options{})
	if strings.Count(md, "known by its address only") != 1 || !strings.Contains(md, "`0x00000000004a1f20`") {
		t.Errorf("the address is not explained once:\n%s", md[strings.Index(md, "#### Where"):])
	}
	if md := Markdown(outcome.Report{Result: whereResult()}, Options{}); strings.Contains(md, "address") {
		t.Error("an address is explained where there is none")
	}
}

// TestWhereUnprofiledBase: a baseline stored without profiles is why no
// counted change says where it went, and the reports say so.
func TestWhereUnprofiledBase(t *testing.T) {
	r := whereResult()
	for i := range r.Comparisons {
		r.Comparisons[i].Where = nil
	}
	r.UnprofiledBase = true
	var b bytes.Buffer
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": Markdown(outcome.Report{Result: r}, Options{}), "text": b.String()} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), "the baseline was stored without the functions behind its counts") {
			t.Errorf("%s: no word of the baseline without profiles", name)
		}
	}
	b.Reset()
	if err := JSON(&b, r, compare.FailOnRegression); err != nil || !strings.Contains(b.String(), `"unprofiled_baseline": true`) {
		t.Errorf("JSON: %v", err)
	}
}
