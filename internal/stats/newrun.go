package stats

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"
)

// NewRunTest is the outcome of NewRun: how far one new run lies from the
// runs it is compared with, in units of how much runs vary.
type NewRunTest struct {
	// Interval is the estimated shift x - mean(ref) with its interval at
	// Confidence: the shift ± t(DF) · SE.
	Interval
	// S is the pooled standard deviation of one run, with DF degrees of
	// freedom; SE = S · sqrt(1 + 1/len(ref)) is the standard error of the
	// shift (S · sqrt(1/len(xs) + 1/len(ref)) for NewRuns).
	S, SE, DF float64
	// T is the shift over SE and P its two-sided p-value under Student's t
	// with DF degrees of freedom.
	T, P float64
}

// NewRun tests whether x, the value of one new run (a benchmark's log
// median, say), comes from the same distribution as the runs ref, the
// replicates it is compared with, when single runs vary with a standard
// deviation that must itself be estimated. other are further runs that
// only inform that spread: their level may differ from ref's (other code,
// say), so each group varies around its own mean. Under the model that
// every run is normal with one standard deviation s, and x shares ref's
// mean under the null,
//
//	s² = (Σ(ref - mean(ref))² + Σ(other - mean(other))²) / DF,
//	DF = (len(ref) - 1) + max(len(other) - 1, 0),
//	SE = s · sqrt(1 + 1/len(ref)),
//	T  = (x - mean(ref)) / SE ~ t(DF),
//
// the prediction interval of one new observation, generalised to a spread
// pooled over groups (with other empty it is exactly that). The interval
// is (x - mean(ref)) ± t(1-(1-confidence)/2, DF) · SE. The values are
// checked against R (testdata/newrun.R).
//
// It needs DF >= 1 (ErrTooFew otherwise), finite values, and a non-zero
// spread (ErrAllEqual when every group is constant).
func NewRun(x float64, ref, other []float64, confidence float64) (NewRunTest, error) {
	return NewRuns([]float64{x}, ref, other, confidence)
}

// NewRuns is NewRun for several new runs xs of one code (the go test
// processes of a candidate's benchmark output, say): their mean is
// compared with ref's, and their spread around their own mean joins the
// pooled spread and its degrees of freedom,
//
//	s² = (Σ(ref - mean(ref))² + Σ(xs - mean(xs))² + Σ(other - mean(other))²) / DF,
//	DF = (len(ref) - 1) + (len(xs) - 1) + max(len(other) - 1, 0),
//	SE = s · sqrt(1/len(xs) + 1/len(ref)),
//	T  = (mean(xs) - mean(ref)) / SE ~ t(DF).
//
// With one new run it is NewRun; with other empty it is Student's
// two-sample t-test with pooled variance (R's t.test with var.equal =
// TRUE, against which testdata/newrun.R checks it).
func NewRuns(xs, ref, other []float64, confidence float64) (NewRunTest, error) {
	t, err := newRuns(xs, ref, other, 0, confidence)
	if err != nil {
		return NewRunTest{}, fmt.Errorf("stats: new-run test: %w", err)
	}
	return t, nil
}

// NewRunsFloor is NewRuns with the spread of one run taken as at least
// minS: s = max(pooled s, minS), on the same degrees of freedom. It is
// for runs whose spread is known not to be smaller than minS from
// elsewhere (the spread of a counted run's processes bounds how much its
// median can move), when the few runs at hand may happen to agree more
// closely: the test can only become more conservative than NewRuns.
// Runs that all agree are then tested against minS (ErrAllEqual only
// when minS is 0 too). minS must be finite and >= 0.
func NewRunsFloor(xs, ref, other []float64, minS, confidence float64) (NewRunTest, error) {
	t, err := newRuns(xs, ref, other, minS, confidence)
	if err != nil {
		return NewRunTest{}, fmt.Errorf("stats: new-run test with a floor: %w", err)
	}
	return t, nil
}

