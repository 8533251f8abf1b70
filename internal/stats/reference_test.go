package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// The tests in this file compare every exported function with values R
// computed; testdata/reference.R says how (and regenerates the file).

// num is a JSON number as reference.R writes it: null means NA (NaN here),
// and non-finite values are the strings "Inf", "-Inf" and "NaN".
type num float64

func (f *num) UnmarshalJSON(b []byte) error {
	s := string(b)
	switch s {
	case "null", `"NaN"`:
		*f = num(math.NaN())
	case `"Inf"`:
		*f = num(math.Inf(1))
	case `"-Inf"`:
		*f = num(math.Inf(-1))
	default:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("reference number %s: %w", s, err)
		}
		*f = num(v)
	}
	return nil
}

func floats(v []num) []float64 {
	out := make([]float64, len(v))
	for i, f := range v {
		out[i] = float64(f)
	}
	return out
}

// ciRef is one wilcox.test interval: for the normal approximation the
// main fields come from tol.root = 1e-12 and *Default from R's default.
type ciRef struct {
	Estimate        num `json:"estimate"`
	Lo              num `json:"lo"`
	Hi              num `json:"hi"`
	ConfLevel       num `json:"conf_level"`
	EstimateDefault num `json:"estimate_default"`
	LoDefault       num `json:"lo_default"`
	HiDefault       num `json:"hi_default"`
	MedianDiff      num `json:"median_diff"`
	MedianWalsh     num `json:"median_walsh"`
}

// ciSet maps "ci95" and "ci99" to intervals at those levels.
type ciSet map[string]*ciRef

var levels = map[string]float64{"ci95": 0.95, "ci99": 0.99}

type ranksumRef struct {
	Name        string `json:"name"`
	X           []num  `json:"x"`
	Y           []num  `json:"y"`
	W           num    `json:"W"`
	PAuto       num    `json:"p_auto"`
	MethodAuto  Method `json:"method_auto"`
	PExact      num    `json:"p_exact"`
	PNormal     num    `json:"p_normal"`
	HLExact     ciSet  `json:"hl_exact"`
	HLNormal    ciSet  `json:"hl_normal"`
	RatioExact  ciSet  `json:"ratio_exact"`
	RatioNormal ciSet  `json:"ratio_normal"`
}

type signrankRef struct {
	Name       string `json:"name"`
	D          []num  `json:"d"`
	N          int    `json:"n"`
	V          num    `json:"V"`
	PAuto      num    `json:"p_auto"`
	MethodAuto Method `json:"method_auto"`
	PExact     num    `json:"p_exact"`
	PNormal    num    `json:"p_normal"`
	PSExact    ciSet  `json:"ps_exact"`
	PSNormal   ciSet  `json:"ps_normal"`
}

type reference struct {
	RVersion string        `json:"r_version"`
	RootTol  float64       `json:"root_tol"`
	RankSum  []ranksumRef  `json:"ranksum"`
	SignRank []signrankRef `json:"signrank"`
	PAdjust  []struct {
		P, Holm, BH []num
	} `json:"padjust"`
	PWilcox []struct {
		M, N, Q  int
		P, Upper num
	} `json:"pwilcox"`
	QWilcox []struct {
		M, N, Q int
		P       num
	} `json:"qwilcox"`
	PSignRank []struct {
		N, Q     int
		P, Upper num
	} `json:"psignrank"`
	QSignRank []struct {
		N, Q int
		P    num
	} `json:"qsignrank"`
	Median []struct {
		X           []num
		Median, MAD num
		CI          []struct{ Conf, Lo, Hi, Achieved num }
	} `json:"median"`
	GeoMean []struct {
		Ratios                 []num
		Conf, Estimate, Lo, Hi num
	} `json:"geomean"`
	MDE []struct {
		Base, Cand                []num
		Alpha, Power, Spread, MDE num
	} `json:"mde"`
	SamplesFor []struct {
		Base, Cand           []num
		Effect, Alpha, Power num
		N                    int
	} `json:"samples_for"`
	PairedMDE []struct {
		LogRatios                 []num `json:"log_ratios"`
		Alpha, Power, Spread, MDE num
	} `json:"paired_mde"`
}

