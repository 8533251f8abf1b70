//go:build !amd64 && !arm64

package callgrind

// clientRequest does nothing on architectures whose request sequence is
// not written here: Supported is false and nothing is counted.
func clientRequest(req, a1, a2, a3, a4, a5 uintptr) uintptr { return 0 }

// Supported reports whether this build can issue client requests.
const Supported = false
