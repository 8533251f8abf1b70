package stats

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
)

// newRunCase is one case of NewRun (X, one new run) or of NewRuns (XS,
// several) in testdata/newrun.json, with what R computed.
type newRunCase struct {
	Name       string `json:"name"`
	X          num    `json:"x"`
	XS         []num  `json:"xs"`
	Ref        []num  `json:"ref"`
	Other      []num  `json:"other"`
	Confidence num    `json:"confidence"`
	Estimate   num    `json:"estimate"`
	Lo         num    `json:"lo"`
	Hi         num    `json:"hi"`
	S          num    `json:"s"`
	SE         num    `json:"se"`
	DF         num    `json:"df"`
	T          num    `json:"t"`
	P          num    `json:"p"`
	TCheck     num    `json:"t_ttest_check"`
}

// newRunReference is testdata/newrun.json, written by testdata/newrun.R.
type newRunReference struct {
	RVersion string       `json:"r_version"`
	NewRun   []newRunCase `json:"newrun"`
	NewRuns  []newRunCase `json:"newruns"`
	MDE      []struct {
		SE    num `json:"se"`
		DF    num `json:"df"`
		Alpha num `json:"alpha"`
		Power num `json:"power"`
		Shift num `json:"shift"`
	} `json:"mde"`
	Inflate []struct {
		Case string `json:"case"`
		F    num    `json:"f"`
		SE   num    `json:"se"`
		T    num    `json:"t"`
		P    num    `json:"p"`
		Lo   num    `json:"lo"`
		Hi   num    `json:"hi"`
	} `json:"inflate"`
	Dispersion []struct {
		Name   string `json:"name"`
		T      []num  `json:"t"`
		DF     []num  `json:"df"`
		Lambda num    `json:"lambda"`
	} `json:"dispersion"`
	NewRunsFloor []struct {
		newRunCase
		MinS num `json:"min_s"`
	} `json:"newruns_floor"`
	Trend []struct {
		Name       string `json:"name"`
		T          []num  `json:"t"`
		X          []num  `json:"x"`
		Segment    []int  `json:"segment"`
		MinS       num    `json:"min_s"`
		Confidence num    `json:"confidence"`
		Slope      num    `json:"slope"`
		SE         num    `json:"se"`
		S          num    `json:"s"`
		DF         num    `json:"df"`
		TStat      num    `json:"t_stat"`
		P          num    `json:"p"`
		Change     num    `json:"change"`
		Lo         num    `json:"lo"`
		Hi         num    `json:"hi"`
		TCheck     num    `json:"t_lm_check"`
	} `json:"trend"`
	Welch  []tTestCase `json:"welch"`
	Paired []tTestCase `json:"paired"`
}

// tTestCase is one case of R's t.test (Welch's or paired): the samples,
// the confidence, and every field of its result.
type tTestCase struct {
	Name       string `json:"name"`
	X          []num  `json:"x"`
	Y          []num  `json:"y"`
	Confidence num    `json:"confidence"`
	Estimate   num    `json:"estimate"`
	Lo         num    `json:"lo"`
	Hi         num    `json:"hi"`
	SE         num    `json:"se"`
	DF         num    `json:"df"`
	T          num    `json:"t"`
	P          num    `json:"p"`
}

// check compares a test's result with the case's R values to 1e-9
// relative (the interval's ends on the scale of the estimate's spread).
func (c tTestCase) check(t *testing.T, got WelchTest) {
	t.Helper()
	se := float64(c.SE)
	checkNear(t, "estimate", got.Estimate, float64(c.Estimate), 1e-9, se)
	checkNear(t, "lo", got.Lo, float64(c.Lo), 1e-9, se)
	checkNear(t, "hi", got.Hi, float64(c.Hi), 1e-9, se)
	checkNear(t, "se", got.SE, se, 1e-9, 0)
	checkNear(t, "df", got.DF, float64(c.DF), 1e-9, 0)
	checkNear(t, "t", got.T, float64(c.T), 1e-9, 0)
	checkNear(t, "p", got.P, float64(c.P), 1e-9, 0)
}

