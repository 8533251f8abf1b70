// Package exit has a TestMain that ends the test binary without calling
// m.Run, after starting a process that outlives it.
package exit

// Work stands for the package's code.
func Work(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}
