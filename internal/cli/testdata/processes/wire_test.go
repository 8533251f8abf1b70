package wire

import "testing"

func BenchmarkEncode(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Encode(Sample)
	}
	b.ReportMetric(float64(len(Encode(Sample))), "B/msg")
}

func BenchmarkDecode(b *testing.B) {
	data := Encode(Sample)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChecksum(b *testing.B) {
	data := Encode(Sample)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Checksum(data)
	}
}
