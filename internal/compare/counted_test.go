package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// counts builds a counted run: per benchmark, one instructions/op value
// per process around its count with relative noise, every process in
// blocks of iters iterations, counted by counter.
func counts(rng *rand.Rand, counter results.Counter, procs int, iters int64, noise float64, medians map[string]float64) *results.Results {
	r := results.New("default", results.Env{Machine: "m", GOOS: "linux", GOARCH: "amd64"})
	r.Settings.Counter = &counter
	for _, name := range sortedKeys(medians) {
		b := results.Benchmark{Name: name}
		for range procs {
			b.Iterations = append(b.Iterations, iters)
			b.Add(results.UnitInstructionsPerOp, math.Round(medians[name]*math.Exp(noise*rng.NormFloat64())))
			b.Add(results.UnitAllocsPerOp, 2)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	return r
}

func sortedKeys(m map[string]float64) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

var callgrind319 = results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}

// TestCounted: counted metrics are tested by Welch's t on the processes
// and gate only when counted alike, in enough processes.
func TestCounted(t *testing.T) {
	const target = "BenchmarkX/a"
	other := callgrind319
	other.Version = "3.24.0"
	dirty := callgrind319
	dirty.Heap = "dirty"
	cycles := callgrind319
	cycles.CacheSim, cycles.Geometry = true, "I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64"
	tests := []struct {
		name                 string
		baseCounter, counter results.Counter
		procs                int
		baseIters, iters     int64
		noise, change        float64
		countedUnit          string
		want                 Verdict
		notEnforced          string // a part of Comparison.NotEnforced, "" for enforced
	}{
		{"2% in 5+5 processes at 0.1%", callgrind319, callgrind319, 5, 64, 64, 0.001, 1.02, "", Regression, ""},
		{"the same code", callgrind319, callgrind319, 5, 64, 64, 0.001, 1, "", Unchanged, ""},
		{"0.5% is below the floor", callgrind319, callgrind319, 5, 64, 64, 0.0005, 1.005, "", Unchanged, ""},
		{"another valgrind", callgrind319, other, 5, 64, 64, 0.001, 1.02, "", Regression, "valgrind: 3.19.0 → 3.24.0"},
		{"a baseline counted on a heap not recorded", callgrind319, dirty, 5, 64, 64, 0.001, 1.02, "", Regression, "heap: not recorded → dirty"},
		{"both on a dirty heap", dirty, dirty, 5, 64, 64, 0.001, 1.02, "", Regression, ""},
		{"other block sizes", callgrind319, callgrind319, 5, 64, 128, 0.001, 1.02, "", Regression, "blocks of 128 iterations"},
		{"two processes a side", callgrind319, callgrind319, 2, 64, 64, 0.0001, 1.02, "", Regression, "at least 3 a side"},
		{"gating on cycles", cycles, cycles, 5, 64, 64, 0.001, 1.02, results.UnitEstCyclesPerOp, Regression, "reported beside est-cycles/op"},
		{"every process the same", callgrind319, callgrind319, 5, 64, 64, 0, 1.02, "", Regression, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			base := counts(rng, tt.baseCounter, tt.procs, tt.baseIters, tt.noise, names(20))
			m := names(20)
			m[target] *= tt.change
			cand := counts(rng, tt.counter, tt.procs, tt.iters, tt.noise, m)
			opts := Defaults()
			opts.Threshold, opts.CountedUnit = 0.01, tt.countedUnit
			res, err := Compare(base, cand, opts)
			if err != nil {
				t.Fatal(err)
			}
			c := find(t, res, target, results.UnitInstructionsPerOp)
			if c.Test != TestWelch {
				t.Errorf("test %q, want %q", c.Test, TestWelch)
			}
			if c.Verdict != tt.want {
				t.Errorf("verdict %s (ratio %.4f [%.4f, %.4f], p adj. %.3g), want %s", c.Verdict, c.Ratio, c.Lo, c.Hi, c.PAdjusted, tt.want)
			}
			if tt.notEnforced == "" && c.NotEnforced != "" || !strings.Contains(c.NotEnforced, tt.notEnforced) {
				t.Errorf("not enforced: %q, want %q", c.NotEnforced, tt.notEnforced)
			}
			if got := res.Failed(FailOnRegression); got != (tt.want == Regression && tt.notEnforced == "") {
				t.Errorf("the run fails: %v", got)
			}
			// Nothing else changed, and nothing else may say so.
			for _, o := range res.Comparisons {
				if o.Name != target && (o.Verdict == Regression || o.Verdict == Improvement) {
					t.Errorf("%s %s: %s", o.Name, o.Unit, o.Verdict)
				}
			}
		})
	}
}

