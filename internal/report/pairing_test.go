package report

import (
	"bytes"
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// TestPairingSentence: a counted report says how its counts were tested:
// pair by pair, with the spread between processes and within pairs, for
// some or all of them, or Welch's test when none paired; the JSON gives
// each comparison's test, spread and pairs.
func TestPairingSentence(t *testing.T) {
	counter := &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountTimer, Processes: 5, Blocks: 3}
	comparison := func(name string, test compare.Test, spread, within float64) compare.Comparison {
		c := compare.Comparison{Name: name, Unit: results.UnitInstructionsPerOp, Kind: compare.Noisy, Test: test,
			Baseline: compare.Summary{Median: 1e4, N: 5}, Candidate: compare.Summary{Median: 1e4, N: 5},
			Ratio: 1, Lo: 0.999, Hi: 1.001, RawRatio: 1, P: 0.5, PAdjusted: 1, Verdict: compare.Unchanged, MDE: 0.002, Spread: spread}
		if test == compare.TestPairedT {
			c.Pairs, c.PairSpread = 5, within
		}
		return c
	}
	tests := []struct {
		name  string
		tests []compare.Test
		want  []string
		text  []string
	}{
		{"all paired", []compare.Test{compare.TestPairedT, compare.TestPairedT, compare.TestPairedT},
			[]string{"tested pair by pair (paired t-test, median spread between processes 1.2%, within pairs 0.020%)", "the paired t-test on the processes' log counts",
				"How each count was tested: 3 of 3 benchmarks paired by seed", "| X/a | paired t | 5 pairs | 1.2% | 0.020% | ±0.2% |"},
			[]string{"(p=1.00 n=5 pairs)"}},
		{"some paired", []compare.Test{compare.TestPairedT, compare.TestWelch, compare.TestPairedT},
			[]string{"so 2 of 3 counts were tested pair by pair", "the others by Welch's t-test", "Welch's where processes did not pair",
				"How each count was tested: 2 of 3 benchmarks paired by seed", "| X/b | Welch's t | 5+5 | 1.2% | – | ±0.2% |", "| X/c | paired t | 5 pairs |"},
			[]string{"(p=1.00 n=5 pairs)", "(p=1.00 n=5+5)"}},
		{"none paired", []compare.Test{compare.TestWelch, compare.TestWelch},
			[]string{"the processes are the replicates of Welch's t-test", "A count changed when Welch's t-test",
				"How each count was tested: Welch's t-test on 2 benchmarks", "| X/a | Welch's t | 5+5 | 1.2% | – | ±0.2% |"},
			[]string{"(p=1.00 n=5+5)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &compare.Result{Options: compare.Defaults(), Method: compare.MethodCounted, Counter: counter}
			for i, test := range tt.tests {
				r.Comparisons = append(r.Comparisons, comparison("BenchmarkX/"+string(rune('a'+i)), test, 0.012, 0.0002))
			}
			md := Markdown(outcome.Report{Result: r}, Options{})
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("the report lacks %q:\n%s", w, md)
				}
			}
			var text bytes.Buffer
			if err := Text(&text, r); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.text {
				if !strings.Contains(text.String(), w) {
					t.Errorf("the text report lacks %q:\n%s", w, text.String())
				}
			}
			if strings.Contains(text.String(), "n=5 pairs") != (tt.name != "none paired") {
				t.Errorf("the text report says n=5 pairs where nothing paired, or not where something did:\n%s", text.String())
			}
			var js bytes.Buffer
			if err := JSON(&js, r, compare.FailOnRegression); err != nil {
				t.Fatal(err)
			}
			if want := strings.Contains(tt.name, "paired") && tt.name != "none paired"; strings.Contains(js.String(), `"pairs": 5`) != want ||
				!strings.Contains(js.String(), `"spread": 0.012`) {
				t.Errorf("the JSON's pairs and spread (paired %v):\n%s", want, js.String())
			}
		})
	}
}
