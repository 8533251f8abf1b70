package plain

import "testing"

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		Parse("192.0.2.1")
	}
}
