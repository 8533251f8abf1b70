package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/results"
)

// updateHistory is 30 runs of the default suite, a day apart: every
// timing jitters by ±1.5%; Serialize protobuf/small got 25% slower at run
// 21 (index 20), unexplained; Deserialize json/large 12% faster at run 16
// (index 15), on a new CPU; Serialize protobuf/medium's message grew from
// 4 bytes at run 25 (index 24), accepted by the merged pull
// request.
func updateHistory() []baseline.Entry {
	base := fixtureHistory()[0]
	var h []baseline.Entry
	for k := range 30 {
		e := baseline.Entry{Seq: int64(k + 1), Time: fixtureBaseTime.AddDate(0, 0, k-29), Commit: fmt.Sprintf("%07x%033d", 0x1a2b3c0+k*0x1111, 0),
			Ref: "main", Machine: base.Machine, CPU: "AMD EPYC 7763", Go: base.Go, Medians: map[string]map[string]float64{}}
		if k >= 15 {
			e.CPU = "AMD EPYC 9V74"
		}
		for name, m := range base.Medians {
			c := map[string]float64{}
			for u, v := range m {
				c[u] = v
			}
			c[results.UnitNsPerOp] = v(m[results.UnitNsPerOp] * (1 + 0.015*jitter(k*13+len(name))))
			switch {
			case name == suiteName("Serialize", "protobuf", "small") && k >= 20:
				c[results.UnitNsPerOp] *= 1.25
			case name == suiteName("Deserialize", "json", "large") && k >= 15:
				c[results.UnitNsPerOp] *= 0.88
			case name == suiteName("Serialize", "protobuf", "medium") && k >= 24:
				c[results.UnitBytesPerMsg] += 4
			}
			e.Medians[name] = c
		}
		if k == 24 {
			e.Accepted = []accept.Acceptance{{Source: "label wirebench:accept", PR: 42, By: "octo"}}
		}
		h = append(h, e)
	}
	return h
}

func v(x float64) float64 { return float64(int64(x*10)) / 10 }

// updateInput is the report input of the push that stored the 30th run.
func updateInput() Input {
	h := updateHistory()
	r := fixtureCandidate(typicalResult())
	return Input{Candidate: r, History: h, ChangePoints: history.Analyze(h, h[:28], history.Options{}),
		Notes: []string{"Recorded in the history with this run, as accepted by the merged pull request: label wirebench:accept of #42."}}
}

func TestUpdatedMarkdown(t *testing.T) {
	in := updateInput()
	a := in.ChangePoints
	if len(a.Points) != 3 {
		t.Fatalf("the fixture's history has %d change points, want its 3 steps: %+v", len(a.Points), a.Points)
	}
	md := UpdatedMarkdown(in, "Baseline updated: branch main via the GitHub API, 84 benchmarks, 30 runs in its history.")
	for _, want := range []string{
		"### wirebench: baseline updated",
		"#### Change points in the history",
		"🆕 **1 new change point** on this push (0 unexplained)", // protobuf/medium B/msg: accepted; first seen now (3 runs after)
		"| 🆕 | Serialize protobuf/medium | B/msg | +0.3% | 1180 B → 1184 B |",
		"accepted: label wirebench:accept of #&#8203;42 by @&#8203;octo",
		"|  | Serialize protobuf/small | ns/op | +24.9% |",
		"the environment changed: CPU AMD EPYC 7763 → AMD EPYC 9V74",
		"#### Trends",
		"```mermaid",
		"without a change point",
		"<details><summary>This run</summary>",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the update report lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "```mermaid"); n != 3 {
		t.Errorf("%d charts, want one per series that moved (3)", n)
	}
	for _, block := range mermaidBlocks(md) {
		if err := checkXYChart(block); err != nil {
			t.Errorf("mermaid: %v\n%s", err, block)
		}
		if strings.Count(block, "    line [") != 2 {
			t.Errorf("a history chart without its two lines (runs, stretches):\n%s", block)
		}
	}
	// The first-seen point is the only one marked new.
	if strings.Count(md, "| 🆕 |") != 1 {
		t.Errorf("%d rows marked new, want 1", strings.Count(md, "| 🆕 |"))
	}
}

func TestChangePointLine(t *testing.T) {
	in := updateInput()
	for _, p := range in.ChangePoints.Points {
		l := ChangePointLine(p)
		if !strings.Contains(l, p.Unit) || !strings.Contains(l, shortSHA(p.Commit)) || !strings.Contains(l, "the first run after the step") {
			t.Errorf("line %q lacks the unit, the commit or the run", l)
		}
		if p.Explained() == strings.Contains(l, "unexplained") {
			t.Errorf("line %q: explained %v", l, p.Explained())
		}
	}
}

func TestHistoryPosition(t *testing.T) {
	h := []baseline.Entry{
		{Medians: map[string]map[string]float64{"a": {"ns/op": 100, "B/msg": 26}}},
		{Medians: map[string]map[string]float64{"a": {"ns/op": 110, "B/msg": 26}}},
		{Medians: map[string]map[string]float64{"b": {"ns/op": 1}}},
	}
	tests := []struct {
		unit  string
		value float64
		want  string
	}{
		{"ns/op", 120, "**above** 100 ns – 110 ns (2 runs)"},
		{"ns/op", 105, "within 100 ns – 110 ns (2 runs)"},
		{"ns/op", 90, "**below** 100 ns – 110 ns (2 runs)"},
		{"B/msg", 30, "**above** 26 B (all 2 runs)"},
		{"allocs/op", 3, "–"}, // no stored run has it
	}
	for _, tt := range tests {
		if got := historyPosition(h, "a", tt.unit, tt.value); got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.unit, tt.value, got, tt.want)
		}
	}
	if got := historyPosition(h, "b", "ns/op", 5); got != "–" {
		t.Errorf("one run: %q, want –", got)
	}
}

// TestUpdatedMarkdownQuiet: a history without a step says so, and how it
// looked; one that never varied says that.
func TestUpdatedMarkdownQuiet(t *testing.T) {
	h := fixtureHistory()
	md := UpdatedMarkdown(Input{Candidate: fixtureCandidate(typicalResult()), History: h, ChangePoints: history.Analyze(h, h[:7], history.Options{})}, "Baseline updated.")
	for _, want := range []string{"No change point. E-divisive means", "Nothing moved over the 8 runs of the history.", "series without a change point"} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "```mermaid") {
		t.Error("a chart without anything that moved")
	}
	one := h[:1]
	md = UpdatedMarkdown(Input{Candidate: fixtureCandidate(typicalResult()), History: one, ChangePoints: history.Analyze(one, nil, history.Options{})}, "Baseline updated.")
	if !strings.Contains(md, "No change point: no benchmark's metric varied over the 1 run of the history.") {
		t.Errorf("one run:\n%s", md)
	}
}
