package bench

import (
	"regexp"
	"testing"

	"github.com/wirebench/wirebench/matrix"
)

// BenchmarkSerialize and BenchmarkDeserialize run the suite's default
// benchmarks through `go test -bench`, with the matrix package as any user
// would: sub-benchmarks named codec=X/dataset=Y, the names the suite uses.
func BenchmarkSerialize(b *testing.B)   { benchOp(b, matrix.Serialize) }
func BenchmarkDeserialize(b *testing.B) { benchOp(b, matrix.Deserialize) }

func benchOp(b *testing.B, op string) {
	for _, d := range Datasets() {
		if !d.OptIn {
			matrix.RunOp(b, op, d.Name, d.Message(), d.Codecs()...)
		}
	}
}

func mustCompile(t testing.TB, re string) *regexp.Regexp {
	t.Helper()
	r, err := regexp.Compile(re)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
