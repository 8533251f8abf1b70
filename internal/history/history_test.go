package history

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/results"
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

// counted is a counted history of n runs of two benchmarks, as a module's
// updates store it: "pkg BenchmarkMarshal" with its message's B/msg
// (exact), allocs/op (every process agreed) and instructions/op (0.03%
// noise between runs, the processes' spread recorded), and
// "pkg BenchmarkOther", instructions/op only. From run step on the
// message is 10 bytes bigger and Marshal's count grows by grow;
// creep[i] multiplies Marshal's count from run i on (a sub-floor step
// every run, say).
func counted(n, step int, grow float64, creep []float64) []baseline.Entry {
	rng := rand.New(rand.NewPCG(31, uint64(n)))
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var h []baseline.Entry
	work := 20000.0
	for i := range n {
		size, w := 41.0, work
		if i < len(creep) {
			work *= 1 + creep[i]
			w = work
		}
		if i >= step {
			size, w = 51, w*(1+grow)
		}
		e := baseline.Entry{Seq: int64(i + 1), Time: t0.Add(time.Duration(i) * time.Hour), Commit: fmt.Sprintf("c%02d%037d", i+1, 0), RunID: fmt.Sprint(i + 1),
			CPU: "EPYC", Go: "go1.26.8", PullRequests: []int{100 + i},
			Medians: map[string]map[string]float64{
				"pkg BenchmarkMarshal": {"B/msg": size, "allocs/op": 2, "instructions/op": w * math.Exp(3e-4*rng.NormFloat64())},
				"pkg BenchmarkOther":   {"instructions/op": 5000 * math.Exp(3e-4*rng.NormFloat64())},
			},
			Spread: map[string]map[string]float64{
				"pkg BenchmarkMarshal": {"allocs/op": 0, "instructions/op": 3e-4},
				"pkg BenchmarkOther":   {"instructions/op": 3e-4},
			}}
		h = append(h, e)
	}
	return h
}

// firstSeen replays the pushes of h, from its 2nd run on, and returns
// for each change point (key, unit, run) the run of the push that first
// reported it as new, and for each creep (key, unit) the run of the push
// that first reported it.
func firstSeen(h []baseline.Entry, o Options) (points, creeps map[string]int) {
	points, creeps = map[string]int{}, map[string]int{}
	for n := 2; n <= len(h); n++ {
		a := Analyze(h[:n], h[:n-1], o)
		for _, p := range a.NewPoints() {
			id := fmt.Sprintf("%s %s %d", p.Key, p.Unit, p.Run)
			if _, ok := points[id]; !ok {
				points[id] = n - 1
			}
		}
		if a.Creep != nil {
			for _, c := range a.Creep.Found {
				if _, ok := creeps[c.Key+" "+c.Unit]; !ok && c.New {
					creeps[c.Key+" "+c.Unit] = n - 1
				}
			}
		}
	}
	return points, creeps
}

// TestModels: every series gets the model of its kind, and the family is
// the statistical series that vary.
func TestModels(t *testing.T) {
	h := counted(6, 3, 0.15, nil)
	h[2].Medians["pkg BenchmarkOther"]["ns/op"] = 10
	h[2].Medians["pkg BenchmarkOther"]["allocs/op"] = 1.5
	h[2].Spread["pkg BenchmarkOther"]["allocs/op"] = 0.1
	a := Analyze(h, nil, Options{Creep: CreepOptions{Limit: 0.02}})
	want := map[string]Model{
		"pkg BenchmarkMarshal B/msg":           Exact,
		"pkg BenchmarkMarshal allocs/op":       Exact,
		"pkg BenchmarkMarshal instructions/op": Counted,
		"pkg BenchmarkOther instructions/op":   Counted,
		"pkg BenchmarkOther ns/op":             EDivisive,
		"pkg BenchmarkOther allocs/op":         EDivisive,
	}
	for _, s := range a.Series {
		if m := want[s.Key+" "+s.Unit]; s.Model != m {
			t.Errorf("%s %s: model %q, want %q", s.Key, s.Unit, s.Model, m)
		}
	}
	if a.Varying != 2 || a.CountedTests != 3 || a.CountedLevel != DefaultAlpha/2/3 {
		t.Errorf("%d varying at %v, %d counted tests at %v: want the 2 counts (one run of the others does not vary), 3 tests at alpha/6", a.Varying, a.Level, a.CountedTests, a.CountedLevel)
	}
}

