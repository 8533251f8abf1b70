//go:build amd64 || arm64

package callgrind

// clientRequest issues a Valgrind client request (request_*.s) and
// returns its result, 0 outside Valgrind.
//
//go:noescape
func clientRequest(req, a1, a2, a3, a4, a5 uintptr) uintptr

// Supported reports whether this build can issue client requests: on
// amd64 and arm64, the architectures whose request sequence is written
// here.
const Supported = true
