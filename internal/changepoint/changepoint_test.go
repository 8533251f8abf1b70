package changepoint

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// reference is one series of testdata/reference.json (see reference.R).
type reference struct {
	Name    string    `json:"name"`
	MinSize int       `json:"min_size"`
	X       []float64 `json:"x"`
	Split   struct {
		At   int     `json:"at"` // 1-based, the first point of the right segment
		Stat float64 `json:"stat"`
	} `json:"split"`
	K []struct {
		K         int   `json:"k"`
		Found     []int `json:"found"`
		Estimates []int `json:"estimates"`
	} `json:"k"`
	P            float64 `json:"p"`
	Permutations int     `json:"permutations"`
}

func loadReference(t *testing.T) []reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []reference
	if err := json.Unmarshal(data, &refs); err != nil {
		t.Fatal(err)
	}
	if len(refs) < 5 {
		t.Fatalf("only %d reference series", len(refs))
	}
	return refs
}

func distances(x []float64) []float64 {
	n := len(x)
	d := make([]float64, n*n)
	for i := range n {
		for j := range n {
			d[i*n+j] = math.Abs(x[i] - x[j])
		}
	}
	return d
}

// TestSplitMatchesECP: the best split and its statistic are ecp's
// (e.split), and the hierarchical search without a test finds ecp's k
// change points in ecp's order (e.divisive with k).
func TestSplitMatchesECP(t *testing.T) {
	for _, ref := range loadReference(t) {
		t.Run(ref.Name, func(t *testing.T) {
			d := distances(ref.X)
			n := len(ref.X)
			at, stat := bestSplit(d, n, []int{0, n}, ref.MinSize, &scratch{})
			if at+1 != ref.Split.At || math.Abs(stat-ref.Split.Stat) > 1e-9*math.Abs(ref.Split.Stat) {
				t.Errorf("split at %d (1-based) with %.12g, ecp %d with %.12g", at+1, stat, ref.Split.At, ref.Split.Stat)
			}
			for _, k := range ref.K {
				bounds := []int{0, n}
				var found []int
				for range k.K {
					at, _ := bestSplit(d, n, bounds, ref.MinSize, &scratch{})
					if at < 0 {
						break
					}
					found = append(found, at+1)
					bounds = append(bounds, at)
					slices.Sort(bounds)
				}
				if !slices.Equal(found, k.Found) {
					t.Errorf("k=%d: found %v (1-based, in order), ecp %v", k.K, found, k.Found)
				}
			}
		})
	}
}

// TestPValueMatchesECP: the first candidate's permutation p-value agrees
// with ecp's (R = 1999) within Monte Carlo error: both are estimates of
// the same exact permutation p-value from different shuffles. The
// early stop cannot be compared (it leaves a lower bound), so Alpha is
// set where it never stops.
func TestPValueMatchesECP(t *testing.T) {
	for _, ref := range loadReference(t) {
		t.Run(ref.Name, func(t *testing.T) {
			r := Detect(ref.X, Options{Alpha: 0.999, MinSize: ref.MinSize, Permutations: ref.Permutations, Seed: 1})
			var p float64
			switch {
			case len(r.Points) > 0:
				p = r.Points[0].P
				for _, pt := range r.Points {
					if pt.Index+1 == ref.Split.At {
						p = pt.P
					}
				}
			default:
				p = r.LastP
			}
			// Both estimates have a binomial standard error of at most
			// sqrt(p(1-p)/2000); allow 5 of them (of the difference) and
			// one shuffle's resolution.
			se := math.Sqrt(2*max(p*(1-p), ref.P*(1-ref.P))/float64(ref.Permutations+1)) + 1.0/float64(ref.Permutations+1)
			if math.Abs(p-ref.P) > 5*se {
				t.Errorf("p = %.4f, ecp %.4f (±%.4f)", p, ref.P, 5*se)
			}
		})
	}
}

