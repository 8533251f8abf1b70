package users

import "testing"

func BenchmarkMarshal(b *testing.B) {
	u := User{Name: "Ada"}
	var n int
	for i := 0; i < b.N; i++ {
		data, err := Marshal(u)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "B/msg")
}
