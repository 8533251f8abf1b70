package callgrind

func cpuid(ax, cx uint32) (a, b, c, d uint32)
func xgetbv0() (a, d uint32)

func readCPUID() CPUID {
	maxLeaf, _, _, _ := cpuid(0, 0)
	var r CPUID
	_, _, r.Leaf1ECX, r.Leaf1EDX = cpuid(1, 0)
	if maxLeaf >= 7 {
		_, r.Leaf7EBX, r.Leaf7ECX, r.Leaf7EDX = cpuid(7, 0)
	}
	const osxsave = 1 << 27 // XGETBV may be used
	if r.Leaf1ECX&osxsave != 0 {
		r.XCR0, _ = xgetbv0()
	}
	return r
}