func loadReference(t *testing.T) *reference {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatalf("read reference values: %v", err)
	}
	var ref reference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("parse testdata/reference.json: %v", err)
	}
	return &ref
}

// Tolerances: exact computations (exact p-values, order statistics) agree
// with R to rounding; normal-approximation results to 1e-6 relative.
const (
	tolExact  = 1e-12
	tolNormal = 1e-6
)

// near reports whether got is within rel*max(|want|, scale) of want; NaN
// matches NaN and infinities match themselves.
func near(got, want, rel, scale float64) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), scale)
}

func checkNear(t *testing.T, what string, got, want, rel, scale float64) {
	t.Helper()
	if !near(got, want, rel, scale) {
		t.Errorf("%s = %.17g, want %.17g (R; rel diff %.3g, tolerance %g)", what, got, want, math.Abs(got-want)/math.Abs(want), rel)
	}
}

func tolFor(m Method) float64 {
	if m == MethodExact {
		return tolExact
	}
	return tolNormal
}

// scaleOf is the largest magnitude in the inputs: values near zero are
// compared relative to it.
func scaleOf(vs ...[]float64) float64 {
	var s float64
	for _, v := range vs {
		for _, f := range v {
			s = math.Max(s, math.Abs(f))
		}
	}
	return s
}

// zeroPlateau returns the range of d on which R's normal-approximation
// estimating equation W(d) = 0 holds, for sorted pairwise differences or
// Walsh averages v: W is zero while the number c of values above d is
// within one half of len(v)/2 (after the continuity correction).
func zeroPlateau(v []float64) (lo, hi float64) {
	n := len(v)
	// 1-based order statistics v(n - floor((n+1)/2)) and v(n - ceil((n-1)/2) + 1).
	a := n - (n+1)/2
	b := n - n/2 + 1
	lo, hi = math.Inf(-1), math.Inf(1)
	if a >= 1 {
		lo = v[a-1]
	}
	if b <= n {
		hi = v[b-1]
	}
	return lo, hi
}

func pairwise(x, y []float64) []float64 {
	var d []float64
	for _, yj := range y {
		for _, xi := range x {
			d = append(d, yj-xi)
		}
	}
	slices.Sort(d)
	return d
}

func walshOf(d []float64) []float64 {
	var x, w []float64
	for _, v := range d {
		if v != 0 {
			x = append(x, v)
		}
	}
	for i := range x {
		for j := i; j < len(x); j++ {
			w = append(w, (x[i]+x[j])/2)
		}
	}
	slices.Sort(w)
	return w
}

// checkInterval compares an Interval with R's interval. For the normal
// approximation it also checks that R's default-tolerance interval is
// within R's tolerance of ours, and that R's estimate lies on the same
// zero plateau as ours (the median of v).
func checkInterval(t *testing.T, name string, got Interval, want *ciRef, m Method, scale float64, median float64, v []float64, ratio bool) {
	t.Helper()
	tol := tolFor(m)
	if m == MethodExact {
		checkNear(t, name+" estimate", got.Estimate, float64(want.Estimate), tol, scale)
	} else {
		// R's estimate is the median of the differences only in the
		// exact case; here we return it always (package doc).
		checkNear(t, name+" estimate", got.Estimate, median, tolExact, scale)
		lo, hi := zeroPlateau(v)
		est := float64(want.Estimate)
		if ratio {
			est = math.Log(est)
		}
		if slack := 1e-9 * scale; est < lo-slack || est > hi+slack {
			t.Errorf("%s: R's estimate %.17g is off the zero plateau [%.17g, %.17g] of W", name, est, lo, hi)
		}
		// R's default tol.root = 1e-4 (in data units, log units for ratios).
		for _, p := range []struct {
			what      string
			got, want float64
		}{{"lo", got.Lo, float64(want.LoDefault)}, {"hi", got.Hi, float64(want.HiDefault)}} {
			g, w := p.got, p.want
			if ratio {
				g, w = math.Log(g), math.Log(w)
			}
			if math.Abs(g-w) > 1e-4 {
				t.Errorf("%s %s = %.17g, R with default tol.root gives %.17g: differ by more than 1e-4", name, p.what, g, w)
			}
		}
	}
	checkNear(t, name+" lo", got.Lo, float64(want.Lo), tol, scale)
	checkNear(t, name+" hi", got.Hi, float64(want.Hi), tol, scale)
	checkNear(t, name+" confidence", got.Confidence, float64(want.ConfLevel), tolExact, 1)
}

