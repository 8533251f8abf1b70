package compare

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// run builds results with one noisy benchmark per entry of medians (ns/op
// samples drawn around the median with relative noise), plus exact B/msg
// and allocs/op.
func run(rng *rand.Rand, machine string, n int, noise float64, medians map[string]float64, sizes map[string]float64) *results.Results {
	r := results.New("default", results.Env{Machine: machine, CPU: "cpu-" + machine, GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2})
	// In name order: a map's order is random, and the seeded rng must be
	// consumed in the same order every time for the draws to repeat.
	for _, name := range slices.Sorted(maps.Keys(medians)) {
		m := medians[name]
		b := results.Benchmark{Name: name}
		for range n {
			b.Add(results.UnitNsPerOp, m*math.Exp(noise*rng.NormFloat64()))
			b.Add(results.UnitAllocsPerOp, 3)
		}
		if s, ok := sizes[name]; ok {
			b.Add(results.UnitBytesPerMsg, s)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	r.Sort()
	return r
}

func names(k int) map[string]float64 {
	m := map[string]float64{}
	for i := range k {
		m["BenchmarkX/"+string(rune('a'+i%26))+strings.Repeat("z", i/26)] = 100 + float64(i)
	}
	return m
}

func find(t *testing.T, r *Result, name, unit string) Comparison {
	t.Helper()
	for _, c := range r.Comparisons {
		if c.Name == name && c.Unit == unit {
			return c
		}
	}
	t.Fatalf("no comparison %s %s", name, unit)
	return Comparison{}
}

// TestShiftDetected: a 10% slowdown with 2% noise and 10 samples a side is
// a regression with adjusted p below 0.01; a 1% one is not.
func TestShiftDetected(t *testing.T) {
	tests := []struct {
		shift float64
		want  Verdict
	}{
		{1.10, Regression},
		{0.90, Improvement},
		{1.01, Unchanged},
	}
	for _, tt := range tests {
		rng := rand.New(rand.NewPCG(1, 2))
		med := names(40)
		base := run(rng, "m1", 10, 0.02, med, nil)
		cm := map[string]float64{}
		for k, v := range med {
			cm[k] = v
		}
		cm["BenchmarkX/a"] *= tt.shift
		cand := run(rng, "m1", 10, 0.02, cm, nil)
		res, err := Compare(base, cand, Defaults())
		if err != nil {
			t.Fatal(err)
		}
		c := find(t, res, "BenchmarkX/a", results.UnitNsPerOp)
		if tt.want == Unchanged {
			if c.Verdict == Regression || c.Verdict == Improvement {
				t.Errorf("shift %v: verdict %s, want not a regression (ratio %.3f, p_adj %.3g)", tt.shift, c.Verdict, c.Ratio, c.PAdjusted)
			}
			continue
		}
		if c.Verdict != tt.want || !(c.PAdjusted < 0.01) {
			t.Errorf("shift %v: verdict %s p_adj %.3g ratio %.3f, want %s with p_adj < 0.01", tt.shift, c.Verdict, c.PAdjusted, c.Ratio, tt.want)
		}
		if c.Lo > tt.shift || c.Hi < tt.shift {
			t.Errorf("shift %v outside the interval [%.3f, %.3f]", tt.shift, c.Lo, c.Hi)
		}
		if res.Shift == nil || res.Shift.Applied {
			t.Errorf("same machine: shift %+v, want computed and not applied", res.Shift)
		}
	}
}

// TestAAFalseAlarms: identical distributions, many trials of a
// 40-comparison suite: the test of the samples reports a regression in at
// most 1% of trials. (Without a history these timings are reported, not
// enforced: the samples of one process are all it tests here, and here
// the world has no noise between processes; TestHistoryAAFalseAlarms has.)
func TestAAFalseAlarms(t *testing.T) {
	trials := 400
	if testing.Short() {
		trials = 100
	}
	rng := rand.New(rand.NewPCG(7, 7))
	med := names(40)
	flagged := 0
	for range trials {
		res, err := Compare(run(rng, "m1", 10, 0.03, med, nil), run(rng, "m1", 10, 0.03, med, nil), Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if res.Count(Regression) > 0 {
			flagged++
		}
	}
	rate := float64(flagged) / float64(trials)
	t.Logf("A/A: %d of %d trials of 40 comparisons flagged a regression (%.2f%%)", flagged, trials, 100*rate)
	if rate > 0.01 {
		t.Errorf("false-alarm rate %.2f%% exceeds 1%%", 100*rate)
	}
}

// TestMachineShiftNormalised: the candidate ran on a machine 20% slower,
// and one benchmark is really 15% slower beyond that: only it regresses.
func TestMachineShiftNormalised(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	med := names(30)
	base := run(rng, "m1", 15, 0.02, med, nil)
	cm := map[string]float64{}
	for k, v := range med {
		cm[k] = v * 1.2
	}
	cm["BenchmarkX/b"] *= 1.15
	cand := run(rng, "m2", 15, 0.02, cm, nil)
	res, err := Compare(base, cand, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if res.Shift == nil || !res.Shift.Applied || math.Abs(res.Shift.Estimate-1.2) > 0.03 {
		t.Fatalf("shift %+v, want applied ≈1.20", res.Shift)
	}
	if !strings.Contains(res.Shift.Reason, "different machines") {
		t.Errorf("reason %q does not say the machines differ", res.Shift.Reason)
	}
	regs := res.Regressions()
	if len(regs) != 1 || regs[0].Name != "BenchmarkX/b" {
		t.Errorf("regressions %v, want only BenchmarkX/b", regs)
	}
	if c := find(t, res, "BenchmarkX/b", results.UnitNsPerOp); math.Abs(c.RawRatio-1.38) > 0.05 || !c.Normalized {
		t.Errorf("raw ratio %.3f normalized %v, want ≈1.38 and normalized", c.RawRatio, c.Normalized)
	}

	// Without normalisation every benchmark regresses.
	o := Defaults()
	o.Normalize = NormalizeNever
	res, err = Compare(base, cand, o)
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Count(Regression); n != 30 {
		t.Errorf("unnormalised: %d regressions, want 30", n)
	}
}

func TestExactMetrics(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	med := map[string]float64{"BenchmarkS/a": 100, "BenchmarkS/b": 100, "BenchmarkS/c": 100}
	base := run(rng, "m1", 10, 0.02, med, map[string]float64{"BenchmarkS/a": 26, "BenchmarkS/b": 127, "BenchmarkS/c": 500})
	cand := run(rng, "m1", 10, 0.02, med, map[string]float64{"BenchmarkS/a": 27, "BenchmarkS/b": 120, "BenchmarkS/c": 500})
	cand.Lookup("BenchmarkS/c").Metrics[1].Values = []float64{4, 4, 4, 4, 4, 4, 4, 4, 4, 4} // allocs 3 -> 4
	res, err := Compare(base, cand, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, unit string
		want       Verdict
	}{
		{"BenchmarkS/a", results.UnitBytesPerMsg, Regression},
		{"BenchmarkS/b", results.UnitBytesPerMsg, Improvement},
		{"BenchmarkS/c", results.UnitBytesPerMsg, Unchanged},
		{"BenchmarkS/c", results.UnitAllocsPerOp, Regression},
		{"BenchmarkS/a", results.UnitAllocsPerOp, Unchanged},
	}
	for _, tt := range tests {
		c := find(t, res, tt.name, tt.unit)
		if c.Kind != Exact || c.Verdict != tt.want {
			t.Errorf("%s %s: kind %s verdict %s, want exact %s", tt.name, tt.unit, c.Kind, c.Verdict, tt.want)
		}
		if !math.IsNaN(c.P) {
			t.Errorf("%s %s: exact metric has p-value %v", tt.name, tt.unit, c.P)
		}
	}
	// A 1% size threshold forgives the one extra byte of 26 (3.8%)? No: it
	// exceeds 1%. A 5% threshold does.
	o := Defaults()
	o.SizeThreshold = 0.05
	res, _ = Compare(base, cand, o)
	if c := find(t, res, "BenchmarkS/a", results.UnitBytesPerMsg); c.Verdict != Unchanged {
		t.Errorf("with a 5%% size threshold, +1 byte of 26 is %s, want unchanged", c.Verdict)
	}
}

func TestMissingNewAndMismatch(t *testing.T) {
	base := results.New("default", results.Env{})
	base.Benchmarks = []results.Benchmark{
		{Name: "BenchmarkA", Metrics: []results.Metric{{Unit: "ns/op", Values: []float64{1, 2, 3}}}},
		{Name: "BenchmarkGone", Metrics: []results.Metric{{Unit: "ns/op", Values: []float64{1, 2, 3}}}},
		{Name: "BenchmarkU", Metrics: []results.Metric{{Unit: "ns/op", Values: []float64{1, 2, 3}}}},
	}
	cand := results.New("default", results.Env{})
	cand.Benchmarks = []results.Benchmark{
		{Name: "BenchmarkA", Metrics: []results.Metric{{Unit: "ns/op", Values: []float64{1, 2, 3}}}},
		{Name: "BenchmarkNew", Metrics: []results.Metric{{Unit: "ns/op", Values: []float64{1, 2, 3}}}},
		{Name: "BenchmarkU", Metrics: []results.Metric{{Unit: "sec/op", Values: []float64{1, 2, 3}}}},
	}
	res, err := Compare(base, cand, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Missing, ",") != "BenchmarkGone" || strings.Join(res.New, ",") != "BenchmarkNew" || strings.Join(res.UnitMismatch, ",") != "BenchmarkU" {
		t.Errorf("missing %v new %v mismatch %v", res.Missing, res.New, res.UnitMismatch)
	}
}

func TestBadInput(t *testing.T) {
	one := func(name string, vals ...float64) *results.Results {
		r := results.New("default", results.Env{})
		r.Benchmarks = []results.Benchmark{{Name: name, Metrics: []results.Metric{{Unit: "ns/op", Values: vals}}}}
		return r
	}
	tests := []struct {
		name       string
		base, cand *results.Results
		want       string
	}{
		{"nothing in common", one("BenchmarkA", 1, 2), one("BenchmarkB", 1, 2), "no benchmark in common"},
		{"one sample", one("BenchmarkA", 1), one("BenchmarkA", 2), "fewer than 2 samples"},
		{"other suite", func() *results.Results { r := one("BenchmarkA", 1, 2); r.Suite = "other"; return r }(), one("BenchmarkA", 1, 2), "suite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compare(tt.base, tt.cand, Defaults())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := Compare(one("BenchmarkA", 1, 2), one("BenchmarkA", 1, 2), Options{}); err == nil {
		t.Error("zero options accepted")
	}
	if !errors.Is(func() error { _, err := Compare(one("BenchmarkA", 1), one("BenchmarkB", 1), Defaults()); return err }(), ErrNothingToCompare) {
		t.Error("ErrNothingToCompare not wrapped")
	}
}

func TestZerosAndEqualSamples(t *testing.T) {
	mk := func(vals ...float64) *results.Results {
		r := results.New("default", results.Env{})
		r.Benchmarks = []results.Benchmark{{Name: "BenchmarkA", Metrics: []results.Metric{
			{Unit: "ns/op", Values: []float64{5, 5, 5, 5, 5}},
			{Unit: "B/op", Values: vals},
		}}}
		return r
	}
	res, err := Compare(mk(0, 0, 8, 0, 0), mk(0, 8, 0, 0, 0), Defaults())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Comparisons {
		if c.Verdict == Regression {
			t.Errorf("%s %s: regression from identical or zero-heavy samples: %+v", c.Name, c.Unit, c)
		}
	}
	if c := find(t, res, "BenchmarkA", "ns/op"); c.Verdict != Unchanged || c.P != 1 {
		t.Errorf("all-equal timings: %+v, want unchanged with p=1", c)
	}
}

// TestPerShardNormalisation: a candidate merged from two shards that ran
// on machines 10% and 30% slower than the baseline's; one benchmark is
// really 15% slower. Per-shard shifts flag only it; one global shift would
// flag the 30% shard's benchmarks and miss nothing else.
func TestPerShardNormalisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	med := names(40)
	base := run(rng, "m0", 15, 0.02, med, nil)
	cand := results.New("default", results.Env{Machine: "merged"})
	speed := map[int]float64{1: 1.1, 2: 1.3}
	i := 0
	for _, b := range base.Benchmarks {
		shard := 1 + i%2
		i++
		f := speed[shard]
		if b.Name == "BenchmarkX/c" {
			f *= 1.15
		}
		nb := results.Benchmark{Name: b.Name, Shard: shard}
		for range 15 {
			nb.Add(results.UnitNsPerOp, med[b.Name]*f*math.Exp(0.02*rng.NormFloat64()))
		}
		cand.Benchmarks = append(cand.Benchmarks, nb)
	}
	cand.Shards = []results.ShardRun{{Index: 1, Count: 2, Env: results.Env{Machine: "m1"}}, {Index: 2, Count: 2, Env: results.Env{Machine: "m2"}}}
	res, err := Compare(base, cand, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ShardShifts) != 2 || math.Abs(res.ShardShifts[0].Shift.Estimate-1.1) > 0.03 || math.Abs(res.ShardShifts[1].Shift.Estimate-1.3) > 0.04 {
		t.Fatalf("shard shifts %+v, want ≈1.1 and ≈1.3", res.ShardShifts)
	}
	regs := res.Regressions()
	if len(regs) != 1 || regs[0].Name != "BenchmarkX/c" {
		var got []string
		for _, r := range regs {
			got = append(got, r.Name)
		}
		t.Errorf("regressions %v, want only BenchmarkX/c", got)
	}
	if res.Shift == nil || !res.Shift.Applied || !strings.Contains(res.Shift.Reason, "per shard") {
		t.Errorf("summary shift %+v", res.Shift)
	}
}

// TestSameMachineShiftNormalised: on the same machine, a run during which
// the machine was 40% slower throughout is judged against that shift (no
// false alarms); a shift within the threshold is left alone.
func TestSameMachineShiftNormalised(t *testing.T) {
	for _, tt := range []struct {
		speed   float64
		applied bool
	}{{1.4, true}, {1.02, false}} {
		rng := rand.New(rand.NewPCG(21, 22))
		med := names(30)
		base := run(rng, "m1", 15, 0.02, med, nil)
		cm := map[string]float64{}
		for k, v := range med {
			cm[k] = v * tt.speed
		}
		res, err := Compare(base, run(rng, "m1", 15, 0.02, cm, nil), Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if res.Shift.Applied != tt.applied {
			t.Errorf("speed %v: shift applied %v, want %v (%s)", tt.speed, res.Shift.Applied, tt.applied, res.Shift.Reason)
		}
		if n := res.Count(Regression); n != 0 {
			t.Errorf("speed %v: %d regressions on an unchanged suite", tt.speed, n)
		}
	}
}

// TestPackages: benchmarks of one name in two packages are two; a run of
// one package compares with a run that names none by name alone.
func TestPackages(t *testing.T) {
	mk := func(pkgs ...string) *results.Results {
		r := results.New("", results.Env{Machine: "m"})
		for i, p := range pkgs {
			b := results.Benchmark{Pkg: p, Name: "BenchmarkMarshal"}
			for k := range 10 {
				b.Add(results.UnitNsPerOp, float64(100*(i+1)+k%3))
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		return r
	}
	res, err := Compare(mk("example.com/a", "example.com/b"), mk("example.com/a", "example.com/b"), Defaults())
	if err != nil || len(res.Comparisons) != 2 || res.Comparisons[0].Name == res.Comparisons[1].Name {
		t.Fatalf("two packages: %v, %+v", err, res)
	}
	res, err = Compare(mk(""), mk("example.com/a"), Defaults())
	if err != nil || len(res.Comparisons) != 1 || len(res.New)+len(res.Missing) != 0 {
		t.Errorf("one package against none: %v, %+v", err, res)
	}
	if _, err := Compare(mk("example.com/a"), mk("example.com/b"), Defaults()); err == nil {
		t.Error("two different packages compared as one")
	}
}
