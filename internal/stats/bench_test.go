package stats

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkMannWhitney measures one comparison at n=50 per side (normal
// approximation) and at n=49 (exact distribution), with and without the
// Hodges–Lehmann ratio interval.
func BenchmarkMannWhitney(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{10, 49, 50} {
		x, y := lognormal(r, n, 1000, 0.02), lognormal(r, n, 1010, 0.02)
		b.Run("test/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := MannWhitney(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("ratio/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := RatioHL(x, y, 0.95); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
