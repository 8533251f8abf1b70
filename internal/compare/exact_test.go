package compare

import (
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// TestExactNeedsBatchIndependence: allocations are compared exactly only
// when every sample of each side agrees and the value does not depend on
// the batch size: both sides share a batch size, or each side agrees
// across different ones. A per-operation average at 9 iterations against
// one at 1 (fixed costs amortised) is tested instead, and 11 bytes of 3.6
// MB is within the threshold.
func TestExactNeedsBatchIndependence(t *testing.T) {
	const small, large = 3618485, 3618496
	tests := []struct {
		name       string
		bv, cv     float64
		bn, cn     []int64
		wantKind   Kind
		wantResult Verdict
	}{
		{"9 against 1 iterations", small, large, []int64{9, 9, 9}, []int64{1, 1, 1}, Noisy, Unchanged},
		{"same batch size", small, large, []int64{9, 9, 9}, []int64{9, 9, 9}, Exact, Regression},
		{"one batch size in common", small, large, []int64{9, 9, 9}, []int64{1, 9, 1}, Exact, Regression},
		{"each side across batch sizes", small, large, []int64{8, 9, 8}, []int64{1, 3, 2}, Exact, Regression},
		{"only one side across batch sizes", small, large, []int64{8, 9, 8}, []int64{1, 1, 1}, Noisy, Unchanged},
		{"iterations not recorded", small, large, nil, nil, Exact, Regression},
		{"equal values", small, small, []int64{9, 9, 9}, []int64{1, 1, 1}, Noisy, Unchanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mk := func(v float64, n []int64) *results.Results {
				r := results.New("default", results.Env{})
				b := results.Benchmark{Name: "BenchmarkSerialize/codec=flatbuffers/dataset=floats-64k", Iterations: n}
				for range 3 {
					b.Add(results.UnitBytesPerOp, v)
					b.Add(results.UnitNsPerOp, 5e6)
				}
				r.Benchmarks = append(r.Benchmarks, b)
				return r
			}
			res, err := Compare(mk(tt.bv, tt.bn), mk(tt.cv, tt.cn), Defaults())
			if err != nil {
				t.Fatal(err)
			}
			c := find(t, res, "BenchmarkSerialize/codec=flatbuffers/dataset=floats-64k", results.UnitBytesPerOp)
			if c.Kind != tt.wantKind || c.Verdict != tt.wantResult {
				t.Errorf("kind %s verdict %s, want %s %s", c.Kind, c.Verdict, tt.wantKind, tt.wantResult)
			}
			if wantFail := tt.wantResult == Regression; res.Failed(FailOnRegression) != wantFail {
				t.Errorf("failed %v, want %v", res.Failed(FailOnRegression), wantFail)
			}
		})
	}
}
