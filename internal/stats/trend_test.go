package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestNewRunsFloorReference: NewRunsFloor agrees with R's formula of
// the pooled t test with the spread at least minS, and where the floor
// is below the runs' own spread, with R's t.test.
func TestNewRunsFloorReference(t *testing.T) {
	for _, c := range loadNewRunReference(t).NewRunsFloor {
		t.Run(c.Name, func(t *testing.T) {
			xs := floats(c.XS)
			got, err := NewRunsFloor(xs, floats(c.Ref), floats(c.Other), float64(c.MinS), float64(c.Confidence))
			if err != nil {
				t.Fatal(err)
			}
			checkNewRun(t, got, c.newRunCase, xs)
		})
	}
}

// TestNewRunsFloorOnlyWidens: a floor below the spread is NewRuns; one
// above it widens the test and lowers |T|; runs that all agree need a
// floor.
func TestNewRunsFloorOnlyWidens(t *testing.T) {
	xs, ref := []float64{0.02, 0.025}, []float64{0, 0.004, -0.003, 0.001}
	plain, err := NewRuns(xs, ref, nil, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	below, err := NewRunsFloor(xs, ref, nil, plain.S/2, 0.99)
	if err != nil || below != plain {
		t.Errorf("a floor below the spread: %+v, %v; want NewRuns' %+v", below, err, plain)
	}
	above, err := NewRunsFloor(xs, ref, nil, 3*plain.S, 0.99)
	if err != nil || above.S != 3*plain.S || math.Abs(above.T*3-plain.T) > 1e-12*math.Abs(plain.T) || !(above.P > plain.P) {
		t.Errorf("a floor of 3 times the spread: %+v, %v; want S ×3, T ÷3 and a larger p than %+v", above, err, plain)
	}
	if _, err := NewRunsFloor([]float64{1}, []float64{1, 1}, nil, 0, 0.99); !errors.Is(err, ErrAllEqual) {
		t.Errorf("equal runs without a floor: %v, want ErrAllEqual", err)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := NewRunsFloor(xs, ref, nil, bad, 0.99); !errors.Is(err, ErrArgument) {
			t.Errorf("floor %v: %v, want ErrArgument", bad, err)
		}
	}
}

// TestTrendReference: every field of Trend agrees with R's lm to 1e-9
// relative (the slope and change on the scale of their standard errors).
func TestTrendReference(t *testing.T) {
	for _, c := range loadNewRunReference(t).Trend {
		t.Run(c.Name, func(t *testing.T) {
			got, err := Trend(floats(c.T), floats(c.X), c.Segment, float64(c.MinS), float64(c.Confidence))
			if err != nil {
				t.Fatal(err)
			}
			se := float64(c.SE)
			span := float64(c.T[len(c.T)-1] - c.T[0])
			checkNear(t, "slope", got.Slope, float64(c.Slope), 1e-9, se)
			checkNear(t, "se", got.SE, se, 1e-9, 0)
			checkNear(t, "s", got.S, float64(c.S), 1e-9, 0)
			checkNear(t, "df", got.DF, float64(c.DF), 0, 0)
			checkNear(t, "t", got.T, float64(c.TStat), 1e-9, 1e-9)
			checkNear(t, "p", got.P, float64(c.P), 1e-9, 0)
			checkNear(t, "change", got.Estimate, float64(c.Change), 1e-9, se*span)
			checkNear(t, "lo", got.Lo, float64(c.Lo), 1e-9, se*span)
			checkNear(t, "hi", got.Hi, float64(c.Hi), 1e-9, se*span)
			if !math.IsNaN(float64(c.TCheck)) {
				checkNear(t, "t (R's summary.lm)", got.T, float64(c.TCheck), 1e-9, 1e-9)
			}
		})
	}
}

func TestTrendErrors(t *testing.T) {
	seq := []float64{0, 1, 2, 3}
	tests := []struct {
		name    string
		t, x    []float64
		segment []int
		minS    float64
		want    error
	}{
		{"too few points", []float64{0, 1}, []float64{1, 2}, []int{0, 0}, 0, ErrTooFew},
		{"one degree of freedom", []float64{0, 1, 2}, []float64{1, 2, 4}, []int{0, 0, 0}, 0, nil},
		{"none left by two segments", []float64{0, 1, 2}, []float64{1, 2, 4}, []int{0, 0, 1}, 0, ErrTooFew},
		{"every segment one point", []float64{0, 1, 2}, []float64{1, 2, 4}, []int{0, 1, 2}, 0, ErrTooFew},
		{"on its line", seq, []float64{1, 2, 3, 4}, []int{0, 0, 0, 0}, 0, ErrAllEqual},
		{"positions not increasing", []float64{0, 2, 1, 3}, []float64{1, 2, 3, 5}, []int{0, 0, 0, 0}, 0, ErrArgument},
		{"a segment that comes back", seq, []float64{1, 2, 3, 5}, []int{0, 1, 0, 0}, 0, ErrArgument},
		{"lengths differ", seq, []float64{1, 2, 3}, []int{0, 0, 0, 0}, 0, ErrArgument},
		{"not finite", seq, []float64{1, math.NaN(), 3, 4}, []int{0, 0, 0, 0}, 0, ErrNotFinite},
		{"a negative floor", seq, []float64{1, 2, 3, 5}, []int{0, 0, 0, 0}, -1, ErrArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Trend(tt.t, tt.x, tt.segment, tt.minS, 0.99)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// TestTrendLevel: on flat series of independent normal points the trend
// test rejects at its level (exact under that model): 20,000 series of 12
// points at 5% and at 1%, one segment and three, within 3.5 standard
// errors of the level.
func TestTrendLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	const n = 20000
	pos := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	for _, segs := range [][]int{
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2},
	} {
		for _, level := range []float64{0.05, 0.01} {
			rejected := 0
			x := make([]float64, len(pos))
			for range n {
				for i := range x {
					x[i] = 3*float64(segs[i]) + rng.NormFloat64()
				}
				r, err := Trend(pos, x, segs, 0, 0.95)
				if err != nil {
					t.Fatal(err)
				}
				if r.P <= level {
					rejected++
				}
			}
			se := math.Sqrt(level * (1 - level) / n)
			if got := float64(rejected) / n; math.Abs(got-level) > 3.5*se {
				t.Errorf("segments %v: %d of %d rejected at %v (%.4f)", segs, rejected, n, level, got)
			}
		}
	}
}
