package report

import (
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

// bigResult is a comparison of n benchmarks in which every comparison
// changed: each benchmark's timing is a regression, an improvement or
// inconclusive in turn, its encoded size grew and its allocations fell.
// Half the names are the suite's, half look like user go test names.
func bigResult(n int) *compare.Result {
	base, cand := fixtureEnvs(false)
	r := &compare.Result{Options: compare.Defaults(), BaselineEnv: base, CandidateEnv: cand,
		Shift: &compare.Shift{Estimate: 1.08, Lo: 1.06, Hi: 1.1, N: n, Applied: true, Reason: "the two runs ran on different machines"}}
	for i := range n {
		name := fmt.Sprintf("BenchmarkSerialize/codec=codec%04d/dataset=set%d", i/6, i%6)
		if i%2 == 1 {
			name = fmt.Sprintf("BenchmarkParse/input=testdata_file_%05d.json/mode=strict-validation", i)
		}
		ch := 0.05 + float64(i%97)/200 // +5% ... +53%
		t := compare.Comparison{Name: name, Unit: results.UnitNsPerOp, Kind: compare.Noisy,
			Baseline: compare.Summary{Median: 1000 + float64(i), N: 15}, Candidate: compare.Summary{N: 15},
			P: 1e-6, PAdjusted: 1e-4, MDE: 0.03, Normalized: true}
		switch i % 3 {
		case 0:
			t.Ratio, t.Verdict = 1+ch, compare.Regression
		case 1:
			t.Ratio, t.Verdict = 1/(1+ch), compare.Improvement
		default:
			t.Ratio, t.Verdict, t.PAdjusted, t.SamplesNeeded = 1+ch/10, compare.Inconclusive, 0.3, 40
		}
		t.Lo, t.Hi, t.RawRatio = t.Ratio*0.98, t.Ratio*1.02, t.Ratio*1.08
		t.Candidate.Median = t.Baseline.Median * t.RawRatio
		size := compare.Comparison{Name: name, Unit: results.UnitBytesPerMsg, Kind: compare.Exact,
			Baseline: compare.Summary{Median: 100, N: 1}, Candidate: compare.Summary{Median: 100 + float64(1+i%50), N: 1},
			P: math.NaN(), PAdjusted: math.NaN(), MDE: math.NaN(), Verdict: compare.Regression}
		size.Ratio = size.Candidate.Median / size.Baseline.Median
		size.Lo, size.Hi, size.RawRatio = size.Ratio, size.Ratio, size.Ratio
		allocs := compare.Comparison{Name: name, Unit: results.UnitAllocsPerOp, Kind: compare.Exact,
			Baseline: compare.Summary{Median: 10, N: 15}, Candidate: compare.Summary{Median: 9, N: 15},
			Ratio: 0.9, Lo: 0.9, Hi: 0.9, RawRatio: 0.9, P: math.NaN(), PAdjusted: math.NaN(), MDE: math.NaN(), Verdict: compare.Improvement}
		r.Comparisons = append(r.Comparisons, t, size, allocs)
	}
	for i := range n / 10 {
		r.Missing = append(r.Missing, fmt.Sprintf("BenchmarkGone/%d", i))
		r.New = append(r.New, fmt.Sprintf("BenchmarkFresh/%d", i))
	}
	return r
}

// bigInput wraps bigResult with a candidate and a history.
func bigInput(n int) outcome.Report {
	r := bigResult(n)
	return outcome.Report{Result: r, Candidate: fixtureCandidate(r), History: reporttest.History(), Title: "wirebench: big suite",
		BaselineSource: "baseline/default.json in the workspace", Details: "https://github.com/acme/codec/actions/runs/1"}
}

var headlineRE = regexp.MustCompile(`^### ❌ ([0-9,]+) regressions · `)

func TestMarkdownBounded(t *testing.T) {
	for _, tc := range []struct {
		n     int
		limit int
	}{
		{2000, 0}, {10000, 0}, {2000, 20000}, {300, 0},
	} {
		t.Run(fmt.Sprintf("n=%d,limit=%d", tc.n, tc.limit), func(t *testing.T) {
			in := bigInput(tc.n)
			out := Markdown(in, Options{MaxChars: tc.limit})
			limit := tc.limit
			if limit == 0 {
				limit = DefaultMaxChars
			}
			if len(out) > limit {
				t.Fatalf("report is %d bytes, limit %d", len(out), limit)
			}
			m := headlineRE.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no headline with the regression count; report starts %q", out[:min(200, len(out))])
			}
			if want := human.Count(in.Result.Count(compare.Regression)); m[1] != want {
				t.Errorf("headline counts %s regressions, want %s", m[1], want)
			}
			for _, want := range []string{"not shown", "Shortened to fit", "#### What changed", "| Benchmark | Metric |"} {
				if !strings.Contains(out, want) {
					t.Errorf("report lacks %q", want)
				}
			}
			if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
				t.Errorf("unbalanced details blocks")
			}
			t.Logf("%d benchmarks, %d comparisons: %d bytes", tc.n, len(in.Result.Comparisons), len(out))
		})
	}
}

