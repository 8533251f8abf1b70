package updatereport

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

// updateHistory is 30 runs of the default suite, a day apart: every
// timing jitters by ±1.5%; Serialize protobuf/small got 25% slower at run
// 21 (index 20), unexplained; Deserialize json/large 12% faster at run 16
// (index 15), on a new CPU; Serialize protobuf/medium's message grew by
// 4 bytes at run 30 (index 29), the push reported, accepted by the pull
// request it merged.
func updateHistory() []baseline.Entry {
	base := reporttest.History()[0]
	var h []baseline.Entry
	for k := range 30 {
		e := baseline.Entry{Seq: int64(k + 1), Time: reporttest.BaseTime.AddDate(0, 0, k-29), Commit: fmt.Sprintf("%07x%033d", 0x1a2b3c0+k*0x1111, 0),
			Ref: "main", Machine: base.Machine, CPU: "AMD EPYC 7763", Go: base.Go, Medians: map[string]map[string]float64{}}
		if k >= 15 {
			e.CPU = "AMD EPYC 9V74"
		}
		for name, m := range base.Medians {
			c := map[string]float64{}
			for u, v := range m {
				c[u] = v
			}
			c[results.UnitNsPerOp] = v(m[results.UnitNsPerOp] * (1 + 0.015*reporttest.Jitter(k*13+len(name))))
			switch {
			case name == reporttest.SuiteName("Serialize", "protobuf", "small") && k >= 20:
				c[results.UnitNsPerOp] *= 1.25
			case name == reporttest.SuiteName("Deserialize", "json", "large") && k >= 15:
				c[results.UnitNsPerOp] *= 0.88
			case name == reporttest.SuiteName("Serialize", "protobuf", "medium") && k >= 29:
				c[results.UnitBytesPerMsg] += 4
			}
			e.Medians[name] = c
		}
		if k == 29 {
			e.Accepted = []accept.Acceptance{{Source: "label wirebench:accept", PR: 42, By: "octo"}}
			e.PullRequests = []int{42}
		}
		h = append(h, e)
	}
	return h
}

func v(x float64) float64 { return float64(int64(x*10)) / 10 }

// updateInput is the report of the push that stored the 30th run.
func updateInput() Update {
	h := updateHistory()
	return Update{Line: "Baseline updated: branch main via the GitHub API, 84 benchmarks, 30 runs in its history.",
		Candidate: run(h[len(h)-1]), History: h, Analysis: history.Analyze(h, h[:28], history.Options{}),
		Notes: []string{"Recorded in the history with this run, as accepted by the merged pull request: label wirebench:accept of #42."}}
}