func loadNewRunReference(t *testing.T) *newRunReference {
	t.Helper()
	b, err := os.ReadFile("testdata/newrun.json")
	if err != nil {
		t.Fatalf("read reference values: %v", err)
	}
	var ref newRunReference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("parse testdata/newrun.json: %v", err)
	}
	if len(ref.NewRun) == 0 || len(ref.NewRuns) == 0 || len(ref.MDE) == 0 || len(ref.Inflate) == 0 || len(ref.Dispersion) == 0 || len(ref.Welch) == 0 ||
		len(ref.NewRunsFloor) == 0 || len(ref.Trend) == 0 {
		t.Fatal("testdata/newrun.json lacks newrun, newruns, mde, inflate, dispersion, welch, newruns_floor or trend cases")
	}
	return &ref
}

// checkNewRun checks every field of got against R's values in c to
// 1e-9 relative (R's pt and qt against gonum's Student's t), and the
// statistic against R's own t.test where c has it.
func checkNewRun(t *testing.T, got NewRunTest, c newRunCase, xs []float64) {
	t.Helper()
	const tol = 1e-9
	scale := scaleOf(floats(c.Ref), floats(c.Other), xs)
	checkNear(t, "estimate", got.Estimate, float64(c.Estimate), tol, scale)
	checkNear(t, "lo", got.Lo, float64(c.Lo), tol, scale)
	checkNear(t, "hi", got.Hi, float64(c.Hi), tol, scale)
	checkNear(t, "s", got.S, float64(c.S), tol, 0)
	checkNear(t, "se", got.SE, float64(c.SE), tol, 0)
	checkNear(t, "df", got.DF, float64(c.DF), 0, 0)
	checkNear(t, "t", got.T, float64(c.T), tol, 1e-12)
	checkNear(t, "p", got.P, float64(c.P), tol, 0)
	if !math.IsNaN(float64(c.TCheck)) {
		checkNear(t, "t (R's t.test)", got.T, float64(c.TCheck), tol, 1e-12)
	}
	if got.Confidence != float64(c.Confidence) || !(got.Lo <= got.Estimate && got.Estimate <= got.Hi) {
		t.Errorf("interval %+v at confidence %v", got.Interval, c.Confidence)
	}
}

// TestNewRunReference: NewRun agrees with R, and, where there are no
// other runs, R's t.test gives the same statistic.
func TestNewRunReference(t *testing.T) {
	for _, c := range loadNewRunReference(t).NewRun {
		t.Run(c.Name, func(t *testing.T) {
			got, err := NewRun(float64(c.X), floats(c.Ref), floats(c.Other), float64(c.Confidence))
			if err != nil {
				t.Fatal(err)
			}
			checkNewRun(t, got, c, []float64{float64(c.X)})
		})
	}
}

// TestNewRunsReference: several new runs (a file's go test processes)
// agree with R, and, where there are no other runs, with the statistic
// of R's two-sample t.test with pooled variance. One new run is NewRun
// exactly.
func TestNewRunsReference(t *testing.T) {
	ref := loadNewRunReference(t)
	for _, c := range ref.NewRuns {
		t.Run(c.Name, func(t *testing.T) {
			got, err := NewRuns(floats(c.XS), floats(c.Ref), floats(c.Other), float64(c.Confidence))
			if err != nil {
				t.Fatal(err)
			}
			checkNewRun(t, got, c, floats(c.XS))
		})
	}
	for _, c := range ref.NewRun {
		one, err1 := NewRun(float64(c.X), floats(c.Ref), floats(c.Other), float64(c.Confidence))
		runs, err2 := NewRuns([]float64{float64(c.X)}, floats(c.Ref), floats(c.Other), float64(c.Confidence))
		if one != runs || err1 != nil || err2 != nil {
			t.Errorf("%s: NewRun %+v (%v), NewRuns of one run %+v (%v)", c.Name, one, err1, runs, err2)
		}
	}
}

// TestNewRunMDEReference: the detectable shift agrees with R's uniroot on
// pt(..., ncp) to 1e-6 relative (gonum's noncentral t against R's).
func TestNewRunMDEReference(t *testing.T) {
	for _, c := range loadNewRunReference(t).MDE {
		got, err := NewRunMDE(float64(c.SE), float64(c.DF), float64(c.Alpha), float64(c.Power))
		if err != nil {
			t.Fatalf("se %v df %v: %v", c.SE, c.DF, err)
		}
		checkNear(t, "shift", got, float64(c.Shift), 1e-6, 0)
	}
}

