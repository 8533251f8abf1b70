package compare_test

import (
	"fmt"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// run returns results of one machine with, for each benchmark, its ns/op
// samples and its encoded size.
func run(ns map[string][]float64, size map[string]float64, names ...string) *results.Results {
	r := results.New("default", results.Env{Machine: "ci-1", CPU: "x86", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 4})
	for _, name := range names {
		b := results.Benchmark{Name: name}
		for _, v := range ns[name] {
			b.Add(results.UnitNsPerOp, v)
		}
		b.Add(results.UnitBytesPerMsg, size[name])
		r.Benchmarks = append(r.Benchmarks, b)
	}
	return r
}

// The JSON codec became about 20% slower and its messages 4 bytes larger;
// protobuf did not change.
func ExampleCompare() {
	const jsonSmall, protoSmall = "BenchmarkSerialize/codec=json/dataset=small", "BenchmarkSerialize/codec=protobuf/dataset=small"
	base := run(map[string][]float64{
		jsonSmall:  {1000, 1010, 995, 1004, 998, 1007, 1001, 993, 1012, 999},
		protoSmall: {400, 402, 399, 401, 398, 403, 400, 397, 402, 401},
	}, map[string]float64{jsonSmall: 120, protoSmall: 64}, jsonSmall, protoSmall)
	cand := run(map[string][]float64{
		jsonSmall:  {1204, 1195, 1210, 1199, 1188, 1207, 1201, 1214, 1192, 1203},
		protoSmall: {401, 399, 402, 400, 398, 401, 403, 399, 400, 402},
	}, map[string]float64{jsonSmall: 124, protoSmall: 64}, jsonSmall, protoSmall)

	res, err := compare.Compare(base, cand, compare.Defaults())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Comparisons {
		fmt.Printf("%s %s: %s, %+.1f%%\n", c.Name, c.Unit, c.Verdict, 100*c.Change())
	}
	fmt.Println("fails the run:", res.Failed(compare.FailOnRegression))
	// Output:
	// BenchmarkSerialize/codec=json/dataset=small ns/op: regression, +19.9%
	// BenchmarkSerialize/codec=json/dataset=small B/msg: regression, +3.3%
	// BenchmarkSerialize/codec=protobuf/dataset=small ns/op: unchanged, +0.0%
	// BenchmarkSerialize/codec=protobuf/dataset=small B/msg: unchanged, +0.0%
	// fails the run: true
}
