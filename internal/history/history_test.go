package history

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
)

// synthetic is a history of n runs: "A" ns/op with 3% noise that steps by
// +30% at run step, "B" B/msg constant at 26, "C" ns/op noise only; the
// run at step records what accepted (may be nil) and cpu from step on.
func synthetic(n, step int, accepted []accept.Acceptance, cpu string) []baseline.Entry {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var h []baseline.Entry
	for i := range n {
		a := 1000 * (1 + 0.03*rng.NormFloat64())
		if i >= step {
			a *= 1.3
		}
		e := baseline.Entry{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Hour), Commit: strings.Repeat(string(rune('a'+i%6)), 40), RunID: string(rune('A' + i)),
			CPU: "EPYC", Go: "go1.26.8",
			Medians: map[string]map[string]float64{
				"A": {"ns/op": a},
				"B": {"B/msg": 26},
				"C": {"ns/op": 500 * (1 + 0.03*rng.NormFloat64())},
			}}
		if i == step {
			e.Accepted = accepted
		}
		if i >= step && cpu != "" {
			e.CPU = cpu
		}
		h = append(h, e)
	}
	return h
}

func TestAnalyze(t *testing.T) {
	label := []accept.Acceptance{{Source: "label wirebench:accept", PR: 42}}
	other := []accept.Acceptance{{Source: "commit 1234567", Pattern: "^C$"}}
	tests := []struct {
		name        string
		h, previous []baseline.Entry
		wantNew     bool
		wantAccept  bool
		wantEnv     bool
	}{
		{"first seen on this push", synthetic(30, 20, nil, ""), synthetic(30, 20, nil, "")[:21], true, false, false},
		{"seen before", synthetic(30, 20, nil, ""), synthetic(30, 20, nil, "")[:29], false, false, false},
		{"accepted by the merge", synthetic(30, 20, label, ""), nil, false, true, false},
		{"an acceptance of another benchmark", synthetic(30, 20, other, ""), nil, false, false, false},
		{"the CPU changed", synthetic(30, 20, nil, "Xeon"), nil, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Analyze(tt.h, tt.previous, Options{})
			if a.Varying != 2 || a.Level != DefaultAlpha/2 {
				t.Errorf("%d varying series at level %v, want A and C at %v (B is constant)", a.Varying, a.Level, DefaultAlpha/2)
			}
			if len(a.Points) != 1 {
				t.Fatalf("points %+v, want the step of A", a.Points)
			}
			p := a.Points[0]
			if p.Key != "A" || p.Unit != "ns/op" || p.Run != 20 || p.Commit != tt.h[20].Commit || !p.Time.Equal(tt.h[20].Time) {
				t.Errorf("point %+v, want A ns/op at run 20", p)
			}
			if p.Step < 0.2 || p.Step > 0.4 || p.P > a.Level {
				t.Errorf("step %+.3f p %v, want about +30%% below %v", p.Step, p.P, a.Level)
			}
			if p.New != tt.wantNew || (p.Accepted != nil) != tt.wantAccept || (len(p.Environment) > 0) != tt.wantEnv {
				t.Errorf("new %v accepted %+v environment %q; want %v, %v, %v", p.New, p.Accepted, p.Environment, tt.wantNew, tt.wantAccept, tt.wantEnv)
			}
			if p.Explained() != (tt.wantAccept || tt.wantEnv) {
				t.Errorf("explained %v", p.Explained())
			}
			if tt.wantEnv && p.Environment[0] != "CPU EPYC → Xeon" {
				t.Errorf("environment %q", p.Environment)
			}
		})
	}
}

// TestAnalyzeDeterministic: the same history gives the same points, and
// a series' points do not depend on the other series.
func TestAnalyzeDeterministic(t *testing.T) {
	h := synthetic(40, 25, nil, "")
	a, b := Analyze(h, nil, Options{Seed: 3}), Analyze(h, nil, Options{Seed: 3})
	if len(a.Points) != len(b.Points) || len(a.Points) == 0 || a.Points[0].Run != b.Points[0].Run || a.Points[0].P != b.Points[0].P {
		t.Errorf("two analyses of one history differ: %+v, %+v", a.Points, b.Points)
	}
}

func TestSeriesOf(t *testing.T) {
	h := []baseline.Entry{
		{Medians: map[string]map[string]float64{"x": {"ns/op": 1, "B/op": 8}}},
		{Medians: map[string]map[string]float64{"y": {"ns/op": 2}}},
		{Medians: map[string]map[string]float64{"x": {"ns/op": 3}}},
	}
	s := SeriesOf(h)
	if len(s) != 3 || s[0].Key != "x" || s[0].Unit != "B/op" || s[1].Unit != "ns/op" || len(s[1].Runs) != 2 || s[1].Runs[1] != 2 || s[1].Values[1] != 3 || s[2].Key != "y" {
		t.Errorf("series %+v", s)
	}
	if s[0].Varies() || !s[1].Varies() {
		t.Errorf("varies: %v %v", s[0].Varies(), s[1].Varies())
	}
}