func TestReferenceVersion(t *testing.T) {
	ref := loadReference(t)
	if ref.RVersion == "" || len(ref.RankSum) < 20 || len(ref.SignRank) < 15 {
		t.Fatalf("reference.json: R version %q, %d unpaired and %d paired cases; want >= 20 and >= 15", ref.RVersion, len(ref.RankSum), len(ref.SignRank))
	}
	t.Logf("reference values from %s: %d unpaired, %d paired cases", ref.RVersion, len(ref.RankSum), len(ref.SignRank))
}

func TestMannWhitneyReference(t *testing.T) {
	for _, c := range loadReference(t).RankSum {
		t.Run(c.Name, func(t *testing.T) {
			x, y := floats(c.X), floats(c.Y)
			got, err := MannWhitney(x, y)
			if err != nil {
				t.Fatalf("MannWhitney: %v", err)
			}
			if got.U != float64(c.W) || got.N1 != len(x) || got.N2 != len(y) {
				t.Errorf("U, N1, N2 = %v, %d, %d; want %v, %d, %d", got.U, got.N1, got.N2, float64(c.W), len(x), len(y))
			}
			if got.Method != c.MethodAuto {
				t.Errorf("method = %q, want %q", got.Method, c.MethodAuto)
			}
			checkNear(t, "p (auto)", got.P, float64(c.PAuto), tolFor(c.MethodAuto), 0)

			ex, err := MannWhitneyMethod(x, y, MethodExact)
			switch {
			case math.IsNaN(float64(c.PExact)):
				if !errors.Is(err, ErrTies) {
					t.Errorf("exact with ties: err = %v, want ErrTies", err)
				}
			case err != nil:
				t.Errorf("exact: %v", err)
			default:
				checkNear(t, "p (exact)", ex.P, float64(c.PExact), tolExact, 0)
			}

			no, err := MannWhitneyMethod(x, y, MethodNormal)
			if err != nil {
				t.Fatalf("normal: %v", err)
			}
			checkNear(t, "p (normal)", no.P, float64(c.PNormal), tolNormal, 0)
		})
	}
}

