package bench

import (
	"regexp"
	"runtime"
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
			// Like the suite's batches: at most DefaultMaxBatchBytes of
			// garbage between collections, the collector off while timing.
			probe, err := bm.Measure(16)
			if err != nil {
				b.Fatal(err)
			}
			chunk := b.N
			if perOp := float64(probe.Bytes) / 16; perOp > 0 {
				chunk = max(1, int(DefaultMaxBatchBytes/perOp))
			}
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			b.ResetTimer()
			for done := 0; done < b.N; {
				n := min(chunk, b.N-done)
				if done > 0 {
					b.StopTimer()
					runtime.GC()
					b.StartTimer()
				}
				if err := bm.Loop(n); err != nil {
					b.Fatal(err)
				}
				done += n
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
