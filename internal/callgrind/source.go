package callgrind

import (
	_ "embed" // the request's assembly, for code that must carry its own copy
	"strings"
)

var (
	//go:embed request_amd64.s
	requestAMD64 string
	//go:embed request_arm64.s
	requestARM64 string
)

// RequestAssembly returns the assembly of the client request for goarch
// (amd64 or arm64; "" for any other), its function named fn instead of
// clientRequest: for a package that cannot import this one (a test
// binary's worker, added to a user's package) and declares
//
//	func fn(req, a1, a2, a3, a4, a5 uintptr) uintptr
//
// itself. On amd64 it also holds the CPUID reads (ReadCPUID), named
// fn+"CPUID" and fn+"XGETBV0":
//
//	func fnCPUID(ax, cx uint32) (a, b, c, d uint32)
//	func fnXGETBV0() (a, d uint32)
//
// One source, so the two copies cannot drift apart.
func RequestAssembly(goarch, fn string) string {
	var src string
	switch goarch {
	case "amd64":
		src = requestAMD64
	case "arm64":
		src = requestARM64
	default:
		return ""
	}
	return strings.NewReplacer("·clientRequest(SB)", "·"+fn+"(SB)", "·cpuid(SB)", "·"+fn+"CPUID(SB)", "·xgetbv0(SB)", "·"+fn+"XGETBV0(SB)").Replace(src)
}
