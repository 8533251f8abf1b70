package bench

import (
	"regexp"
	"runtime/debug"
	"testing"
)

// BenchmarkSerialize and BenchmarkDeserialize run the suite's default
// benchmarks through `go test -bench`, on the same code paths and with the
// garbage collector off inside the timed loop as the suite does, so the two
// measure the same thing. Sub-benchmarks are named codec=X/dataset=Y, the
// names the suite uses.
func BenchmarkSerialize(b *testing.B)   { benchOp(b, OpSerialize) }
func BenchmarkDeserialize(b *testing.B) { benchOp(b, OpDeserialize) }

func benchOp(b *testing.B, op string) {
	benches, err := Prepare(Selection{}, Codecs(), Datasets())
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range benches {
		if bm.Op != op {
			continue
		}
		b.Run("codec="+bm.Codec+"/dataset="+bm.Dataset, func(b *testing.B) {
			b.ReportAllocs()
			if op == OpSerialize {
				b.ReportMetric(float64(bm.Size), "B/msg")
			}
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			b.ResetTimer()
			if err := bm.Loop(b.N); err != nil {
				b.Fatal(err)
			}
		})
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
