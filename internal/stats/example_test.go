package stats_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/wirebench/wirebench/internal/stats"
)

// Timings of one benchmark in ns/op: the candidate is about 10% slower.
var (
	baseNs = []float64{1000, 1012, 991, 1005, 998, 1009, 994, 1003}
	candNs = []float64{1101, 1095, 1112, 1098, 1107, 1090, 1104, 1110}
)

// Every candidate sample is slower than every baseline sample, which with
// 8 values a side is as strong as the rank-sum test gets:
// p = 2/C(16, 8).
func ExampleMannWhitney() {
	rs, err := stats.MannWhitney(baseNs, candNs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("U = %.0f, p = %.5f (%s, n = %d and %d)\n", rs.U, rs.P, rs.Method, rs.N1, rs.N2)
	// Output:
	// U = 0, p = 0.00016 (exact, n = 8 and 8)
}

// Samples that are all the same hold no evidence of a change: the test
// says so with ErrAllEqual rather than a p-value.
func ExampleMannWhitney_allEqual() {
	_, err := stats.MannWhitney([]float64{3, 3, 3}, []float64{3, 3})
	fmt.Println(errors.Is(err, stats.ErrAllEqual))
	// Output:
	// true
}

// RatioHL estimates how many times slower the candidate is, with the
// interval of the same rank test as MannWhitney.
func ExampleRatioHL() {
	r, err := stats.RatioHL(baseNs, candNs, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("ratio %.3f [%.3f, %.3f] at %.0f%%\n", r.Estimate, r.Lo, r.Hi, 100*r.Confidence)
	// Output:
	// ratio 1.100 [1.092, 1.109] at 95%
}

// The paired design: per-round log ratios of the candidate's time over
// the baseline's, tested with the signed-rank test and estimated by their
// pseudo-median.
func ExamplePseudoMedian() {
	lr := make([]float64, len(baseNs))
	for i := range baseNs {
		lr[i] = math.Log(candNs[i] / baseNs[i])
	}
	sr, err := stats.WilcoxonSignedRank(lr)
	if err != nil {
		fmt.Println(err)
		return
	}
	pm, err := stats.PseudoMedian(lr, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("V = %.0f, p = %.4f\n", sr.V, sr.P)
	fmt.Printf("ratio %.3f [%.3f, %.3f]\n", math.Exp(pm.Estimate), math.Exp(pm.Lo), math.Exp(pm.Hi))
	// Output:
	// V = 36, p = 0.0078
	// ratio 1.101 [1.086, 1.114]
}

// Holm adjusts the p-values of a run together, in their order: the
// smallest is multiplied by their number, the next by one less, and so on,
// never decreasing.
func ExampleHolm() {
	p := []float64{0.01, 0.04, 0.03, 0.005, math.NaN()}
	fmt.Printf("%.3g\n", stats.Holm(p))
	// Output:
	// [0.03 0.06 0.06 0.02 NaN]
}

// The false discovery rate adjustment is less strict than Holm.
func ExampleBenjaminiHochberg() {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	fmt.Printf("%.3g\n", stats.BenjaminiHochberg(p))
	// Output:
	// [0.02 0.04 0.04 0.02]
}

// MDE says how small a change these samples could detect at the level a
// gate uses, and SamplesFor how many samples a side would detect a 1%
// change.
func ExampleMDE() {
	mde, err := stats.MDE(baseNs, candNs, 0.01, 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, err := stats.SamplesFor(baseNs, candNs, 0.01, 0.01, 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("detectable: %.1f%%; for 1%%: %d samples a side\n", 100*mde, n)
	// Output:
	// detectable: 1.4%; for 1%: 17 samples a side
}

// A benchmark's log median in six runs of the same code, and in a new run
// 12% slower: outside what six runs show, even at the strict level of a
// Holm adjustment over 84 timings? (The same numbers from R: t 14.44, p
// 2.87e-05, interval [0.0932, 0.1335], detectable +10.86%.)
func ExampleNewRun() {
	runs := []float64{0.004, -0.011, 0.009, 0.001, -0.006, 0.003}
	t, err := stats.NewRun(math.Log(1.12), runs, nil, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("shift %+.3f [%+.3f, %+.3f], t = %.1f on %.0f df, p = %.2g\n", t.Estimate, t.Lo, t.Hi, t.T, t.DF, t.P)
	mde, _ := stats.NewRunMDE(t.SE, t.DF, 0.01/84, 0.8)
	fmt.Printf("significant at 0.01/84: %v; detectable with 80%% power: %+.1f%%\n", t.P < 0.01/84, 100*math.Expm1(mde))
	// Output:
	// shift +0.113 [+0.093, +0.134], t = 14.4 on 5 df, p = 2.9e-05
	// significant at 0.01/84: true; detectable with 80% power: +10.9%
}