func newRuns(xs, ref, other []float64, minS, confidence float64) (NewRunTest, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return NewRunTest{}, err
	}
	if !(minS >= 0) || math.IsInf(minS, 1) {
		return NewRunTest{}, fmt.Errorf("minS = %v, want finite and >= 0: %w", minS, ErrArgument)
	}
	if err := checkSample("x", xs, 1); err != nil {
		return NewRunTest{}, err
	}
	if err := checkSample("ref", ref, 1); err != nil {
		return NewRunTest{}, err
	}
	if err := checkSample("other", other, 0); err != nil {
		return NewRunTest{}, err
	}
	ss, df := sumSquares(ref)
	for _, g := range [][]float64{xs, other} {
		if len(g) > 1 {
			ssg, dfg := sumSquares(g)
			ss, df = ss+ssg, df+dfg
		}
	}
	if df < 1 {
		return NewRunTest{}, fmt.Errorf("%d reference, %d new and %d other runs leave no degree of freedom for the spread: %w", len(ref), len(xs), len(other), ErrTooFew)
	}
	if ss == 0 && minS == 0 {
		return NewRunTest{}, fmt.Errorf("every run has the same value: %w", ErrAllEqual)
	}
	s := math.Max(math.Sqrt(ss/df), minS)
	se := s * math.Sqrt(1/float64(len(xs))+1/float64(len(ref)))
	shift := mean(xs) - mean(ref)
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	half := dist.Quantile(1-(1-confidence)/2) * se
	t := shift / se
	res := NewRunTest{
		Interval: Interval{Estimate: shift, Lo: shift - half, Hi: shift + half, Confidence: confidence},
		S:        s, SE: se, DF: df, T: t,
		P: math.Min(1, 2*dist.Survival(math.Abs(t))),
	}
	if err := finiteInterval(res.Interval); err != nil {
		return NewRunTest{}, err
	}
	return res, nil
}

// NewRunMDE returns the smallest shift (in the units of se) that the
// two-sided NewRun test at level alpha detects with the given power, for
// a standard error se with df degrees of freedom: d = ncp · se, where ncp
// solves P(|T'| > t(1-alpha/2, df)) = power for T' noncentral t with df
// degrees of freedom and noncentrality ncp (R's pt with ncp; checked
// against R in testdata/newrun.R). It is what a comparison judged by
// NewRun could see. se must be finite and > 0, df >= 1.
func NewRunMDE(se, df, alpha, power float64) (float64, error) {
	d, err := newRunMDE(se, df, alpha, power)
	if err != nil {
		return 0, fmt.Errorf("stats: new-run minimum detectable effect: %w", err)
	}
	return d, nil
}

// ncpKey is what the noncentrality newRunMDE solves for depends on.
type ncpKey struct{ df, alpha, power float64 }

// ncps are the noncentralities newRunMDE solved, by ncpKey: a
// comparison's detectable change and the samples it would need
// (compare's Sensitivity) solve the same few again and again, a
// hundred bisections of the noncentral t each. At most maxNCPs are
// kept (Welch's degrees of freedom are not whole numbers).
var (
	ncps    sync.Map
	ncpsLen atomic.Int64
)

const maxNCPs = 1 << 14

func newRunMDE(se, df, alpha, power float64) (float64, error) {
	if err := checkLevel("alpha", alpha); err != nil {
		return 0, err
	}
	if err := checkLevel("power", power); err != nil {
		return 0, err
	}
	if !(se > 0) || math.IsInf(se, 1) {
		return 0, fmt.Errorf("se = %v, want finite and > 0: %w", se, ErrArgument)
	}
	if !(df >= 1) || math.IsInf(df, 1) {
		return 0, fmt.Errorf("df = %v, want finite and >= 1: %w", df, ErrArgument)
	}
	key := ncpKey{df, alpha, power}
	if ncp, ok := ncps.Load(key); ok {
		return ncp.(float64) * se, nil
	}
	ncp, err := solveNCP(df, alpha, power)
	if err != nil {
		return 0, err
	}
	if ncpsLen.Load() < maxNCPs {
		if _, had := ncps.LoadOrStore(key, ncp); !had {
			ncpsLen.Add(1)
		}
	}
	return ncp * se, nil
}

