package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// counts is a series of n counts around 10,000 with normal noise of sd
// (relative) that steps by step (relative) from run at on, drawn from
// seed.
func counts(seed uint64, n, at int, step, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]float64, n)
	for i := range x {
		x[i] = 10000 * math.Exp(sd*rng.NormFloat64())
		if i >= at {
			x[i] *= 1 + step
		}
	}
	return x
}

// creeping is n counts that grow by per each run, with noise of 0.03%.
func creeping(seed uint64, n int, per float64) []float64 {
	x := counts(seed, n, n, 0, 3e-4)
	for i := range x {
		x[i] *= math.Pow(1+per, float64(i))
	}
	return x
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestSteps(t *testing.T) {
	o := StepOptions{Alpha: 0.001, Floor: 0.01, MinBefore: 2}
	bimodal := []float64{1000, 1050, 1000, 1000, 1050, 1000, 1050, 1050, 1000, 1000}
	deterministic := append(repeat(2369, 4), repeat(2369*1.012, 2)...)
	tests := []struct {
		name  string
		x     []float64
		noise []float64
		// want are the indexes of the change points and the runs after
		// each that its test saw.
		want     []int
		wantRuns []int
	}{
		{"flat", counts(1, 30, 30, 0, 3e-4), nil, nil, nil},
		{"+15% at the 4th run, found by it", counts(2, 4, 3, 0.15, 3e-4), nil, []int{3}, []int{1}},
		{"+1.5% at the 4th run, by the 5th", counts(3, 5, 3, 0.015, 3e-4), repeat(5e-4, 5), []int{3}, []int{2}},
		{"-1.5% at the 11th run, by the 12th", counts(4, 12, 10, -0.015, 3e-4), repeat(3e-4, 12), []int{10}, nil},
		{"+0.5%, below the floor", counts(5, 12, 6, 0.005, 3e-4), nil, nil, nil},
		{"a creep of 0.4% a run, no step", creeping(11, 20, 0.004), repeat(3e-4, 20), nil, nil},
		{"two steps", append(counts(6, 6, 3, 0.05, 3e-4), counts(7, 6, 0, 0.10, 3e-4)...), nil, []int{3, 6}, nil},
		{"a deterministic count that moves", deterministic, nil, []int{4}, []int{1}},
		{"one run out of line, then back", append(counts(8, 8, 8, 0, 3e-4), 10000*1.015, 10000, 10000), repeat(3e-4, 11), nil, nil},
		{"bimodal processes, their spread known", bimodal, repeat(0.025, len(bimodal)), nil, nil},
		{"a value of 0", []float64{0, 1, 1, 2, 2}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Steps(tt.x, tt.noise, o)
			if len(got) != len(tt.want) {
				t.Fatalf("points %+v, want at %v", got, tt.want)
			}
			for i, p := range got {
				if p.Index != tt.want[i] || p.P > o.Alpha {
					t.Errorf("point %d: %+v, want at %d with p ≤ %v", i, p, tt.want[i], o.Alpha)
				}
				if tt.wantRuns != nil && p.Runs != tt.wantRuns[i] {
					t.Errorf("point %d seen by %d runs after it, want %d", i, p.Runs, tt.wantRuns[i])
				}
				lo, hi := 0, len(tt.x)
				if i > 0 {
					lo = got[i-1].Index
				}
				if i+1 < len(got) {
					hi = got[i+1].Index
				}
				if !(p.Before > 0 && p.After > 0) || math.Abs(p.After/p.Before-tt.x[(p.Index+hi)/2]/tt.x[(lo+p.Index)/2]) > 0.01 {
					t.Errorf("point %d: before %v after %v, not the medians of its stretches", i, p.Before, p.After)
				}
			}
		})
	}
}

// TestStepsOnline: the points of a series are those found run by run as
// it grew: a prefix's points are the whole series' points before its end
// (a step is never moved by later runs), but for a step its last run
// alone saw, which the next run withdraws when it does not confirm it.
func TestStepsOnline(t *testing.T) {
	o := StepOptions{Alpha: 0.001, Floor: 0.01, MinBefore: 2}
	x := append(counts(9, 10, 4, 0.03, 3e-4), counts(10, 10, 0, 0.06, 3e-4)...)
	x = append(append(x[:15:15], x[14]*1.04), x[15:]...) // run 15 out of line
	all := Steps(x, nil, o)
	if len(all) != 2 || all[0].Index != 4 || all[1].Index != 10 {
		t.Fatalf("points %+v, want the steps at 4 and 10", all)
	}
	withdrawn := 0
	for n := 3; n <= len(x); n++ {
		for _, p := range Steps(x[:n], nil, o) {
			if p.Index == n-1 && p.Runs == 1 && p.Index == 15 {
				withdrawn++
				continue
			}
			found := false
			for _, q := range all {
				found = found || q.Index == p.Index
			}
			if !found {
				t.Errorf("the first %d runs show a point at %d that the whole series does not (%+v)", n, p.Index, all)
			}
		}
	}
	if withdrawn != 1 {
		t.Errorf("the run out of line was a point of %d prefixes, want the one it ends", withdrawn)
	}
}

// TestStepsLevel: on flat series of independent log-normal counts (sd
// 0.03%), a push (the series grown by one run) shows a new change point,
// withdrawn ones counted, at most about 2·Alpha (two tests a run) when
// the floor is at least twice the noise, and never when it is ten times
// it; a floor closer to the noise lets the choice of the older candidate
// (where the runs beyond the floor begin) cost some of the level, which
// the log shows: 500 series grown from 3 runs to 20 at Alpha 0.01.
func TestStepsLevel(t *testing.T) {
	for _, tt := range []struct {
		floor, max float64
	}{
		{0, 0.04},
		{1.5e-4, 0.04},
		{6e-4, 0.02 * 1.15},
		{3e-3, 0},
	} {
		o := StepOptions{Alpha: 0.01, Floor: tt.floor, MinBefore: 2}
		news, pushes := 0, 0
		for seed := range uint64(500) {
			x := counts(seed+100, 20, 20, 0, 3e-4)
			seen := map[int]bool{}
			for n := 3; n <= len(x); n++ {
				pushes++
				for _, p := range Steps(x[:n], nil, o) {
					if !seen[p.Index] {
						seen[p.Index] = true
						news++
					}
				}
			}
		}
		rate := float64(news) / float64(pushes)
		t.Logf("floor %v: %d new points in %d pushes: %.4f a push (2·Alpha %v)", tt.floor, news, pushes, rate, 2*o.Alpha)
		if rate > tt.max {
			t.Errorf("floor %v: %.4f new points a push, want at most %v", tt.floor, rate, tt.max)
		}
	}
}

func TestStepOptionsValidate(t *testing.T) {
	for _, o := range []StepOptions{
		{Alpha: 0, Floor: 0.01, MinBefore: 2},
		{Alpha: 0.01, Floor: -1, MinBefore: 2},
		{Alpha: 0.01, Floor: math.NaN(), MinBefore: 2},
		{Alpha: 0.01, Floor: 0.01, MinBefore: 1},
	} {
		if o.Validate() == nil {
			t.Errorf("%+v is valid", o)
		}
	}
}
