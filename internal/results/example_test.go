package results_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// ReadBench reads `go test -bench` output: the lines of one benchmark
// (its -GOMAXPROCS suffix dropped) are its samples, and the file's
// configuration lines fill the environment.
func ExampleReadBench() {
	const out = `goos: linux
goarch: amd64
cpu: Example CPU @ 3.00GHz
BenchmarkSerialize/codec=json/dataset=small-4     	  100000	      1012 ns/op	     480 B/op	       6 allocs/op
BenchmarkSerialize/codec=json/dataset=small-4     	  100000	       998 ns/op	     480 B/op	       6 allocs/op
BenchmarkDeserialize/codec=protobuf/dataset=small-4	  300000	       402 ns/op	     128 B/op	       2 allocs/op
PASS
`
	r, err := results.ReadBench(strings.NewReader(out), "bench.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Env.GOOS, r.Env.GOARCH, r.Env.CPU)
	for _, b := range r.Benchmarks {
		fmt.Printf("%s (codec %s, %s):", b.Name, b.Codec, b.Op)
		for _, m := range b.Metrics {
			fmt.Printf(" %s %v", m.Unit, m.Values)
		}
		fmt.Println()
	}
	// Output:
	// linux amd64 Example CPU @ 3.00GHz
	// BenchmarkSerialize/codec=json/dataset=small (codec json, serialize): ns/op [1012 998] B/op [480 480] allocs/op [6 6]
	// BenchmarkDeserialize/codec=protobuf/dataset=small (codec protobuf, deserialize): ns/op [402] B/op [128] allocs/op [2]
}

// WriteBench writes results in the same format, one line a sample, so
// benchstat can read them; the encoded size is declared exact, and each
// benchmark of a package is written under its pkg: line, as go test
// writes it.
func ExampleResults_WriteBench() {
	r := results.New("go test", results.Env{GOOS: "linux", GOARCH: "amd64", CPU: "Example CPU @ 3.00GHz", GOMAXPROCS: 1})
	for _, pkg := range []string{"example.com/orders", "example.com/users"} {
		b := results.Benchmark{Pkg: pkg, Name: "BenchmarkMarshal", Iterations: []int64{100000, 100000}}
		b.Add(results.UnitNsPerOp, 1012)
		b.Add(results.UnitNsPerOp, 998.5)
		b.Add(results.UnitBytesPerMsg, 120)
		r.Benchmarks = append(r.Benchmarks, b)
	}
	if err := r.WriteBench(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// goos: linux
	// goarch: amd64
	// cpu: Example CPU @ 3.00GHz
	// gomaxprocs: 1
	// wirebench-suite: go test
	// Unit B/msg assume=exact better=lower
	// pkg: example.com/orders
	// BenchmarkMarshal	100000	1012 ns/op	120 B/msg
	// BenchmarkMarshal	100000	998.5 ns/op	120 B/msg
	// pkg: example.com/users
	// BenchmarkMarshal	100000	1012 ns/op	120 B/msg
	// BenchmarkMarshal	100000	998.5 ns/op	120 B/msg
}
