// Package changepoint finds step changes in a series: the runs of one
// benchmark's metric in a baseline's history, one point a run.
//
// Two methods, for two kinds of series. Steps is for series whose noise
// is tiny and close to normal (counts of executed instructions): each run
// is tested, as it arrives, against the runs since the last step, so that
// a step is found by the first or second run after it (see Steps).
// Detect is for series with heavy tails (timings), where only a
// distribution-free test holds its level:
//
// The method is E-divisive means (Matteson and James, "A Nonparametric
// Approach for Multiple Change Point Analysis of Multivariate Data",
// JASA 109(505), 2014), as R's ecp package implements it (e.divisive,
// ecp 3.1.6): the energy distance between the segments before and after
// a candidate point, searched over every split and end point of every
// segment (splitPointC), found one change point at a time (hierarchical
// divisive), each tested with a permutation test: the points are
// shuffled within the current segments, the best split of the shuffled
// series found again, and the p-value is the share of shuffles that did
// as well, (1 + over)/(1 + permutations). That test is what controls the
// false positives: under no change, with exchangeable points, any
// distribution (heavy tails included), a series shows a change point
// with probability at most Alpha. MongoDB's performance CI (Daly et al.,
// "Change Point Detection in Software Performance Testing", ICPE 2020)
// runs the same algorithm on its benchmark histories; Apache Otava
// (formerly DataStax's Hunter: Fleming et al., ICPE 2023) offers it too,
// and by default replaces the permutation test by Student's t test of
// the two segments, which is faster but whose p-value, taken at the best
// of all splits, is not a test of level alpha. wirebench keeps the
// permutation test.
//
// Two choices differ from ecp's defaults, both for short histories (30
// to 50 runs): segments need MinSize points (ecp's default 30 would need
// 60 runs), and the test stops as soon as its decision is certain: once
// over+1 exceeds Alpha·(1+Permutations) no further shuffle can bring the
// p-value to Alpha, which makes a series without a change cheap (a few
// dozen shuffles) and leaves every decision as the full test would make
// it (ecp's own early stopping, getBounds, is commented out). Shuffles
// are drawn from a seeded generator: the same series and options always
// give the same change points.
package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/wirebench/wirebench/internal/stats"
)

// Options tune Detect.
type Options struct {
	// Alpha is the level of each change point's permutation test.
	Alpha float64
	// MinSize is the fewest points of a segment, at least 2.
	MinSize int
	// Permutations is the most shuffles one test draws. A p-value is at
	// least 1/(1+Permutations), so it must be at least 1/Alpha-1 for a
	// change to be found at all; a few times that makes the test's
	// decision depend little on the draw.
	Permutations int
	// Exponent is the power of the distances, in (0, 2): ecp's alpha, 1
	// by default (0 means 1).
	Exponent float64
	// Seed seeds the shuffles.
	Seed uint64
}

// Validate reports options Detect cannot work with.
func (o Options) Validate() error {
	switch {
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("changepoint: Alpha %v is not in (0, 1)", o.Alpha)
	case o.MinSize < 2:
		return fmt.Errorf("changepoint: MinSize %d is below 2", o.MinSize)
	case float64(o.Permutations+1)*o.Alpha < 1:
		return fmt.Errorf("changepoint: %d permutations cannot give a p-value of %v (they need at least %d)", o.Permutations, o.Alpha, int(math.Ceil(1/o.Alpha))-1)
	case o.Exponent < 0 || o.Exponent >= 2:
		return fmt.Errorf("changepoint: Exponent %v is not in (0, 2)", o.Exponent)
	}
	return nil
}

// Point is one change point.
type Point struct {
	// Index is the first point after the change: the series changed
	// between Index-1 and Index.
	Index int
	// Stat is the energy statistic of the split (ecp's "energy released"),
	// or for Steps the test's Student's t.
	Stat float64
	// P is the permutation test's p-value, from Permutations shuffles
	// (for Steps, the t test's, Permutations 0).
	P            float64
	Permutations int
	// Runs is, for Steps, how many runs after the step its test saw; 0
	// for Detect.
	Runs int
	// Before and After are the medians of the segments on either side
	// (of the final segmentation), in the series' unit.
	Before, After float64
}

