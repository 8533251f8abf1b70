//go:build !linux

package load

import "errors"

// Take reads the machine's accounting where the kernel gives it in
// /proc/stat: on Linux only.
func Take() (Sample, error) {
	return Sample{}, errors.New("the CPUs' accounting is read from /proc/stat, on Linux only")
}