// TestYoungHistory is the history: six pushes, the fourth growing
// a message (B/msg 41 → 51) and its work (+15% at 0.03%): the size step is
// reported by the fourth push, the count's by the fourth or fifth, each
// with its commit and pull request; the same pushes on unchanged code
// report nothing, and neither do steps below the floor.
func TestYoungHistory(t *testing.T) {
	tests := []struct {
		name string
		h    []baseline.Entry
		want map[string]int // change point → the run of the push that first reported it (index)
	}{
		{"a step", counted(6, 3, 0.15, nil), map[string]int{
			"pkg BenchmarkMarshal B/msg 3":           3,
			"pkg BenchmarkMarshal instructions/op 3": 3,
		}},
		{"a step at the floor", counted(6, 3, 0.012, nil), map[string]int{
			"pkg BenchmarkMarshal B/msg 3":           3,
			"pkg BenchmarkMarshal instructions/op 3": 4, // or 3
		}},
		{"unchanged", counted(6, 6, 0, nil), map[string]int{}},
		{"below the floor", counted(6, 3, 0.006, nil)[:6], map[string]int{"pkg BenchmarkMarshal B/msg 3": 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := firstSeen(tt.h, Options{Creep: CreepOptions{Limit: 0.02}})
			if len(got) != len(tt.want) {
				t.Errorf("first reported %v, want %v", got, tt.want)
			}
			for id, by := range tt.want {
				if at, ok := got[id]; !ok || at > by {
					t.Errorf("%s first reported by the push of run %d (%v), want by %d", id, at, ok, by)
				}
			}
			a := Analyze(tt.h, nil, Options{})
			for _, p := range a.Points {
				if p.Run != 3 || p.Commit != tt.h[3].Commit || fmt.Sprint(p.PullRequests) != "[103]" || p.Explained() {
					t.Errorf("point %+v: want at the 4th run, its commit and pull request, unexplained", p)
				}
				if p.Unit == "B/msg" && (p.Model != Exact || p.Before != 41 || p.After != 51 || p.P != 0) {
					t.Errorf("size step %+v", p)
				}
			}
		})
	}
}

// TestExactStepExplained: an exact allocation count that moved when the
// runs measured it in other batch sizes, one each, is explained by them;
// with a batch size in common it is the code's.
func TestExactStepExplained(t *testing.T) {
	for _, tt := range []struct {
		name   string
		before []int64
		want   bool
	}{
		{"no batch size in common", []int64{512}, true},
		{"a batch size in common", []int64{256, 1024}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := counted(5, 5, 0, nil)
			for i := range h {
				h[i].Batches = map[string][]int64{"pkg BenchmarkMarshal": tt.before}
				if i >= 3 {
					h[i].Medians["pkg BenchmarkMarshal"]["allocs/op"] = 3
					h[i].Batches["pkg BenchmarkMarshal"] = []int64{1024}
				}
			}
			a := Analyze(h, h[:4], Options{})
			if len(a.Points) != 1 || a.Points[0].Unit != "allocs/op" || a.Points[0].Run != 3 || a.Points[0].New {
				t.Fatalf("points %+v: want allocs/op at run 3, seen before", a.Points)
			}
			if p := a.Points[0]; p.Explained() != tt.want || tt.want && !strings.Contains(p.Environment[0], "batch size 512 → 1024") {
				t.Errorf("explained %v (%q), want %v", p.Explained(), p.Environment, tt.want)
			}
		})
	}
}