// Result is what Detect found.
type Result struct {
	// Points are the change points, by Index.
	Points []Point
	// Tests is how many candidates were tested (the last one, when it
	// was not significant, included), Permutations how many shuffles they
	// drew.
	Tests, Permutations int
	// LastP is the p-value of the candidate that was not significant,
	// a lower bound when its test stopped early; NaN when none was left
	// to test (a series too short to split).
	LastP float64
}

// Detect finds the change points of x (ecp's e.divisive with sig.lvl
// o.Alpha, R o.Permutations, min.size o.MinSize, alpha o.Exponent). It
// panics on options Validate refuses. A series shorter than 2·MinSize has
// no change point.
func Detect(x []float64, o Options) Result {
	if err := o.Validate(); err != nil {
		panic(err)
	}
	exp := o.Exponent
	if exp == 0 {
		exp = 1
	}
	n := len(x)
	d := make([]float64, n*n)
	for i := range n {
		for j := range n {
			d[i*n+j] = math.Pow(math.Abs(x[i]-x[j]), exp)
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	res := Result{LastP: math.NaN()}
	bounds := []int{0, n} // segments [bounds[k], bounds[k+1])
	var sc scratch
	for {
		at, stat := bestSplit(d, n, bounds, o.MinSize, &sc)
		if at < 0 {
			break
		}
		res.Tests++
		p, f := permutationTest(d, n, bounds, stat, o, rng, true)
		res.Permutations += f
		if p > o.Alpha {
			res.LastP = p
			break
		}
		res.Points = append(res.Points, Point{Index: at, Stat: stat, P: p, Permutations: f})
		bounds = append(bounds, at)
		slices.Sort(bounds)
	}
	slices.SortFunc(res.Points, func(a, b Point) int { return a.Index - b.Index })
	for i := range res.Points {
		lo, hi := 0, n
		if i > 0 {
			lo = res.Points[i-1].Index
		}
		if i+1 < len(res.Points) {
			hi = res.Points[i+1].Index
		}
		res.Points[i].Before, _ = stats.Median(x[lo:res.Points[i].Index])
		res.Points[i].After, _ = stats.Median(x[res.Points[i].Index:hi])
	}
	return res
}

// permutationTest is ecp's sig.test of a candidate whose statistic is
// stat, the series split at bounds: it shuffles the points within each
// segment, finds the best split of the shuffled series, and counts the
// shuffles that reach stat. With stop, it stops once the p-value can no
// longer reach o.Alpha. It returns the p-value, (1+over)/(1+shuffles),
// and the shuffles drawn.
func permutationTest(d []float64, n int, bounds []int, stat float64, o Options, rng *rand.Rand, stop bool) (float64, int) {
	perm := make([]int, n)
	shuffled := make([]float64, n*n)
	var sc scratch
	over, f := 0, 0
	limit := o.Alpha * float64(o.Permutations+1)
	for f < o.Permutations {
		f++
		for i := range perm {
			perm[i] = i
		}
		for k := 0; k+1 < len(bounds); k++ {
			seg := perm[bounds[k]:bounds[k+1]]
			rng.Shuffle(len(seg), func(i, j int) { seg[i], seg[j] = seg[j], seg[i] })
		}
		for i, pi := range perm {
			row, from := shuffled[i*n:(i+1)*n], d[pi*n:(pi+1)*n]
			for j, pj := range perm {
				row[j] = from[pj]
			}
		}
		if _, s := bestSplit(shuffled, n, bounds, o.MinSize, &sc); s >= stat {
			over++
			if stop && float64(over+1) > limit {
				break // the p-value can no longer reach Alpha
			}
		}
	}
	return float64(1+over) / float64(1+f), f
}

// scratch is splitPoint's working memory, kept from call to call: the
// running sums, and the coefficients of the statistic for every split t1
// and end t2 of a segment of up to size points (index t1·(size+1)+t2),
// so that the inner loop multiplies where ecp divides.
type scratch struct {
	b, ab       []float64
	size        int
	ca, cb, cab []float64
}

// coefficients makes sure the scratch holds the coefficients and sums
// for segments of up to size points: Q = cab·AB − cb·B − ca·A, where
//
//	cab = 2/((t2−t1)·t1)·f, cb = 2/((t2−t1−1)(t2−t1))·f, ca = 2/((t1−1)·t1)·f,
//
// f = t1(t2−t1)/t2.
func (sc *scratch) coefficients(size int) {
	if size <= sc.size {
		return
	}
	w := size + 1
	sc.size = size
	sc.b, sc.ab = make([]float64, w), make([]float64, w)
	sc.ca, sc.cb, sc.cab = make([]float64, w*w), make([]float64, w*w), make([]float64, w*w)
	for t1 := 2; t1 <= size; t1++ {
		for t2 := t1 + 2; t2 <= size; t2++ {
			f1, f2 := float64(t1), float64(t2)
			f := f1 * (f2 - f1) / f2
			k := t1*w + t2
			sc.cab[k] = 2 / ((f2 - f1) * f1) * f
			sc.cb[k] = 2 / ((f2 - f1 - 1) * (f2 - f1)) * f
			sc.ca[k] = 2 / ((f1 - 1) * f1) * f
		}
	}
}

// bestSplit is ecp's e.split: the best split point over all segments of
// the series whose distances are d (n×n, row-major), and its statistic;
// -1 when no segment can be split.
func bestSplit(d []float64, n int, bounds []int, minSize int, sc *scratch) (int, float64) {
	at, best := -1, math.Inf(-1)
	for k := 0; k+1 < len(bounds); k++ {
		if a, s := splitPoint(d, n, bounds[k], bounds[k+1], minSize, sc); a >= 0 && s > best {
			at, best = a, s
		}
	}
	return at, best
}

// splitPoint is ecp's splitPointC on the segment [s, e): for every split
// t1 and end t2 with at least minSize points on each side, the scaled
// energy distance between [s, s+t1) and [s+t1, s+t2),
//
//	Q = t1·m/(t1+m) · (2/(t1·m)·Σ|X-Y| − 2/(m(m−1))·Σ|Y-Y'| − 2/(t1(t1−1))·Σ|X-X'|),
//
// m = t2−t1, updated incrementally in O((e−s)²). It returns the first
// point of the right part of the best split (s+t1) and its Q, -1 when the
// segment is shorter than 2·minSize. Ties keep the first found, in ecp's
// order (t1 ascending, then t2).
func splitPoint(d []float64, n, s, e, minSize int, sc *scratch) (int, float64) {
	size := e - s
	if size < 2*minSize {
		return -1, math.Inf(-1)
	}
	// row(i) is the distances of the segment's point i to its points.
	row := func(i int) []float64 { return d[(s+i)*n+s : (s+i)*n+e] }
	sum := func(r []float64) float64 {
		var t float64
		for _, v := range r {
			t += v
		}
		return t
	}
	t1, t2 := minSize, 2*minSize
	var a, b1, ab1 float64
	for i := 0; i < t1; i++ {
		a += sum(row(i)[i+1 : t1])
		ab1 += sum(row(i)[t1:t2])
	}
	for i := t1; i < t2; i++ {
		b1 += sum(row(i)[i+1 : t2])
	}
	sc.coefficients(size)
	w := sc.size + 1
	stat := func(t1, t2 int, a, b, ab float64) float64 {
		k := t1*w + t2
		return sc.cab[k]*ab - sc.cb[k]*b - sc.ca[k]*a
	}
	bestAt, best := s+t1, stat(t1, t2, a, b1, ab1)
	bb, abab := sc.b[:size+1], sc.ab[:size+1]
	for i := range bb {
		bb[i], abab[i] = b1, ab1
	}
	for t2 = 2*minSize + 1; t2 <= size; t2++ {
		r := row(t2 - 1)
		bb[t2] = bb[t2-1] + sum(r[t1:t2-1])
		abab[t2] = abab[t2-1] + sum(r[:t1])
		if q := stat(t1, t2, a, bb[t2], abab[t2]); q > best {
			bestAt, best = s+t1, q
		}
	}
	for t1 = minSize + 1; ; t1++ {
		t2 = t1 + minSize
		if t2 > size {
			break
		}
		r := row(t1 - 1)
		addA := sum(r[:t1-1])
		a += addA
		addB := sum(r[t1 : t2-1])
		for ; t2 <= size; t2++ {
			addB += r[t2-1]
			bb[t2] -= addB
			abab[t2] += addB - addA
			if q := stat(t1, t2, a, bb[t2], abab[t2]); q > best {
				bestAt, best = s+t1, q
			}
		}
	}
	return bestAt, best
}
