package orders

import "testing"

func BenchmarkMarshal(b *testing.B) {
	o := Sample()
	var n int
	for b.Loop() {
		data, err := Encode(o)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "B/msg")
}

func BenchmarkUnmarshal(b *testing.B) {
	data, err := Encode(Sample())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
