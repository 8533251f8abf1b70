package source

import (
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/results"
)

// TestShare: a timed budget for a selection whose packages are partly
// unmeasured is cut to the measured benchmarks' share of the reference,
// so that each benchmark gets the time it would have had.
func TestShare(t *testing.T) {
	ref := results.New(GoTestSuite, results.Env{})
	for _, pkg := range []string{"a", "a", "a", "b"} {
		ref.Benchmarks = append(ref.Benchmarks, results.Benchmark{Pkg: pkg, Name: "BenchmarkX" + string(rune('0'+len(ref.Benchmarks)))})
	}
	for _, tt := range []struct {
		name       string
		ref        *results.Results
		unmeasured []string
		want       time.Duration
	}{
		{"nothing unmeasured", ref, nil, 40 * time.Second},
		{"no reference", nil, []string{"a"}, 40 * time.Second},
		{"three of four unmeasured", ref, []string{"a"}, 10 * time.Second},
		{"one of four unmeasured", ref, []string{"b"}, 30 * time.Second},
	} {
		if got := share(40*time.Second, tt.ref, tt.unmeasured); got != tt.want {
			t.Errorf("%s: share = %s, want %s", tt.name, got, tt.want)
		}
	}
}