func TestHodgesLehmannReference(t *testing.T) {
	for _, c := range loadReference(t).RankSum {
		t.Run(c.Name, func(t *testing.T) {
			x, y := floats(c.X), floats(c.Y)
			d := pairwise(x, y)
			scale := scaleOf(d)
			positive := c.RatioNormal != nil || c.RatioExact != nil
			var lx, ly, ld []float64
			if positive {
				for _, v := range x {
					lx = append(lx, math.Log(v))
				}
				for _, v := range y {
					ly = append(ly, math.Log(v))
				}
				ld = pairwise(lx, ly)
			}
			for lvl, conf := range levels {
				sets := []struct {
					m          Method
					want       ciSet
					ratio      ciSet
					ratioWants bool
				}{
					{MethodExact, c.HLExact, c.RatioExact, c.RatioExact != nil},
					{MethodNormal, c.HLNormal, c.RatioNormal, c.RatioNormal != nil},
				}
				for _, s := range sets {
					name := fmt.Sprintf("%s %s", s.m, lvl)
					got, err := HodgesLehmannMethod(x, y, conf, s.m)
					switch {
					case s.want != nil:
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						checkInterval(t, name, got, s.want[lvl], s.m, scale, medianSorted(d), d, false)
						checkNear(t, name+" median of differences", got.Estimate, float64(s.want[lvl].MedianDiff), tolExact, scale)
					case s.m == MethodNormal:
						// R stops here: all pairwise differences are
						// equal. We return that difference.
						if err != nil || got.Lo != d[0] || got.Hi != d[0] || got.Estimate != d[0] {
							t.Errorf("%s where R fails: got %+v, %v; want every field %v", name, got, err, d[0])
						}
					case c.PExact != c.PExact: // ties
						if !errors.Is(err, ErrTies) {
							t.Errorf("%s with ties: err = %v, want ErrTies", name, err)
						}
					}
					if !s.ratioWants {
						continue
					}
					name = "ratio " + name
					rg, err := RatioHLMethod(x, y, conf, s.m)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					checkInterval(t, name, rg, s.ratio[lvl], s.m, scaleOf(x, y), math.Exp(medianSorted(ld)), ld, true)
				}
				// The automatic choice is R's.
				auto, err := HodgesLehmann(x, y, conf)
				if err != nil {
					t.Fatalf("auto %s: %v", lvl, err)
				}
				want := c.HLNormal
				if c.MethodAuto == MethodExact {
					want = c.HLExact
				}
				if want != nil {
					checkNear(t, "auto "+lvl+" lo", auto.Lo, float64(want[lvl].Lo), tolFor(c.MethodAuto), scale)
					checkNear(t, "auto "+lvl+" hi", auto.Hi, float64(want[lvl].Hi), tolFor(c.MethodAuto), scale)
				}
				if positive {
					ra, err := RatioHL(x, y, conf)
					if err != nil {
						t.Fatalf("RatioHL %s: %v", lvl, err)
					}
					want := c.RatioNormal
					if c.MethodAuto == MethodExact {
						want = c.RatioExact
					}
					checkNear(t, "RatioHL "+lvl+" estimate", ra.Estimate, float64(want[lvl].MedianDiff), tolExact, 1)
					checkNear(t, "RatioHL "+lvl+" lo", ra.Lo, float64(want[lvl].Lo), tolFor(c.MethodAuto), 1)
					checkNear(t, "RatioHL "+lvl+" hi", ra.Hi, float64(want[lvl].Hi), tolFor(c.MethodAuto), 1)
				}
			}
		})
	}
}

func TestWilcoxonSignedRankReference(t *testing.T) {
	for _, c := range loadReference(t).SignRank {
		t.Run(c.Name, func(t *testing.T) {
			d := floats(c.D)
			got, err := WilcoxonSignedRank(d)
			if err != nil {
				t.Fatalf("WilcoxonSignedRank: %v", err)
			}
			if got.V != float64(c.V) || got.N != c.N || got.Method != c.MethodAuto {
				t.Errorf("V, N, method = %v, %d, %q; want %v, %d, %q", got.V, got.N, got.Method, float64(c.V), c.N, c.MethodAuto)
			}
			checkNear(t, "p (auto)", got.P, float64(c.PAuto), tolFor(c.MethodAuto), 0)

			ex, err := WilcoxonSignedRankMethod(d, MethodExact)
			switch {
			case math.IsNaN(float64(c.PExact)):
				if !errors.Is(err, ErrTies) {
					t.Errorf("exact with ties or zeros: err = %v, want ErrTies", err)
				}
			case err != nil:
				t.Errorf("exact: %v", err)
			default:
				checkNear(t, "p (exact)", ex.P, float64(c.PExact), tolExact, 0)
			}
			no, err := WilcoxonSignedRankMethod(d, MethodNormal)
			if err != nil {
				t.Fatalf("normal: %v", err)
			}
			checkNear(t, "p (normal)", no.P, float64(c.PNormal), tolNormal, 0)
		})
	}
}

