package use_test

import (
	"testing"

	"example.com/cgomod/use"
)

func BenchmarkTwice(b *testing.B) {
	for b.Loop() {
		use.Twice(100)
	}
}
