package cgomod

import (
	"fmt"
	"testing"
)

// BenchmarkSum calls C, n iterations of its loop a call.
func BenchmarkSum(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				Sum(n)
			}
		})
	}
}
