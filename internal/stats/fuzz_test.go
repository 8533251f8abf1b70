package stats

import (
	"encoding/binary"
	"math"
	"testing"
)

// fuzzFloats turns raw bytes into at most max float64s (8 bytes each, any
// bit pattern: NaN, ±Inf, subnormals and huge values included).
func fuzzFloats(raw []byte, max int) []float64 {
	n := min(len(raw)/8, max)
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return v
}

func floatBytes(v ...float64) []byte {
	b := make([]byte, 8*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(f))
	}
	return b
}

func checkP(t *testing.T, what string, p float64) {
	t.Helper()
	if !(p >= 0 && p <= 1) {
		t.Fatalf("%s: p = %v, want in [0, 1]", what, p)
	}
}

func checkEstimate(t *testing.T, what string, s Interval) {
	t.Helper()
	if !(s.Lo <= s.Estimate && s.Estimate <= s.Hi) {
		t.Fatalf("%s: interval %+v does not contain its estimate", what, s)
	}
	if !(s.Confidence >= 0 && s.Confidence < 1) {
		t.Fatalf("%s: confidence %v out of range", what, s.Confidence)
	}
}

// FuzzMannWhitney feeds arbitrary float64 samples to the rank-sum test and
// its intervals: they must not panic, and must return a p-value in [0, 1]
// and an interval around its estimate, or an error.
func FuzzMannWhitney(f *testing.F) {
	f.Add(uint8(3), floatBytes(1, 2, 3, 4, 5, 6))
	f.Add(uint8(2), floatBytes(1, 1, 1, 2))
	f.Add(uint8(1), floatBytes(math.NaN(), 0))
	f.Add(uint8(4), floatBytes(1e308, -1e308, math.Inf(1), 5e-324, 0, -0.0))
	f.Add(uint8(0), floatBytes(1, 2))
	f.Fuzz(func(t *testing.T, split uint8, raw []byte) {
		v := fuzzFloats(raw, 120)
		k := min(int(split), len(v))
		x, y := v[:k], v[k:]
		for _, m := range []Method{MethodAuto, MethodExact, MethodNormal} {
			if rs, err := MannWhitneyMethod(x, y, m); err == nil {
				checkP(t, "MannWhitney "+string(m), rs.P)
				if rs.U < 0 || rs.U > float64(len(x)*len(y)) {
					t.Fatalf("U = %v out of [0, %d]", rs.U, len(x)*len(y))
				}
			}
			if s, err := HodgesLehmannMethod(x, y, 0.95, m); err == nil {
				checkEstimate(t, "HodgesLehmann "+string(m), s)
			}
			if s, err := RatioHLMethod(x, y, 0.9, m); err == nil {
				checkEstimate(t, "RatioHL "+string(m), s)
			}
		}
		if d, err := MDE(x, y, 0.05, 0.8); err == nil && !(d >= 0) {
			t.Fatalf("MDE = %v", d)
		}
	})
}

// FuzzWilcoxonSignedRank does the same for the signed-rank test and the
// pseudo-median.
func FuzzWilcoxonSignedRank(f *testing.F) {
	f.Add(floatBytes(0.5, -0.25, 1, 2))
	f.Add(floatBytes(0, 0, 1, -1, 1))
	f.Add(floatBytes(3, 3, 3))
	f.Add(floatBytes(math.Inf(-1), 1e308, 1.7e308))
	f.Add(floatBytes(-0.0, 5e-324))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d := fuzzFloats(raw, 120)
		for _, m := range []Method{MethodAuto, MethodExact, MethodNormal} {
			if sr, err := WilcoxonSignedRankMethod(d, m); err == nil {
				checkP(t, "WilcoxonSignedRank "+string(m), sr.P)
				if sr.N < 1 || sr.V < 0 || sr.V > float64(sr.N*(sr.N+1)/2) {
					t.Fatalf("V = %v, N = %d out of range", sr.V, sr.N)
				}
			}
			if s, err := PseudoMedianMethod(d, 0.95, m); err == nil {
				checkEstimate(t, "PseudoMedian "+string(m), s)
			}
		}
		for _, adj := range [][]float64{Holm(d), BenjaminiHochberg(d)} {
			if len(adj) != len(d) {
				t.Fatalf("adjusted %d p-values, want %d", len(adj), len(d))
			}
		}
	})
}
