package report

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// TestRunTableGeneric: a module's benchmarks print under a header naming
// the columns, each row with its package, so two packages' benchmark of
// one name are two rows told apart; a unit a benchmark lacks is "-".
func TestRunTableGeneric(t *testing.T) {
	r := results.New("go test", results.Env{})
	r.Settings.Rounds = 3
	for i, pkg := range []string{"example.com/two/a", "example.com/two/b"} {
		b := results.Benchmark{Pkg: pkg, Name: "BenchmarkJSONEncode"}
		for _, v := range []float64{400, 410, 420} {
			b.Add(results.UnitNsPerOp, v*float64(i+1))
		}
		if i == 1 {
			b.Add(results.UnitBytesPerMsg, 23)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	var out strings.Builder
	if err := RunTable(&out, r); err != nil {
		t.Fatal(err)
	}
	want := `package            benchmark            ns/op   B/msg
example.com/two/a  BenchmarkJSONEncode  410 ns  -
example.com/two/b  BenchmarkJSONEncode  820 ns  23 B

Medians of 3 samples.
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	r.Benchmarks[0].Pkg, r.Benchmarks[1].Pkg = "", ""
	out.Reset()
	RunTable(&out, r)
	if !strings.HasPrefix(out.String(), "benchmark            ns/op   B/msg\n") {
		t.Errorf("without packages:\n%s", out.String())
	}
}