// solveNCP is the noncentrality ncp of newRunMDE: P(|T'| > t(1-alpha/2,
// df)) = power.
func solveNCP(df, alpha, power float64) (float64, error) {
	crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - alpha/2)
	reach := func(ncp float64) float64 {
		nt := distuv.NoncentralT{Nu: df, Mu: ncp}
		power := 1 - nt.CDF(crit)
		// The far tail P(T' < -crit) is below Φ(-ncp): negligible beyond
		// ncp 8, and past ncp 38 gonum's approximation of it (Abramowitz
		// and Stegun 26.7.10, which R's pt also switches to there) takes
		// the wrong tail for negative t.
		if ncp < 8 {
			power += nt.CDF(-crit)
		}
		return power
	}
	// The power grows with the noncentrality: bracket, then bisect.
	lo, hi := 0.0, 1.0
	for reach(hi) < power {
		lo, hi = hi, 2*hi
		if hi > 1e9 {
			return 0, fmt.Errorf("no noncentrality below 1e9 reaches power %v: %w", power, ErrUnreachable)
		}
	}
	for range 100 {
		mid := (lo + hi) / 2
		if reach(mid) < power {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-13*hi {
			break
		}
	}
	return (lo + hi) / 2, nil
}

// sumSquares is the sum of squared deviations of v from its mean, and its
// degrees of freedom len(v) - 1.
func sumSquares(v []float64) (ss, df float64) {
	m := mean(v)
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return ss, float64(len(v) - 1)
}

// mean is the arithmetic mean of non-empty v.
func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// Dispersion is the inflation factor λ of the new-run tests ts of one
// run, each against its own benchmark's history: the median over the
// tests of T²/m(DF), where m(df) = t(0.75, df)² is the median of T²
// under the null (T² ~ F(1, df)), and never below 1. It is genomic
// control (Devlin and Roeder, "Genomic control for association studies",
// Biometrics 1999), applied to benchmarks: every benchmark of the run is
// tested against the same history, most are unchanged by any one change,
// so when the run's tests are spread wider than the null allows the
// history's runs varied less than runs at other times do (runs made back
// to back, a machine that drifted since) and every test is inflated by
// the same factor. The median lets a minority of changed benchmarks
// barely move it. Dividing every T by sqrt(λ) (NewRunTest.Inflate)
// keeps the error rate where the history understates the spread, and
// changes nothing where it does not (λ = 1).
//
// It needs at least one test, every one with DF >= 1 and a finite T.
func Dispersion(ts []NewRunTest) (float64, error) {
	if len(ts) == 0 {
		return 0, fmt.Errorf("stats: dispersion: no tests: %w", ErrTooFew)
	}
	r := make([]float64, len(ts))
	for i, t := range ts {
		if !(t.DF >= 1) || math.IsInf(t.DF, 1) || math.IsNaN(t.T) || math.IsInf(t.T, 0) {
			return 0, fmt.Errorf("stats: dispersion: test %d has T = %v on %v degrees of freedom, want finite T on DF >= 1: %w", i, t.T, t.DF, ErrArgument)
		}
		q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.DF}.Quantile(0.75)
		r[i] = t.T * t.T / (q * q)
	}
	m, err := Median(r)
	if err != nil {
		return 0, fmt.Errorf("stats: dispersion: %w", err)
	}
	return math.Max(m, 1), nil
}

// Inflate returns t with its standard error (and the spread S) multiplied
// by f: T divided by f, and P and the interval, at t's confidence,
// recomputed on the same degrees of freedom. An f below 1 or not finite
// returns t unchanged: inflation only ever widens.
func (t NewRunTest) Inflate(f float64) NewRunTest {
	if !(f > 1) || math.IsInf(f, 1) {
		return t
	}
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.DF}
	t.S, t.SE, t.T = t.S*f, t.SE*f, t.T/f
	half := dist.Quantile(1-(1-t.Confidence)/2) * t.SE
	t.Lo, t.Hi = t.Estimate-half, t.Estimate+half
	t.P = math.Min(1, 2*dist.Survival(math.Abs(t.T)))
	return t
}

