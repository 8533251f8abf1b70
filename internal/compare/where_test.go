package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// profile is a profile of the functions and costs (instructions/op)
// fns names, "name=cost" each; with omitted > 0, that many more
// functions were left out, costing rest together and most at most.
func profile(omitted int, rest, most float64, fns ...string) *results.Profile {
	p := &results.Profile{}
	for _, f := range fns {
		name, cost, _ := strings.Cut(f, "=")
		var x float64
		fmt.Sscan(cost, &x)
		p.Functions = append(p.Functions, results.Function{Name: name, Cost: results.Cost{Instructions: x, EstCycles: 2 * x}})
	}
	if omitted > 0 {
		p.Omitted, p.Rest, p.Most = omitted, &results.Cost{Instructions: rest, EstCycles: 2 * rest}, &results.Cost{Instructions: most, EstCycles: 2 * most}
	}
	return p
}

// TestLocate: the functions that moved most, by at least MinWhere of the
// change and at most MaxWhere of them, each with its share; functions
// only one side names are new or gone when the other side names every
// function, and bounded by what it left out otherwise.
func TestLocate(t *testing.T) {
	tests := []struct {
		name       string
		base, cand *results.Profile
		unit       string
		change     float64
		want       string // "name base→cand delta share flags", "; " between functions
		explained  float64
	}{
		{"one helper grew",
			profile(0, 0, 0, "enc=100", "checksum=50", "malloc=30"),
			profile(0, 0, 0, "checksum=200", "enc=100", "malloc=30.5"),
			results.UnitInstructionsPerOp, 150.5,
			"checksum 50→200 +150 100%", 150 / 150.5},
		{"est-cycles",
			profile(0, 0, 0, "enc=100", "checksum=50"),
			profile(0, 0, 0, "checksum=200", "enc=100"),
			results.UnitEstCyclesPerOp, 300,
			"checksum 100→400 +300 100%", 1},
		{"a function appears, another is gone, one shrinks",
			profile(0, 0, 0, "enc=100", "old=20", "malloc=30"),
			profile(0, 0, 0, "enc=100", "new=60", "malloc=20"),
			results.UnitInstructionsPerOp, 30,
			"new 0→60 +60 200% appeared; old 20→0 -20 -67% disappeared; malloc 30→20 -10 -33%", 1},
		{"bounded by what the baseline left out",
			profile(40, 80, 5, "enc=100"),
			profile(0, 0, 0, "enc=100", "grown=45", "small=4"),
			results.UnitInstructionsPerOp, 40,
			"grown ≤5→45 +40 100%", 1},
		{"bounded by what the candidate left out",
			profile(0, 0, 0, "enc=100", "shrunk=45", "small=4"),
			profile(40, 80, 5, "enc=100"),
			results.UnitInstructionsPerOp, -40,
			"shrunk 45→≤5 -40 100%", 1},
		{"at most MaxWhere, largest first",
			profile(0, 0, 0, "a=10", "b=10", "c=10", "d=10", "e=10", "f=10", "g=10"),
			profile(0, 0, 0, "a=11", "b=20", "c=30", "d=40", "e=50", "f=60", "g=70"),
			results.UnitInstructionsPerOp, 211,
			"g 10→70 +60 28%; f 10→60 +50 24%; e 10→50 +40 19%; d 10→40 +30 14%; c 10→30 +20 9%", 200.0 / 211},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Locate(tt.base, tt.cand, tt.unit, tt.change)
			if w == nil {
				t.Fatal("no Where")
			}
			var got []string
			for _, m := range w.Functions {
				s := fmt.Sprintf("%s %s→%s %+g %.0f%%", m.Name, atMost(m.Base, m.BaseAtMost), atMost(m.Candidate, m.CandidateAtMost), m.Delta, 100*m.Share)
				if m.Appeared {
					s += " appeared"
				}
				if m.Disappeared {
					s += " disappeared"
				}
				got = append(got, s)
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("functions\n %s\nwant\n %s", g, tt.want)
			}
			if math.Abs(w.Explained-tt.explained) > 1e-9 {
				t.Errorf("explained %v, want %v", w.Explained, tt.explained)
			}
		})
	}
	if Locate(nil, profile(0, 0, 0, "a=1"), results.UnitInstructionsPerOp, 1) != nil || Locate(profile(0, 0, 0, "a=1"), profile(0, 0, 0, "a=2"), results.UnitInstructionsPerOp, 0) != nil {
		t.Error("a Where without a profile, or of no change")
	}
}

func atMost(x float64, bounded bool) string {
	if bounded {
		return fmt.Sprintf("≤%g", x)
	}
	return fmt.Sprintf("%g", x)
}

