package orders

import "testing"

func BenchmarkMarshal(b *testing.B) {
	o := Order{ID: 7, Items: []string{"tea", "milk"}}
	var n int
	for i := 0; i < b.N; i++ {
		data, err := Marshal(o)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "B/msg")
}
