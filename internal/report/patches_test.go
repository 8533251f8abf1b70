package report

import (
	"bytes"
	"encoding/json"
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// TestPatchesSentence: a counted comparison whose processes did not pair
// because a side's toolchain did not take the runtime seed patch says
// which side, which patch did not apply and what that costs, in the
// Markdown and the text report, and the JSON gives each side's patches
// and whether it was seeded; where every count paired, or the unseeded
// side's build said nothing of patches (the embedded suite's worker),
// nothing is said.
func TestPatchesSentence(t *testing.T) {
	const (
		known   = "patches for go1.26: testing, runtime seed, sched, code"
		unknown = "patches: testing; runtime patches: none (go1.28 not known: known go1.26, go1.27)"
	)
	seeded := &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountTimer, Processes: 5, Blocks: 3, Random: results.SeededRandom, Patches: known}
	unseeded := &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountTimer, Processes: 5, Blocks: 3, Patches: unknown}
	embedded := &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}
	comparison := func(name string, test compare.Test) compare.Comparison {
		c := compare.Comparison{Name: name, Unit: results.UnitInstructionsPerOp, Kind: compare.Noisy, Test: test,
			Baseline: compare.Summary{Median: 1e4, N: 5}, Candidate: compare.Summary{Median: 1e4, N: 5},
			Ratio: 1, Lo: 0.99, Hi: 1.01, RawRatio: 1, P: 0.5, PAdjusted: 1, Verdict: compare.Unchanged, MDE: 0.02, Spread: 0.01}
		if test == compare.TestPairedT {
			c.Pairs, c.PairSpread = 5, 0.0001
		}
		return c
	}
	tests := []struct {
		name       string
		base, head *results.Counter
		test       compare.Test
		says       []string
		json       string
	}{
		{"the head unknown", seeded, unseeded, compare.TestWelch,
			[]string{"Not paired by seed: the head's processes were not seeded (go1.28.1; " + unknown + "), so the counts were tested by Welch's t-test", unpairedCost},
			`{"baseline":{"patches":"` + known + `","seeded":true},"candidate":{"patches":"` + unknown + `","seeded":false}}`},
		{"both unknown", unseeded, unseeded, compare.TestWelch,
			[]string{"the base's processes were not seeded (go1.26.8; " + unknown + "); the head's processes were not seeded (go1.28.1; " + unknown + ")"},
			`{"baseline":{"patches":"` + unknown + `","seeded":false},"candidate":{"patches":"` + unknown + `","seeded":false}}`},
		{"paired", seeded, seeded, compare.TestPairedT, nil,
			`{"baseline":{"patches":"` + known + `","seeded":true},"candidate":{"patches":"` + known + `","seeded":true}}`},
		{"the embedded suite", embedded, embedded, compare.TestWelch, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &compare.Result{Options: compare.Defaults(), Method: compare.MethodCounted, Counter: tt.head, BaselineCounter: tt.base,
				BaselineEnv: results.Env{GoVersion: "go1.26.8"}, CandidateEnv: results.Env{GoVersion: "go1.28.1"},
				Comparisons: []compare.Comparison{comparison("BenchmarkA", tt.test), comparison("BenchmarkB", tt.test)}}
			md := Markdown(outcome.Report{Result: r}, Options{})
			var text bytes.Buffer
			if err := Text(&text, r); err != nil {
				t.Fatal(err)
			}
			plain := strings.Join(strings.Fields(text.String()), " ")
			for _, w := range tt.says {
				if !strings.Contains(md, escapeInline(w)) && !strings.Contains(md, w) {
					t.Errorf("the report lacks %q:\n%s", w, md)
				}
				if !strings.Contains(plain, w) {
					t.Errorf("the text report lacks %q:\n%s", w, text.String())
				}
			}
			if tt.says == nil && (strings.Contains(md, "Not paired by seed") || strings.Contains(plain, "Not paired by seed")) {
				t.Errorf("the report says the counts were not paired by seed:\n%s", md)
			}
			var js bytes.Buffer
			if err := JSON(&js, r, compare.FailOnRegression); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Patches json.RawMessage `json:"patches"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if len(doc.Patches) > 0 {
				if err := json.Compact(&got, doc.Patches); err != nil {
					t.Fatal(err)
				}
			}
			if got.String() != tt.json {
				t.Errorf("the JSON's patches: %s, want %s", got.String(), tt.json)
			}
		})
	}
}