// TestCompareWhere: Compare says where every counted regression and
// improvement went, from the runs' profiles, and nothing for what did
// not change.
func TestCompareWhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	levels, m := names(10), names(10)
	base := counts(rng, callgrind319, 5, 64, 0.0005, m)
	m["BenchmarkX/a"] *= 1.1
	m["BenchmarkX/b"] *= 0.9
	cand := counts(rng, callgrind319, 5, 64, 0.0005, m)
	for _, r := range []*results.Results{base, cand} {
		for i := range r.Benchmarks {
			// The encoder's own work is the same on both sides; its
			// helper does the rest, and all of the change.
			b := &r.Benchmarks[i]
			enc := 0.6 * levels[b.Name]
			med := Summarize(b.Metric(results.UnitInstructionsPerOp)).Median
			b.Profile = profile(0, 0, 0, fmt.Sprintf("enc=%g", enc), fmt.Sprintf("helper=%g", med-enc))
		}
	}
	res, err := Compare(base, cand, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Comparisons {
		switch {
		case c.Unit != results.UnitInstructionsPerOp:
			if c.Where != nil {
				t.Errorf("%s %s: a Where", c.Name, c.Unit)
			}
		case c.Name == "BenchmarkX/a" || c.Name == "BenchmarkX/b":
			if c.Verdict != Regression && c.Verdict != Improvement {
				t.Fatalf("%s: %s", c.Name, c.Verdict)
			}
			if c.Where == nil || len(c.Where.Functions) != 1 || c.Where.Functions[0].Name != "helper" || math.Abs(c.Where.Explained-1) > 0.01 {
				t.Errorf("%s: where %+v, want the helper, all of it", c.Name, c.Where)
			}
		case c.Where != nil:
			t.Errorf("%s (%s): a Where", c.Name, c.Verdict)
		}
	}
}

// TestLocateVerdicts: a Where for counted regressions and improvements,
// and for inconclusive counts whose estimate lies beyond the threshold;
// none for an inconclusive count within it, an unchanged one or a
// timing.
func TestLocateVerdicts(t *testing.T) {
	p := func(x float64) *results.Profile {
		return profile(0, 0, 0, "enc=100", fmt.Sprintf("helper=%g", x))
	}
	base, cand := results.New("s", results.Env{}), results.New("s", results.Env{})
	tests := []struct {
		name    string
		unit    string
		verdict Verdict
		ratio   float64
		want    bool
	}{
		{"BenchmarkReg", results.UnitInstructionsPerOp, Regression, 1.1, true},
		{"BenchmarkImp", results.UnitEstCyclesPerOp, Improvement, 0.9, true},
		{"BenchmarkUnsure", results.UnitInstructionsPerOp, Inconclusive, 1.02, true},
		{"BenchmarkUnsureSmall", results.UnitInstructionsPerOp, Inconclusive, 1.005, false},
		{"BenchmarkSame", results.UnitInstructionsPerOp, Unchanged, 1.001, false},
		{"BenchmarkTime", results.UnitNsPerOp, Regression, 1.2, false},
	}
	r := &Result{Options: Defaults()}
	r.Options.Threshold = 0.01
	for _, tt := range tests {
		base.Benchmarks = append(base.Benchmarks, results.Benchmark{Name: tt.name, Profile: p(100)})
		cand.Benchmarks = append(cand.Benchmarks, results.Benchmark{Name: tt.name, Profile: p(100 + 200*(tt.ratio-1))})
		r.Comparisons = append(r.Comparisons, Comparison{Name: tt.name, Unit: tt.unit, Verdict: tt.verdict, Ratio: tt.ratio,
			Baseline: Summary{Median: 200}, Candidate: Summary{Median: 200 * tt.ratio}})
	}
	r.locate(base, cand)
	for i, tt := range tests {
		if got := r.Comparisons[i].Where != nil; got != tt.want {
			t.Errorf("%s (%s, %s): a Where %v, want %v", tt.name, tt.unit, tt.verdict, got, tt.want)
		}
	}
}

// TestLocateUnprofiledBase: a baseline without profiles (stored before
// them) is said, not a change without functions.
func TestLocateUnprofiledBase(t *testing.T) {
	base, cand := results.New("s", results.Env{}), results.New("s", results.Env{})
	base.Benchmarks = []results.Benchmark{{Name: "BenchmarkX"}}
	cand.Benchmarks = []results.Benchmark{{Name: "BenchmarkX", Profile: profile(0, 0, 0, "f=110")}}
	r := &Result{Options: Defaults(), Comparisons: []Comparison{{Name: "BenchmarkX", Unit: results.UnitInstructionsPerOp, Verdict: Regression,
		Ratio: 1.1, Baseline: Summary{Median: 100}, Candidate: Summary{Median: 110}}}}
	r.locate(base, cand)
	if r.Comparisons[0].Where != nil || !r.UnprofiledBase {
		t.Errorf("where %+v, unprofiled base %v", r.Comparisons[0].Where, r.UnprofiledBase)
	}
}