func TestPseudoMedianReference(t *testing.T) {
	for _, c := range loadReference(t).SignRank {
		t.Run(c.Name, func(t *testing.T) {
			d := floats(c.D)
			w := walshOf(d)
			scale := scaleOf(d)
			for lvl, conf := range levels {
				for _, s := range []struct {
					m    Method
					want ciSet
				}{{MethodExact, c.PSExact}, {MethodNormal, c.PSNormal}} {
					name := fmt.Sprintf("%s %s", s.m, lvl)
					got, err := PseudoMedianMethod(d, conf, s.m)
					switch {
					case s.want != nil:
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						checkInterval(t, name, got, s.want[lvl], s.m, scale, medianSorted(w), w, false)
						checkNear(t, name+" median of Walsh averages", got.Estimate, float64(s.want[lvl].MedianWalsh), tolExact, scale)
					case s.m == MethodNormal:
						if !errors.Is(err, ErrAllEqual) {
							t.Errorf("%s where R gives NaN: err = %v, want ErrAllEqual", name, err)
						}
					case math.IsNaN(float64(c.PExact)):
						if !errors.Is(err, ErrTies) {
							t.Errorf("%s with ties or zeros: err = %v, want ErrTies", name, err)
						}
					}
				}
				auto, err := PseudoMedian(d, conf)
				want := c.PSNormal
				if c.MethodAuto == MethodExact {
					want = c.PSExact
				}
				if err != nil {
					t.Fatalf("auto %s: %v", lvl, err)
				}
				checkNear(t, "auto "+lvl+" lo", auto.Lo, float64(want[lvl].Lo), tolFor(c.MethodAuto), scale)
				checkNear(t, "auto "+lvl+" hi", auto.Hi, float64(want[lvl].Hi), tolFor(c.MethodAuto), scale)
				checkNear(t, "auto "+lvl+" confidence", auto.Confidence, float64(want[lvl].ConfLevel), tolExact, 1)
			}
		})
	}
}

func TestPAdjustReference(t *testing.T) {
	for i, c := range loadReference(t).PAdjust {
		p := floats(c.P)
		for _, a := range []struct {
			name string
			f    func([]float64) []float64
			want []num
		}{{"holm", Holm, c.Holm}, {"BH", BenjaminiHochberg, c.BH}} {
			got := a.f(p)
			if len(got) != len(a.want) {
				t.Fatalf("case %d %s: %d values, want %d", i, a.name, len(got), len(a.want))
			}
			for j := range got {
				checkNear(t, fmt.Sprintf("case %d %s[%d]", i, a.name, j), got[j], float64(a.want[j]), tolExact, 0)
			}
		}
	}
}

func TestExactDistributionsReference(t *testing.T) {
	ref := loadReference(t)
	upper := func(d countDist, q int) float64 {
		if q >= d.max() {
			return 0
		}
		return d.lower(d.max() - q - 1)
	}
	for _, c := range ref.PWilcox {
		d := rankSumDist(c.M, c.N)
		what := fmt.Sprintf("pwilcox(%d, %d, %d)", c.Q, c.M, c.N)
		checkNear(t, what, d.cdf(float64(c.Q)), float64(c.P), tolExact, 0)
		checkNear(t, what+" upper", upper(d, c.Q), float64(c.Upper), tolExact, 0)
	}
	for _, c := range ref.QWilcox {
		if got := rankSumDist(c.M, c.N).quantile(float64(c.P)); got != c.Q {
			t.Errorf("qwilcox(%.17g, %d, %d) = %d, want %d", float64(c.P), c.M, c.N, got, c.Q)
		}
	}
	for _, c := range ref.PSignRank {
		d := signRankDist(c.N)
		what := fmt.Sprintf("psignrank(%d, %d)", c.Q, c.N)
		checkNear(t, what, d.cdf(float64(c.Q)), float64(c.P), tolExact, 0)
		checkNear(t, what+" upper", upper(d, c.Q), float64(c.Upper), tolExact, 0)
	}
	for _, c := range ref.QSignRank {
		if got := signRankDist(c.N).quantile(float64(c.P)); got != c.Q {
			t.Errorf("qsignrank(%.17g, %d) = %d, want %d", float64(c.P), c.N, got, c.Q)
		}
	}
}