func TestNewRunErrors(t *testing.T) {
	tests := []struct {
		name       string
		x          float64
		ref, other []float64
		conf       float64
		want       error
	}{
		{"no reference", 0, nil, []float64{1, 2}, 0.95, ErrTooFew},
		{"no degree of freedom", 0, []float64{1}, []float64{2}, 0.95, ErrTooFew},
		{"constant", 1, []float64{1, 1}, []float64{3, 3}, 0.95, ErrAllEqual},
		{"NaN", math.NaN(), []float64{1, 2}, nil, 0.95, ErrNotFinite},
		{"infinite run", 0, []float64{1, math.Inf(1)}, nil, 0.95, ErrNotFinite},
		{"bad confidence", 0, []float64{1, 2}, nil, 1, ErrArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewRun(tt.x, tt.ref, tt.other, tt.conf); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
	for _, bad := range [][4]float64{{0, 4, 0.01, 0.8}, {0.1, 0.5, 0.01, 0.8}, {0.1, 4, 0, 0.8}, {0.1, 4, 0.01, 1}, {math.Inf(1), 4, 0.01, 0.8}} {
		if _, err := NewRunMDE(bad[0], bad[1], bad[2], bad[3]); !errors.Is(err, ErrArgument) {
			t.Errorf("NewRunMDE%v: error %v, want ErrArgument", bad, err)
		}
	}
}

// TestNewRunMDEGrowsWithFewerRuns: fewer degrees of freedom (a shorter
// history) can only see larger shifts, and the shift scales with se.
func TestNewRunMDEGrowsWithFewerRuns(t *testing.T) {
	prev := 0.0
	for _, df := range []float64{48, 19, 9, 4, 2, 1} {
		d, err := NewRunMDE(0.02, df, 0.01/84, 0.8)
		if err != nil {
			t.Fatal(err)
		}
		if d <= prev {
			t.Errorf("df %v: shift %v, not above %v at more degrees of freedom", df, d, prev)
		}
		prev = d
	}
	a, _ := NewRunMDE(0.01, 9, 0.01, 0.8)
	b, _ := NewRunMDE(0.03, 9, 0.01, 0.8)
	checkNear(t, "shift at 3x se", b, 3*a, 1e-9, 0)
}

// TestInflateReference: a NewRun test inflated by f agrees with R's
// t, p and interval on an se f times larger, to 1e-9 relative.
func TestInflateReference(t *testing.T) {
	ref := loadNewRunReference(t)
	for _, c := range ref.Inflate {
		t.Run(c.Case, func(t *testing.T) {
			var base *NewRunTest
			for _, n := range ref.NewRun {
				if n.Name == c.Case {
					got, err := NewRun(float64(n.X), floats(n.Ref), floats(n.Other), float64(n.Confidence))
					if err != nil {
						t.Fatal(err)
					}
					base = &got
				}
			}
			if base == nil {
				t.Fatalf("no newrun case %q", c.Case)
			}
			got := base.Inflate(float64(c.F))
			checkNear(t, "se", got.SE, float64(c.SE), 1e-9, 0)
			checkNear(t, "t", got.T, float64(c.T), 1e-9, 1e-12)
			checkNear(t, "p", got.P, float64(c.P), 1e-9, 0)
			checkNear(t, "lo", got.Lo, float64(c.Lo), 1e-9, 1e-12)
			checkNear(t, "hi", got.Hi, float64(c.Hi), 1e-9, 1e-12)
			checkNear(t, "estimate", got.Estimate, base.Estimate, 0, 0)
			checkNear(t, "df", got.DF, base.DF, 0, 0)
		})
	}
}

// TestInflateOnlyWidens: a factor at or below 1, or not finite, leaves
// the test as it was.
func TestInflateOnlyWidens(t *testing.T) {
	base, err := NewRun(0.05, []float64{0, 0.01, -0.02, 0.015, 0.002}, nil, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{1, 0.5, 0, -2, math.NaN(), math.Inf(1)} {
		if got := base.Inflate(f); got != base {
			t.Errorf("Inflate(%v) = %+v, want %+v unchanged", f, got, base)
		}
	}
}

// TestDispersionReference: lambda agrees with R's max(1, median(t^2 /
// qt(0.75, df)^2)) to 1e-9 relative (null tests give 1 after the floor,
// tests twice as wide 2.9 in R's sample, 4 in expectation).
func TestDispersionReference(t *testing.T) {
	ref := loadNewRunReference(t)
	for _, c := range ref.Dispersion {
		t.Run(c.Name, func(t *testing.T) {
			ts := make([]NewRunTest, len(c.T))
			for i := range c.T {
				ts[i] = NewRunTest{T: float64(c.T[i]), DF: float64(c.DF[i])}
			}
			got, err := Dispersion(ts)
			if err != nil {
				t.Fatal(err)
			}
			checkNear(t, "lambda", got, float64(c.Lambda), 1e-9, 0)
		})
	}
}

func TestDispersionErrors(t *testing.T) {
	tests := []struct {
		name string
		ts   []NewRunTest
		want error
	}{
		{"none", nil, ErrTooFew},
		{"no degree of freedom", []NewRunTest{{T: 1, DF: 0}}, ErrArgument},
		{"NaN", []NewRunTest{{T: math.NaN(), DF: 4}}, ErrArgument},
		{"infinite", []NewRunTest{{T: math.Inf(-1), DF: 4}}, ErrArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Dispersion(tt.ts); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// TestWelchReference: every field of Welch agrees with R's t.test(y, x,
// var.equal = FALSE) to 1e-9 relative (the estimate, which R does not
// print, with its difference of means; the interval's ends on the scale
// of the estimate's spread).
func TestWelchReference(t *testing.T) {
	ref := loadNewRunReference(t)
	for _, c := range ref.Welch {
		t.Run(c.Name, func(t *testing.T) {
			x, y := floats(c.X), floats(c.Y)
			got, err := Welch(x, y, float64(c.Confidence))
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, got)
		})
	}
}

// TestPairedTReference: every field of PairedT agrees with R's
// t.test(y, x, paired = TRUE) to 1e-9 relative, and on pairs that share
// a per-process level it is far narrower than Welch's test of the same
// values (which sees the level as noise).
func TestPairedTReference(t *testing.T) {
	ref := loadNewRunReference(t)
	if len(ref.Paired) == 0 {
		t.Fatal("testdata/newrun.json lacks paired cases")
	}
	for _, c := range ref.Paired {
		t.Run(c.Name, func(t *testing.T) {
			x, y := floats(c.X), floats(c.Y)
			got, err := PairedT(x, y, float64(c.Confidence))
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, got)
			w, err := Welch(x, y, float64(c.Confidence))
			if err != nil || !(w.SE > 5*got.SE) {
				t.Errorf("Welch's standard error %v (%v), want more than 5 times the paired %v", w.SE, err, got.SE)
			}
		})
	}
}

// TestPairedTErrors: unequal lengths, one pair, equal differences.
func TestPairedTErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want error
	}{
		{"one pair", []float64{1}, []float64{2}, ErrTooFew},
		{"every pair one apart", []float64{1, 2, 3}, []float64{2, 3, 4}, ErrAllEqual},
		{"not finite", []float64{1, math.Inf(1)}, []float64{1, 2}, ErrNotFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := PairedT(tt.x, tt.y, 0.95); !errors.Is(err, tt.want) {
				t.Errorf("PairedT(%v, %v) = %v, want %v", tt.x, tt.y, err, tt.want)
			}
		})
	}
	if _, err := PairedT([]float64{1, 2}, []float64{1, 2, 3}, 0.95); err == nil {
		t.Error("PairedT of 2 and 3 values: no error")
	}
}

// TestWelchErrors: too few values, constant samples, non-finite values.
func TestWelchErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want error
	}{
		{"one value a side", []float64{1}, []float64{1, 2}, ErrTooFew},
		{"both constant", []float64{3, 3, 3}, []float64{4, 4}, ErrAllEqual},
		{"not finite", []float64{1, math.Inf(1)}, []float64{1, 2}, ErrNotFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Welch(tt.x, tt.y, 0.95); !errors.Is(err, tt.want) {
				t.Errorf("Welch(%v, %v) = %v, want %v", tt.x, tt.y, err, tt.want)
			}
		})
	}
	// One constant side is a test on the other's spread alone: the
	// one-sample t of y against x's value, 0.2 / (0.1 / sqrt(3)), 2 df.
	w, err := Welch([]float64{5, 5, 5}, []float64{5.1, 5.3, 5.2}, 0.95)
	if err != nil || math.Abs(w.DF-2) > 1e-9 || math.Abs(w.T-0.2/(0.1/math.Sqrt(3))) > 1e-9 {
		t.Errorf("one constant side: df %v, t %v, %v; want df 2 and t %v", w.DF, w.T, err, 0.2/(0.1/math.Sqrt(3)))
	}
}
