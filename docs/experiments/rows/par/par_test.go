package par

import "testing"

var items = func() []uint32 {
	var s []uint32
	for i := range 256 {
		s = append(s, uint32(i*7919))
	}
	return s
}()

func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		buf := make([]byte, 0, 2048)
		for pb.Next() {
			buf = Encode(buf[:0], items)
		}
	})
}

func BenchmarkSerial(b *testing.B) {
	buf := make([]byte, 0, 2048)
	for b.Loop() {
		buf = Encode(buf[:0], items)
	}
}
