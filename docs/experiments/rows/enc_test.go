package rows

import "testing"

var order = &Order{ID: 1 << 40, Note: "deliver to the back door, ring twice"}

func init() {
	for i := range 64 {
		order.Items = append(order.Items, uint32(i*7919))
	}
}

func bench(b *testing.B, f func([]byte, *Order) []byte) {
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = f(buf[:0], order)
	}
}

func BenchmarkPlain(b *testing.B)    { bench(b, Encode) }
func BenchmarkSleep(b *testing.B)    { bench(b, EncodeSleep) }
func BenchmarkWrite(b *testing.B)    { bench(b, EncodeWrite) }
func BenchmarkSyscalls(b *testing.B) { bench(b, EncodeSyscalls) }
func BenchmarkNative(b *testing.B)   { bench(b, EncodeNative) }

var sum uint64

func BenchmarkWalk(b *testing.B) {
	for b.Loop() {
		sum += uint64(Walk())
	}
}