// WelchTest is the outcome of Welch: the difference of two means with its
// interval, standard error, degrees of freedom and test.
type WelchTest struct {
	// Interval is the estimated difference mean(y) - mean(x) with its
	// interval at Confidence: the difference ± t(DF) · SE.
	Interval
	// SE is the standard error of the difference and DF its
	// Welch–Satterthwaite degrees of freedom.
	SE, DF float64
	// T is the difference over SE and P its two-sided p-value under
	// Student's t with DF degrees of freedom.
	T, P float64
}

// PairedT is the paired t test of y against x: the one-sample t test of
// the differences y[i] - x[i], each pair measured under the same
// conditions, as R's t.test(y, x, paired = TRUE) computes it (checked
// against R in testdata/newrun.R). What the pairs share cancels in their
// difference: counts of base and head processes that drew the same
// random inputs. The result's fields mean what Welch's do, with
// SE = sd(d)/sqrt(n) and DF = n - 1. It needs at least 2 pairs; when
// every difference is the same there is no spread: ErrAllEqual.
func PairedT(x, y []float64, confidence float64) (WelchTest, error) {
	t, err := pairedT(x, y, confidence)
	if err != nil {
		return WelchTest{}, fmt.Errorf("stats: paired t test: %w", err)
	}
	return t, nil
}

func pairedT(x, y []float64, confidence float64) (WelchTest, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return WelchTest{}, err
	}
	if len(x) != len(y) {
		return WelchTest{}, fmt.Errorf("%d values of x and %d of y do not pair", len(x), len(y))
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = y[i] - x[i]
	}
	if err := checkSample("the differences", d, 2); err != nil {
		return WelchTest{}, err
	}
	ss, df := sumSquares(d)
	if ss == 0 {
		return WelchTest{}, fmt.Errorf("every pair differs by the same: %w", ErrAllEqual)
	}
	return tTest(mean(d), math.Sqrt(ss/df/float64(len(d))), df, confidence)
}

// tTest is the t test of an estimate diff with standard error se and df
// degrees of freedom: its interval at confidence, t and two-sided p
// under Student's t, what Welch and PairedT share.
func tTest(diff, se, df, confidence float64) (WelchTest, error) {
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	half := dist.Quantile(1-(1-confidence)/2) * se
	t := diff / se
	res := WelchTest{
		Interval: Interval{Estimate: diff, Lo: diff - half, Hi: diff + half, Confidence: confidence},
		SE:       se, DF: df, T: t,
		P: math.Min(1, 2*dist.Survival(math.Abs(t))),
	}
	if err := finiteInterval(res.Interval); err != nil {
		return WelchTest{}, err
	}
	return res, nil
}

// Welch is Welch's two-sample t test of mean(y) against mean(x), each
// sample with its own variance: SE² = var(x)/len(x) + var(y)/len(y),
// DF by the Welch–Satterthwaite equation, as R's t.test(y, x) computes
// them (checked against R in testdata/newrun.R). Each sample needs at
// least 2 values. When both samples are constant there is no spread to
// test against: ErrAllEqual (the caller decides: equal means are no
// change, different ones a certain one).
func Welch(x, y []float64, confidence float64) (WelchTest, error) {
	t, err := welch(x, y, confidence)
	if err != nil {
		return WelchTest{}, fmt.Errorf("stats: Welch's t test: %w", err)
	}
	return t, nil
}

func welch(x, y []float64, confidence float64) (WelchTest, error) {
	if err := checkLevel("confidence", confidence); err != nil {
		return WelchTest{}, err
	}
	if err := checkSample("x", x, 2); err != nil {
		return WelchTest{}, err
	}
	if err := checkSample("y", y, 2); err != nil {
		return WelchTest{}, err
	}
	ssx, dfx := sumSquares(x)
	ssy, dfy := sumSquares(y)
	vx, vy := ssx/dfx/float64(len(x)), ssy/dfy/float64(len(y))
	if vx+vy == 0 {
		return WelchTest{}, fmt.Errorf("both samples are constant: %w", ErrAllEqual)
	}
	df := (vx + vy) * (vx + vy) / (vx*vx/dfx + vy*vy/dfy)
	return tTest(mean(y)-mean(x), math.Sqrt(vx+vy), df, confidence)
}
