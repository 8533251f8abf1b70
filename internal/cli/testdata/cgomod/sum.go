// Package cgomod sums in C: a module whose benchmarks need cgo, for the
// tests of wirebench's builds with cgo (internal/gotest/cgo.go).
package cgomod

/*
// wb_sum does about seven instructions an iteration: a count of n
// iterations grows by about 7n.
static unsigned long wb_sum(unsigned long n) {
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++) {
		s += i ^ (s >> 3);
	}
	return s;
}
*/
import "C"

// Sum is the C loop of n iterations.
func Sum(n int) uint64 { return uint64(C.wb_sum(C.ulong(n))) }