// TestCreep: twelve pushes each adding 0.4% of work, none a change point,
// are a creep by the 8th; an accepted step and a change point are left
// out of it; unchanged code over 30 pushes shows none; a reference only
// a few runs back sees only their part.
func TestCreep(t *testing.T) {
	every := func(n int, step float64) []float64 {
		c := make([]float64, n)
		for i := 1; i < n; i++ {
			c[i] = step
		}
		return c
	}
	t.Run("0.4% a push", func(t *testing.T) {
		h := counted(13, 13, 0, every(13, 0.004))
		points, creeps := firstSeen(h, Options{Creep: CreepOptions{Limit: 0.02, Runs: 20}})
		if len(points) != 0 {
			t.Errorf("change points %v, want none (each step is below the floor)", points)
		}
		at, ok := creeps["pkg BenchmarkMarshal instructions/op"]
		if !ok || at > 8 || len(creeps) != 1 {
			t.Fatalf("creep first reported %v, want Marshal's by the 8th push", creeps)
		}
		t.Logf("creep first reported by the push of run %d (index)", at)
		a := Analyze(h, h[:12], Options{Creep: CreepOptions{Limit: 0.02, Runs: 20}})
		c := a.Creep.Found[0]
		if c.New || c.From != 0 || c.To != 12 || c.Runs != 13 || math.Abs(c.Change-(math.Pow(1.004, 12)-1)) > 0.002 || c.AboveFloor || c.LargestStep < 0.003 || c.LargestStep > 0.005 {
			t.Errorf("creep %+v: want the whole history, +4.9%%, steps of 0.4%%, seen before", c)
		}
		if a.Creep.Tested != 2 || a.Creep.Reference != 0 {
			t.Errorf("tested %d from run %d", a.Creep.Tested, a.Creep.Reference)
		}
		b := Analyze(h, nil, Options{Creep: CreepOptions{Limit: 0.02, Runs: 4}})
		if len(b.Creep.Found) != 0 || b.Creep.Reference != 8 {
			t.Errorf("4 runs back (from run %d): %+v, want no creep (1.6%%)", b.Creep.Reference, b.Creep.Found)
		}
	})
	t.Run("left out", func(t *testing.T) {
		steps := every(13, 0.001)
		steps[5], steps[9] = 0.005, 0.03 // accepted, a change point
		h := counted(13, 13, 0, steps)
		h[5].Accepted = []accept.Acceptance{{Source: "label wirebench:accept", PR: 105}}
		a := Analyze(h, nil, Options{Creep: CreepOptions{Limit: 0.005}})
		if len(a.Points) != 1 || a.Points[0].Run != 9 {
			t.Fatalf("points %+v, want the step at run 9", a.Points)
		}
		if len(a.Creep.Found) != 1 {
			t.Fatalf("creeps %+v, want Marshal's +1%%", a.Creep.Found)
		}
		c := a.Creep.Found[0]
		if len(c.Left) != 2 || c.Left[0].Run != 5 || c.Left[0].Accepted == nil || c.Left[1].Run != 9 || c.Left[1].Accepted != nil {
			t.Errorf("left out %+v, want the accepted run 5 and the change point at 9", c.Left)
		}
		if math.Abs(c.Change-0.01) > 0.002 || math.Abs(c.Total-(1.005*1.03*math.Pow(1.001, 10)-1)) > 0.002 {
			t.Errorf("creep %+.4f of %+.4f in all, want +1%% of the steps left in", c.Change, c.Total)
		}
	})
	t.Run("unchanged", func(t *testing.T) {
		h := counted(30, 30, 0, nil)
		points, creeps := firstSeen(h, Options{Creep: CreepOptions{Limit: 0.02, Runs: 20}})
		if len(points) != 0 || len(creeps) != 0 {
			t.Errorf("points %v, creeps %v, want none", points, creeps)
		}
	})
	t.Run("a release", func(t *testing.T) {
		h := counted(13, 13, 0, every(13, 0.004))
		in := func(commit string) bool { return commit <= h[6].Commit }
		a := Analyze(h, nil, Options{Creep: CreepOptions{Limit: 0.02, Runs: 20, Release: "v1.2.0", InRelease: in}})
		if a.Creep.Reference != 6 || a.Creep.Release != "v1.2.0" || len(a.Creep.Found) != 1 || a.Creep.Found[0].From != 6 {
			t.Errorf("since v1.2.0 (run 6): %+v", a.Creep)
		}
		b := Analyze(h, nil, Options{Creep: CreepOptions{Limit: 0.02, Release: "v0.9.0", InRelease: func(string) bool { return false }}})
		if b.Creep.Reference != 0 || b.Creep.Release != "" || !strings.Contains(b.Creep.Note, "v0.9.0") {
			t.Errorf("a release older than the history: %+v", b.Creep)
		}
	})
	t.Run("the environment changed", func(t *testing.T) {
		h := counted(13, 13, 0, every(13, 0.004))
		for i := 7; i < 13; i++ {
			h[i].Go = "go1.27.0"
		}
		a := Analyze(h, nil, Options{Creep: CreepOptions{Limit: 0.02}})
		if len(a.Creep.Found) != 0 {
			t.Errorf("creeps %+v, want none: since Go changed, 6 runs of 0.4%%", a.Creep.Found)
		}
	})
}

// TestCountedDifferently: a count's step between runs counted otherwise
// (the heap kept dirty from the fourth run on) is explained by it, and
// so is a step on a new Go version; neither fails a push.
func TestCountedDifferently(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(e *baseline.Entry)
		want string
	}{
		{"the counter's heap", func(e *baseline.Entry) { e.Counter.Heap = "dirty" }, "counted differently: heap: not recorded → dirty"},
		{"Go", func(e *baseline.Entry) { e.Go = "go1.27.0" }, "Go go1.26.8 → go1.27.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := counted(6, 3, 0.03, nil)
			for i := range h {
				h[i].Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}
				if i >= 3 {
					tt.edit(&h[i])
				}
			}
			a := Analyze(h, h[:5], Options{})
			var found bool
			for _, p := range a.Points {
				if p.Unit != "instructions/op" {
					continue
				}
				found = true
				if !p.Explained() || len(p.Environment) != 1 || p.Environment[0] != tt.want {
					t.Errorf("point %+v: want explained by %q", p, tt.want)
				}
			}
			if !found {
				t.Fatalf("no step of the count: %+v", a.Points)
			}
		})
	}
}

// TestTimingsFamily: a timed history's family is its timings that vary; a
// size that stepped is found as an exact step and takes no share of
// alpha, so the timings' level is what it was without it (E-divisive's
// figures in docs/lab/change-points.md hold).
func TestTimingsFamily(t *testing.T) {
	h := synthetic(30, 20, nil, "")
	for i := 25; i < 30; i++ {
		h[i].Medians["B"]["B/msg"] = 30
	}
	a := Analyze(h, nil, Options{})
	if a.Varying != 2 || a.Level != DefaultAlpha/2 {
		t.Errorf("%d varying at level %v, want the 2 timings at alpha/2", a.Varying, a.Level)
	}
	var models []Model
	for _, p := range a.Points {
		models = append(models, p.Model)
	}
	if fmt.Sprint(models) != "[e-divisive exact]" {
		t.Errorf("points by %v, want A's step by E-divisive and B's by the exact model", models)
	}
}
