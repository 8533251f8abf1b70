package report

import (
	"bytes"
	"encoding/json"
	"github.com/wirebench/wirebench/internal/outcome"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// TestIdentical: benchmarks of packages identical on both sides are in
// every report, each by name with the reason, in the headline's count and
// the JSON; against a stored baseline with the baseline's values; a run
// whose every package is identical passes with ✅.
func TestIdentical(t *testing.T) {
	ids := []compare.Identical{
		{Package: "example.com/m/a", Hash: "abc", Benchmarks: []compare.IdenticalBenchmark{{Name: "example.com/m/a BenchmarkOne"}, {Name: "example.com/m/a BenchmarkTwo"}}},
		{Package: "example.com/m/b", Hash: "def", Benchmarks: []compare.IdenticalBenchmark{{Name: "example.com/m/b BenchmarkThree"}}},
	}
	stored := []compare.Identical{{Package: "example.com/m/a", Hash: "abc",
		Benchmarks: []compare.IdenticalBenchmark{{Name: "example.com/m/a BenchmarkOne", Baseline: map[string]float64{"instructions/op": 1234}}}}}
	for _, tt := range []struct {
		name   string
		r      *compare.Result
		n      int
		says   []string
		failed bool
	}{
		{"paired run with a regression beside", func() *compare.Result { r := pairedResult(false); r.Identical = ids; return r }(), 3,
			[]string{"3 benchmarks in 2 packages not measured", "in the base and the head", "measure-all"}, true},
		{"all identical", &compare.Result{Options: compare.Defaults(), Method: compare.MethodPaired, Identical: ids}, 3,
			[]string{"### ✅ No regressions", "3 identical (not measured)"}, false},
		{"stored baseline", &compare.Result{Options: compare.Defaults(), Method: compare.MethodStored, Identical: stored}, 1,
			[]string{"here and in the baseline", "baseline 1234 instructions/op"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			md := Markdown(outcome.Report{Result: tt.r}, Options{})
			var text, js bytes.Buffer
			if err := Text(&text, tt.r); err != nil {
				t.Fatal(err)
			}
			if err := JSON(&js, tt.r, ""); err != nil {
				t.Fatal(err)
			}
			for _, id := range tt.r.Identical {
				for _, b := range id.Benchmarks {
					if !strings.Contains(md, CellName(b.Name)+" | "+compare.IdenticalReason) || !strings.Contains(strings.Join(strings.Fields(text.String()), " "), b.Name) {
						t.Errorf("%s not listed as identical:\n%s\n%s", b.Name, md, text.String())
					}
				}
			}
			if !strings.Contains(md, strconv.Itoa(tt.n)+" identical (not measured)") {
				t.Errorf("headline does not count %d identical:\n%s", tt.n, md)
			}
			for _, s := range tt.says {
				if !strings.Contains(md, s) {
					t.Errorf("markdown lacks %q:\n%s", s, md)
				}
			}
			var doc struct {
				Verdict   string
				Counts    struct{ Identical int }
				Identical []struct {
					Package, Hash, Reason string
					Benchmarks            []struct {
						Name     string
						Baseline map[string]float64
					}
				}
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Counts.Identical != tt.n || len(doc.Identical) != len(tt.r.Identical) || doc.Identical[0].Reason != compare.IdenticalReason ||
				doc.Identical[0].Hash != tt.r.Identical[0].Hash || (doc.Verdict == "fail") != tt.failed {
				t.Errorf("JSON: %+v", doc)
			}
		})
	}
}

// TestStagesText: the counted method says how many benchmarks a staged
// count settled early and how many it counted beyond the plan.
func TestStagesText(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    results.Counter
		want string
	}{
		{"not staged", results.Counter{Processes: 5}, ""},
		{"settled", results.Counter{Processes: 5, First: 3, Settled: 79}, " (79 benchmarks settled after 3, their 99% interval inside the floor or clear of it, and counted no further but to confirm a change)"},
		{"beyond", results.Counter{Processes: 5, Further: 1}, " (1 benchmark counted in 5 more, its interval still straddling the floor after 5)"},
		{"both", results.Counter{Processes: 5, First: 3, Settled: 10, Further: 2},
			" (10 benchmarks settled after 3, their 99% interval inside the floor or clear of it, and counted no further but to confirm a change; 2 benchmarks counted in 5 more, their interval still straddling the floor after 5)"},
	} {
		if got := stagesText(&tt.c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