func TestMarkdown(t *testing.T) {
	in := updateInput()
	a := in.Analysis
	if len(a.Points) != 3 {
		t.Fatalf("the fixture's history has %d change points, want its 3 steps: %+v", len(a.Points), a.Points)
	}
	md := Markdown(in)
	for _, want := range []string{
		"### wirebench: baseline updated",
		"#### Change points in the history",
		"🆕 **1 new change point** on this push (0 unexplained)", // protobuf/medium B/msg: accepted, exact: seen on the push that made it
		"| 🆕 | Serialize protobuf/medium | B/msg | +0.3% | 1180 B → 1184 B |",
		"accepted: label wirebench:accept of #&#8203;42 by @&#8203;octo",
		"|  | Serialize protobuf/small | ns/op | +24.9% |",
		"the environment changed: CPU AMD EPYC 7763 → AMD EPYC 9V74",
		"(#42), 2026-", // the pull request of the size's step
		"| exact: the value changed |",
		"| E-divisive (p ",
		"Sizes and exact allocation counts (42 series): any change between two runs is a step",
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
	for _, block := range reporttest.Charts(t, md) {
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
	for _, p := range in.Analysis.Points {
		l := ChangePointLine(p)
		if !strings.Contains(l, p.Unit) || !strings.Contains(l, report.ShortSHA(p.Commit)) || !strings.Contains(l, "the first run after the step") {
			t.Errorf("line %q lacks the unit, the commit or the run", l)
		}
		if p.Explained() == strings.Contains(l, "unexplained") {
			t.Errorf("line %q: explained %v", l, p.Explained())
		}
	}
}

// TestMarkdownQuiet: a history without a step says so, and how it
// looked; one that never varied says that.
func TestMarkdownQuiet(t *testing.T) {
	h := reporttest.History()
	md := Markdown(quietInput())
	for _, want := range []string{"No change point. Sizes and exact allocation counts", "E-divisive means with a permutation test",
		"Nothing moved over the 8 runs of the history: no change point.", "series without a change point",
		"The 4 series of ns/op that moved most since their first stored run", "<sub>blue, "} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
	if blocks := reporttest.Charts(t, md); len(blocks) != 1 || strings.Count(blocks[0], "    line [") != maxHeadlines {
		t.Errorf("%d charts, want one of the %d headline series:\n%s", len(blocks), maxHeadlines, md)
	}
	one := h[:1]
	md = Markdown(Update{Line: "Baseline updated.", Candidate: run(one[0]), History: one, Analysis: history.Analyze(one, nil, history.Options{})})
	if !strings.Contains(md, "No change point: no benchmark's metric varied over the 1 run of the history.") {
		t.Errorf("one run:\n%s", md)
	}
}

// countedHistory is 14 pushes of a module's counted benchmarks, an hour
// apart, each run a merged pull request (#101…#114): every count moves
// by 0.03% between runs; the 14th push, the one reported, grows
// BenchmarkMarshal's message (B/msg 41 → 51) and its count (+15%);
// BenchmarkDecode's count creeps by 0.16% a push from the 2nd on, none of
// it a step.
func countedHistory() []baseline.Entry {
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	benches := []string{"BenchmarkMarshal", "BenchmarkUnmarshal", "BenchmarkDecode", "BenchmarkEncodeBatch", "BenchmarkSize"}
	var h []baseline.Entry
	for k := range 14 {
		e := baseline.Entry{Seq: int64(k + 1), Time: t0.Add(time.Duration(k) * time.Hour), Commit: fmt.Sprintf("%07x%033d", 0xc0ffee0+k*0x111, 0),
			RunID: fmt.Sprint(9000 + k), Machine: "runner", CPU: "AMD EPYC 7763", Go: "go1.26.2", PullRequests: []int{101 + k},
			Medians: map[string]map[string]float64{}, Spread: map[string]map[string]float64{}}
		for i, name := range benches {
			key := "example.com/wire " + name
			work := 2000 * float64(i+1) * (1 + 3e-4*reporttest.Jitter(k*7+i))
			size := 41.0 + float64(i)
			switch {
			case name == "BenchmarkMarshal" && k == 13:
				work *= 1.15
				size = 51
			case name == "BenchmarkDecode":
				work *= math.Pow(1.0016, float64(k))
			}
			e.Medians[key] = map[string]float64{results.UnitInstructionsPerOp: v(work), results.UnitBytesPerMsg: size, results.UnitAllocsPerOp: 2}
			e.Spread[key] = map[string]float64{results.UnitInstructionsPerOp: 3e-4, results.UnitAllocsPerOp: 0}
		}
		h = append(h, e)
	}
	return h
}

// countedUpdateInput is the report of the 14th push of
// countedHistory, creep measured from 20 runs back (the oldest stored).
func countedUpdateInput() Update {
	h := countedHistory()
	o := history.Options{Creep: history.CreepOptions{Limit: 0.02, Runs: 20}}
	return Update{Line: "Baseline updated: baseline/default.json, 5 benchmarks, 14 runs in its history.",
		Candidate: run(h[len(h)-1]), History: h, Analysis: history.Analyze(h, h[:13], o)}
}

// TestMarkdownCounted: a young counted history's push summary
// reports the size's and the count's steps on the push that made them,
// with their pull request, and the creep in a team's words, and draws
// both.
func TestMarkdownCounted(t *testing.T) {
	in := countedUpdateInput()
	a := in.Analysis
	if n := len(a.NewPoints()); n != 2 {
		t.Fatalf("%d new points, want Marshal's size and count: %+v", n, a.Points)
	}
	if a.Creep == nil || len(a.Creep.Found) != 1 || !a.Creep.Found[0].New {
		t.Fatalf("creep %+v, want Decode's, new", a.Creep)
	}
	md := Markdown(in)
	for _, want := range []string{
		"🆕 **2 new change points** on this push (2 unexplained)",
		"| 🆕 | Marshal <sub>example.com/wire</sub> | B/msg | +24.4% | 41 B → 51 B | c100cbd (#114), 2026-12-01 | exact: the value changed | – |",
		"| 🆕 | Marshal <sub>example.com/wire</sub> | instructions/op | +15.0% |",
		"count: the first run after it (p ",
		"Counts (5 series): each run tested as it arrives",
		"#### Creep",
		"🆕 **1 new creep** on this push",
		"> **Decode instructions/op +2.1%** over the last 13 merges, none above the 1% floor; largest: #102 +0.2% (since run 1 (c0ffee0, #101), the oldest stored)",
		"| 🆕 | Decode <sub>example.com/wire</sub> | instructions/op | +2.1% | [+2.0%, +2.2%] | 6.00k → 6.13k | 13 merges | run 1 (c0ffee0, #101), the oldest stored | #102 +0.2% | – |",
		"The 1 count that crept",
		"The 2 series that stepped",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if blocks := reporttest.Charts(t, md); len(blocks) != 3 {
		t.Errorf("%d charts, want the creep's and the two steps'", len(blocks))
	}
	line := CreepLine(a.Creep.Found[0], a, in.History)
	if line != "Decode instructions/op +2.1% over the last 13 merges, none above the 1% floor; largest: #102 +0.2% (since run 1 (c0ffee0, #101), the oldest stored)" {
		t.Errorf("creep line %q", line)
	}
}
