// Package use uses no cgo itself but links a package that does: its test
// binary needs cgo all the same.
package use

import "example.com/cgomod"

// Twice is twice the sum of n.
func Twice(n int) uint64 { return 2 * cgomod.Sum(n) }