// TestMarkdownCutsLeastImportantFirst checks the order in which rows go:
// the largest regressions stay, and no improvement is shown while a
// regression row is cut.
func TestMarkdownCutsLeastImportantFirst(t *testing.T) {
	in := bigInput(2000)
	out := Markdown(in, Options{})
	// The largest timing regression heads the table.
	cs := in.Result.Regressions()
	compare.Sort(cs)
	var top compare.Comparison
	for _, c := range cs {
		if c.Kind == compare.Noisy {
			top = c
			break
		}
	}
	if !strings.Contains(out, "| "+CellName(top.Name)+" | ns/op |") {
		t.Errorf("the largest timing regression %s is not shown", top.Name)
	}
	if strings.Contains(out, "✅ improvement |") {
		t.Errorf("an improvement row is shown although regression rows were cut")
	}
	// With room for everything, nothing is cut.
	small := Markdown(bigInput(20), Options{MaxChars: 1 << 20})
	if strings.Contains(small, "not shown") || strings.Contains(small, "Shortened") {
		t.Errorf("a report that fits says rows were cut")
	}
}

func TestMarkdownFirstRunBounded(t *testing.T) {
	r := bigResult(3000)
	in := outcome.Report{Candidate: fixtureCandidate(r), Title: "big"}
	out := Markdown(in, Options{})
	if len(out) > DefaultMaxChars {
		t.Fatalf("report is %d bytes", len(out))
	}
	for _, want := range []string{"### ℹ️ No baseline yet", "not shown"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestMarkdownTinyLimit: when not even the skeleton fits, the headline
// still comes first and the limit still holds.
func TestMarkdownTinyLimit(t *testing.T) {
	for _, limit := range []int{300, 1000} {
		in := typicalInput()
		in.Notes = []string{strings.Repeat("a very long note ", 500)}
		out := Markdown(in, Options{MaxChars: limit})
		if len(out) > limit {
			t.Errorf("limit %d: %d bytes", limit, len(out))
		}
		if !strings.HasPrefix(out, "### ❌ 2 regressions") {
			t.Errorf("limit %d: report starts %q", limit, out[:min(80, len(out))])
		}
	}
}

func TestDocumentBounded(t *testing.T) {
	mk := func(tier int, mag float64, s string) row { return row{text: s + "\n", tier: tier, mag: mag} }
	d := &document{}
	d.add("head\n")
	d.addTable(&table{head: "H1\n", rows: []row{mk(2, 1, "inconclusive-row"), mk(0, 1, "reg-small"), mk(0, 9, "reg-big")},
		more: func(n int) string { return fmt.Sprintf("(%d more)\n", n) }})
	d.addTable(&table{head: "H2\n", rows: []row{mk(1, 5, "imp")}, more: func(n int) string { return fmt.Sprintf("(%d more)\n", n) }})
	for _, tc := range []struct {
		limit int
		want  string
	}{
		{1000, "head\nH1\ninconclusive-row\nreg-small\nreg-big\nH2\nimp\n"},
		{len("head\nH1\nreg-small\nreg-big\n\n(1 more)\nH2\nimp\n"), "head\nH1\nreg-small\nreg-big\n\n(1 more)\nH2\nimp\n"},
		{len("head\nH1\nreg-big\n\n(2 more)\n(1 more)\n"), "head\nH1\nreg-big\n\n(2 more)\n(1 more)\n"},
		{len("head\n(3 more)\n(1 more)\n"), "head\n(3 more)\n(1 more)\n"},
	} {
		got, ok := d.bounded(tc.limit)
		if !ok || got != tc.want {
			t.Errorf("limit %d: got %q (ok %v), want %q", tc.limit, got, ok, tc.want)
		}
	}
	if _, ok := d.bounded(3); ok {
		t.Errorf("limit 3: the fixed text alone does not fit, want !ok")
	}
}

// TestDocumentSizes checks the one-pass size bookkeeping against
// rendering, for every number of rows kept.
func TestDocumentSizes(t *testing.T) {
	for name, in := range map[string]outcome.Report{"typical": typicalInput(), "big": bigInput(150), "first run": firstRunInput()} {
		d := comparisonDocument
		if in.Result == nil {
			d = firstRunDocument
		}
		in.FailOn = compare.FailOnRegression
		doc := d(in)
		total := doc.rankRows()
		for k, n := range doc.sizes(total) {
			if got := doc.render(nil, k, total); got != n {
				t.Fatalf("%s: %d rows kept: sizes says %d bytes, render %d", name, k, n, got)
			}
		}
	}
}

// TestMarkdownDegenerate: empty inputs render a report, not a panic.
func TestMarkdownDegenerate(t *testing.T) {
	for name, in := range map[string]outcome.Report{
		"nothing":           {},
		"empty result":      {Result: &compare.Result{}},
		"empty candidate":   {Candidate: &results.Results{}},
		"history, no match": {Result: mixedResult(), History: reporttest.History()[:1]},
	} {
		out := Markdown(in, Options{})
		if !strings.HasPrefix(out, "### ") || strings.Count(out, "<details>") != strings.Count(out, "</details>") {
			t.Errorf("%s: %q", name, out)
		}
	}
}