// TestDetect: what Detect reports of known series.
func TestDetect(t *testing.T) {
	opts := Options{Alpha: 0.01, MinSize: 3, Permutations: 999, Seed: 7}
	step := make([]float64, 30)
	for i := range step {
		step[i] = 100 + float64(i%3) // noise of ±1
		if i >= 20 {
			step[i] += 20
		}
	}
	flat := make([]float64, 30)
	for i := range flat {
		flat[i] = 100 + float64((i*7)%5)
	}
	constant := slices.Repeat([]float64{26}, 30)
	tests := []struct {
		name   string
		x      []float64
		points []int
	}{
		{"a step at 20", step, []int{20}},
		{"no step", flat, nil},
		{"constant", constant, nil},
		{"too short", step[:5], nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Detect(tt.x, opts)
			var got []int
			for _, p := range r.Points {
				got = append(got, p.Index)
				if p.P > opts.Alpha || p.Permutations != opts.Permutations {
					t.Errorf("point %+v: a found point has p <= alpha from every shuffle", p)
				}
			}
			if !slices.Equal(got, tt.points) {
				t.Errorf("points %v, want %v (%+v)", got, tt.points, r)
			}
		})
	}
	r := Detect(step, opts)
	if p := r.Points[0]; p.Before != 101 || p.After != 121 {
		t.Errorf("medians before and after %v, %v; want 101, 121", p.Before, p.After)
	}
	if again := Detect(step, opts); !slices.Equal(again.Points, r.Points) || again.Permutations != r.Permutations {
		t.Error("the same series and seed gave another result")
	}
	if f := Detect(flat, opts); f.Permutations >= opts.Permutations {
		t.Errorf("a flat series drew %d shuffles: the test should stop once its decision is certain", f.Permutations)
	}
}

// TestEarlyStopKeepsDecisions: stopping once the p-value cannot reach
// alpha changes no decision of the full test with the same shuffles.
func TestEarlyStopKeepsDecisions(t *testing.T) {
	for _, ref := range loadReference(t) {
		d := distances(ref.X)
		n := len(ref.X)
		bounds := []int{0, n}
		_, stat := bestSplit(d, n, bounds, ref.MinSize, &scratch{})
		for _, alpha := range []float64{0.01, 0.05, 0.2, 0.6} {
			o := Options{Alpha: alpha, MinSize: ref.MinSize, Permutations: 499}
			early, f := permutationTest(d, n, bounds, stat, o, rand.New(rand.NewPCG(3, 4)), true)
			full, _ := permutationTest(d, n, bounds, stat, o, rand.New(rand.NewPCG(3, 4)), false)
			if (early <= alpha) != (full <= alpha) {
				t.Errorf("%s, alpha %v: early p %v after %d shuffles, full p %v", ref.Name, alpha, early, f, full)
			}
			if early <= alpha && early != full {
				t.Errorf("%s, alpha %v: a significant test stopped early (p %v, full %v)", ref.Name, alpha, early, full)
			}
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, o := range []Options{
		{Alpha: 0, MinSize: 3, Permutations: 99},
		{Alpha: 0.01, MinSize: 1, Permutations: 999},
		{Alpha: 0.001, MinSize: 3, Permutations: 99},
		{Alpha: 0.01, MinSize: 3, Permutations: 999, Exponent: 2},
	} {
		if o.Validate() == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if err := (Options{Alpha: 0.01, MinSize: 3, Permutations: 99}).Validate(); err != nil {
		t.Error(err)
	}
}

// TestLevelOnFlatSeries: on series without a change (normal and heavy-
// tailed noise), the first test rejects at most about Alpha of the time:
// the permutation test's level holds whatever the distribution.
func TestLevelOnFlatSeries(t *testing.T) {
	const n, alpha = 1000, 0.05
	for _, heavy := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(11, 12))
		found := 0
		for i := range n {
			x := make([]float64, 20)
			for j := range x {
				x[j] = rng.NormFloat64()
				if heavy {
					x[j] /= math.Abs(rng.NormFloat64()) + 0.05 // a ratio of normals: Cauchy-like tails
				}
			}
			if len(Detect(x, Options{Alpha: alpha, MinSize: 3, Permutations: 199, Seed: uint64(i)}).Points) > 0 {
				found++
			}
		}
		// Binomial(1000, 0.05): mean 50, sd 6.9; 75 is 3.6 sd above.
		if found > 75 {
			t.Errorf("heavy %v: %d of %d flat series had a change point at level %v", heavy, found, n, alpha)
		}
		t.Logf("heavy %v: %d of %d flat series had a change point at level %v", heavy, found, n, alpha)
	}
}