func TestSummariesReference(t *testing.T) {
	ref := loadReference(t)
	for i, c := range ref.Median {
		x := floats(c.X)
		m, err := Median(x)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, fmt.Sprintf("median %d", i), m, float64(c.Median), tolExact, 0)
		mad, err := MAD(x)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, fmt.Sprintf("mad %d", i), mad, float64(c.MAD), tolExact, 0)
		for _, ci := range c.CI {
			got, err := MedianCI(x, float64(ci.Conf))
			what := fmt.Sprintf("median interval %d at %v", i, float64(ci.Conf))
			if math.IsNaN(float64(ci.Lo)) {
				if !errors.Is(err, ErrTooFew) {
					t.Errorf("%s: err = %v, want ErrTooFew", what, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if got.Lo != float64(ci.Lo) || got.Hi != float64(ci.Hi) || got.Estimate != m {
				t.Errorf("%s = %+v, want [%v, %v]", what, got, float64(ci.Lo), float64(ci.Hi))
			}
			checkNear(t, what+" achieved", got.Confidence, float64(ci.Achieved), tolExact, 0)
		}
	}
	for i, c := range ref.GeoMean {
		got, err := GeoMean(floats(c.Ratios), float64(c.Conf))
		if err != nil {
			t.Fatalf("geomean %d: %v", i, err)
		}
		what := fmt.Sprintf("geomean %d at %v", i, float64(c.Conf))
		checkNear(t, what+" estimate", got.Estimate, float64(c.Estimate), tolExact, 0)
		checkNear(t, what+" lo", got.Lo, float64(c.Lo), tolNormal, 0)
		checkNear(t, what+" hi", got.Hi, float64(c.Hi), tolNormal, 0)
	}
}

func TestPowerReference(t *testing.T) {
	ref := loadReference(t)
	for i, c := range ref.MDE {
		base, cand := floats(c.Base), floats(c.Cand)
		s, err := LogSpread(base, cand)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, fmt.Sprintf("mde %d spread", i), s, float64(c.Spread), tolExact, 0)
		got, err := MDE(base, cand, float64(c.Alpha), float64(c.Power))
		what := fmt.Sprintf("mde %d (n=%d,%d alpha=%v power=%v)", i, len(base), len(cand), float64(c.Alpha), float64(c.Power))
		if math.IsInf(float64(c.MDE), 1) {
			if !math.IsInf(got, 1) || !errors.Is(err, ErrUnreachable) {
				t.Errorf("%s = %v, %v; want +Inf, ErrUnreachable", what, got, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkNear(t, what, got, float64(c.MDE), tolNormal, 0)
	}
	for i, c := range ref.SamplesFor {
		got, err := SamplesFor(floats(c.Base), floats(c.Cand), float64(c.Effect), float64(c.Alpha), float64(c.Power))
		if err != nil || got != c.N {
			t.Errorf("samples_for %d (effect %v alpha %v power %v) = %d, %v; want %d", i, float64(c.Effect), float64(c.Alpha), float64(c.Power), got, err, c.N)
		}
	}
	for i, c := range ref.PairedMDE {
		got, err := PairedMDE(floats(c.LogRatios), float64(c.Alpha), float64(c.Power))
		what := fmt.Sprintf("paired mde %d (n=%d alpha=%v)", i, len(c.LogRatios), float64(c.Alpha))
		if math.IsInf(float64(c.MDE), 1) {
			if !math.IsInf(got, 1) || !errors.Is(err, ErrUnreachable) {
				t.Errorf("%s = %v, %v; want +Inf, ErrUnreachable", what, got, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkNear(t, what, got, float64(c.MDE), tolNormal, 0)
	}
}