// TestCountedAAFalseAlarms: over many unchanged counted runs of 40
// benchmarks in 5+5 processes, with spreads like the suite's (0.05% to
// 0.5%), the share of runs with any regression stays below alpha.
func TestCountedAAFalseAlarms(t *testing.T) {
	trials := 200
	if testing.Short() {
		trials = 20
	}
	rng := rand.New(rand.NewPCG(7, 8))
	alarms := 0
	for range trials {
		base := results.New("default", results.Env{})
		cand := results.New("default", results.Env{})
		base.Settings.Counter, cand.Settings.Counter = &callgrind319, &callgrind319
		for i := range 40 {
			noise := 0.0005 * math.Pow(10, float64(i%4)/3) // 0.05% to 0.5%
			for _, r := range []*results.Results{base, cand} {
				b := results.Benchmark{Name: "BenchmarkX/" + string(rune('a'+i%26)) + strings.Repeat("z", i/26)}
				for range 5 {
					b.Iterations = append(b.Iterations, 32)
					b.Add(results.UnitInstructionsPerOp, 1e4*math.Exp(noise*rng.NormFloat64()))
				}
				r.Benchmarks = append(r.Benchmarks, b)
			}
		}
		opts := Defaults()
		opts.Threshold = 0.001 // a floor below the noise: the test alone guards
		res, err := Compare(base, cand, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Count(Regression)+res.Count(Improvement) > 0 {
			alarms++
		}
	}
	if rate := float64(alarms) / float64(trials); rate > 0.02 {
		t.Errorf("%d of %d unchanged runs flagged something (%.1f%%), want about alpha = 1%% at most", alarms, trials, 100*rate)
	}
}

// seededPair builds two counted runs of benchmarks whose processes
// share a level per seed (what the seed's inputs add: spread level) and
// have a little noise of their own (own); the head's target benchmark
// counts change times the base's. seeds are the seeds each side's
// samples record, base then head (nil: none recorded).
func seededPair(rng *rand.Rand, procs int, level, own, change float64, baseSeeds, headSeeds []uint64) (base, head *results.Results) {
	base, head = results.New("go test", results.Env{}), results.New("go test", results.Env{})
	base.Settings.Counter, head.Settings.Counter = &callgrind319, &callgrind319
	for i := range 12 {
		name := "BenchmarkX/" + string(rune('a'+i))
		bb, hb := results.Benchmark{Name: name}, results.Benchmark{Name: name}
		for k := range procs {
			lv := level * rng.NormFloat64()
			f := 1.0
			if i == 0 {
				f = change
			}
			bb.Iterations, hb.Iterations = append(bb.Iterations, 64), append(hb.Iterations, 64)
			bb.Add(results.UnitInstructionsPerOp, 5000*math.Exp(lv+own*rng.NormFloat64()))
			hb.Add(results.UnitInstructionsPerOp, f*5000*math.Exp(lv+own*rng.NormFloat64()))
			if baseSeeds != nil {
				bb.Seeds = append(bb.Seeds, baseSeeds[k])
			}
			if headSeeds != nil {
				hb.Seeds = append(hb.Seeds, headSeeds[k])
			}
		}
		base.Benchmarks, head.Benchmarks = append(base.Benchmarks, bb), append(head.Benchmarks, hb)
	}
	return base, head
}

// TestCountedPaired: processes of one seed on both sides are tested pair
// by pair, and a 1% change hidden by a 1% spread of inputs between
// processes is caught; where seeds are missing, repeated or differ
// between the sides, the test falls back to Welch's, which cannot see
// it.
func TestCountedPaired(t *testing.T) {
	seeds := []uint64{11, 12, 13, 14, 15}
	tests := []struct {
		name       string
		base, head []uint64
		wantTest   Test
		want       Verdict
	}{
		{"the same seeds", seeds, seeds, TestPairedT, Regression},
		{"the same seeds in another order", seeds, []uint64{15, 14, 13, 12, 11}, TestPairedT, Regression},
		{"no seeds", nil, nil, TestWelch, Inconclusive},
		{"only the head's", nil, seeds, TestWelch, Inconclusive},
		{"other seeds", seeds, []uint64{21, 22, 23, 24, 25}, TestWelch, Inconclusive},
		{"a seed twice", seeds, []uint64{11, 11, 13, 14, 15}, TestWelch, Inconclusive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 3))
			head := tt.head
			if tt.name == "the same seeds in another order" {
				head = seeds // the levels are drawn in seed order; the head's samples are reordered below
			}
			base, cand := seededPair(rng, 5, 0.01, 0.0002, 1.01, tt.base, head)
			if tt.name == "the same seeds in another order" {
				for i := range cand.Benchmarks {
					b := &cand.Benchmarks[i]
					v := b.Metrics[0].Values
					for l, r := 0, len(v)-1; l < r; l, r = l+1, r-1 {
						v[l], v[r] = v[r], v[l]
						b.Seeds[l], b.Seeds[r] = b.Seeds[r], b.Seeds[l]
					}
				}
			}
			opts := Defaults()
			opts.Threshold = 0.005
			res, err := Compare(base, cand, opts)
			if err != nil {
				t.Fatal(err)
			}
			c := find(t, res, "BenchmarkX/a", results.UnitInstructionsPerOp)
			if c.Test != tt.wantTest || c.Verdict != tt.want {
				t.Errorf("%s %s (%+.2f%% [%+.2f, %+.2f]), want %s %s", c.Test, c.Verdict, 100*(c.Ratio-1), 100*(c.Lo-1), 100*(c.Hi-1), tt.wantTest, tt.want)
			}
			if tt.wantTest == TestPairedT && (c.Pairs != 5 || !(c.PairSpread < c.Spread/5)) {
				t.Errorf("pairs %d, spread %.4f within pairs %.4f: want 5 pairs and far less within", c.Pairs, c.Spread, c.PairSpread)
			}
			if tt.wantTest == TestWelch && c.Pairs != 0 {
				t.Errorf("unpaired with %d pairs", c.Pairs)
			}
			for _, o := range res.Comparisons {
				if o.Name != "BenchmarkX/a" && (o.Verdict == Regression || o.Verdict == Improvement) {
					t.Errorf("%s: %s", o.Name, o.Verdict)
				}
			}
		})
	}
}

// TestCountedPairedAAFalseAlarms: unchanged code, its processes paired
// by seed (inputs spreading counts by 1%), flags something in at most
// about alpha of the runs, with a floor below the noise.
func TestCountedPairedAAFalseAlarms(t *testing.T) {
	trials := 300
	if testing.Short() {
		trials = 100 // 30 made one alarm 3.3%: the bound needs enough trials to mean anything
	}
	rng := rand.New(rand.NewPCG(9, 10))
	seeds := []uint64{1, 2, 3, 4, 5}
	alarms := 0
	for range trials {
		base, cand := seededPair(rng, 5, 0.01, 0.0005, 1, seeds, seeds)
		opts := Defaults()
		opts.Threshold = 0.0001
		res, err := Compare(base, cand, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Count(Regression)+res.Count(Improvement) > 0 {
			alarms++
		}
	}
	if rate := float64(alarms) / float64(trials); rate > 0.025 {
		t.Errorf("%d of %d unchanged paired runs flagged something (%.1f%%), want about alpha = 1%% at most", alarms, trials, 100*rate)
	}
}
