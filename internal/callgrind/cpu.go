package callgrind

import (
	"slices"
	"strings"
)

// CPUID is what a process's CPU says of its features: the CPUID leaves
// 1 and 7 (subleaf 0) and the state the OS saves (XCR0), raw, as a worker
// reports it in its hello, natively and under Valgrind. Valgrind's
// virtual CPU is not the machine's: 3.19 offers no AVX-512 on a host
// that has it, so code that picks its path by CPU features is counted on
// another path than it runs natively. All zero where not read (other
// architectures than amd64).
type CPUID struct {
	Leaf1ECX uint32 `json:"leaf1_ecx"`
	Leaf1EDX uint32 `json:"leaf1_edx"`
	Leaf7EBX uint32 `json:"leaf7_ebx"`
	Leaf7ECX uint32 `json:"leaf7_ecx"`
	Leaf7EDX uint32 `json:"leaf7_edx"`
	XCR0     uint32 `json:"xcr0"`
}

// ReadCPUID reads this process's CPUID (zero off amd64).
func ReadCPUID() CPUID { return readCPUID() }

// feature is one named bit of a CPUID word; os is the XCR0 bits the OS
// must save for it to be usable.
type feature struct {
	name string
	word func(CPUID) uint32
	bit  uint
	os   uint32
}

// XCR0 bits: SSE and AVX state (1, 2), AVX-512's opmask and upper
// registers (5, 6, 7).
const (
	xcrAVX    = 1<<1 | 1<<2
	xcrAVX512 = xcrAVX | 1<<5 | 1<<6 | 1<<7
)

var (
	leaf1ECX = func(c CPUID) uint32 { return c.Leaf1ECX }
	leaf1EDX = func(c CPUID) uint32 { return c.Leaf1EDX }
	leaf7EBX = func(c CPUID) uint32 { return c.Leaf7EBX }
	leaf7ECX = func(c CPUID) uint32 { return c.Leaf7ECX }
	leaf7EDX = func(c CPUID) uint32 { return c.Leaf7EDX }
)

// features are the amd64 features code commonly dispatches on (Intel's
// Software Developer's Manual, volume 2, CPUID), by the names Linux's
// /proc/cpuinfo gives them.
var features = []feature{
	{"sse2", leaf1EDX, 26, 0},
	{"sse3", leaf1ECX, 0, 0},
	{"pclmulqdq", leaf1ECX, 1, 0},
	{"ssse3", leaf1ECX, 9, 0},
	{"fma", leaf1ECX, 12, xcrAVX},
	{"sse4_1", leaf1ECX, 19, 0},
	{"sse4_2", leaf1ECX, 20, 0},
	{"movbe", leaf1ECX, 22, 0},
	{"popcnt", leaf1ECX, 23, 0},
	{"aes", leaf1ECX, 25, 0},
	{"avx", leaf1ECX, 28, xcrAVX},
	{"f16c", leaf1ECX, 29, xcrAVX},
	{"rdrand", leaf1ECX, 30, 0},
	{"bmi1", leaf7EBX, 3, 0},
	{"avx2", leaf7EBX, 5, xcrAVX},
	{"bmi2", leaf7EBX, 8, 0},
	{"erms", leaf7EBX, 9, 0},
	{"avx512f", leaf7EBX, 16, xcrAVX512},
	{"avx512dq", leaf7EBX, 17, xcrAVX512},
	{"rdseed", leaf7EBX, 18, 0},
	{"adx", leaf7EBX, 19, 0},
	{"avx512ifma", leaf7EBX, 21, xcrAVX512},
	{"avx512cd", leaf7EBX, 28, xcrAVX512},
	{"sha_ni", leaf7EBX, 29, 0},
	{"avx512bw", leaf7EBX, 30, xcrAVX512},
	{"avx512vl", leaf7EBX, 31, xcrAVX512},
	{"avx512vbmi", leaf7ECX, 1, xcrAVX512},
	{"avx512_vbmi2", leaf7ECX, 6, xcrAVX512},
	{"gfni", leaf7ECX, 8, 0},
	{"vaes", leaf7ECX, 9, xcrAVX},
	{"vpclmulqdq", leaf7ECX, 10, xcrAVX},
	{"avx512_vnni", leaf7ECX, 11, xcrAVX512},
	{"avx512_bitalg", leaf7ECX, 12, xcrAVX512},
	{"avx512_vpopcntdq", leaf7ECX, 14, xcrAVX512},
	{"fsrm", leaf7EDX, 4, 0},
}

// Features are the features c offers and the OS lets code use, by
// /proc/cpuinfo's names, in the order of the manual's bits; none when
// c is zero.
func (c CPUID) Features() []string {
	var out []string
	for _, f := range features {
		if f.word(c)&(1<<f.bit) != 0 && c.XCR0&f.os == f.os {
			out = append(out, f.name)
		}
	}
	return out
}

// Lacking is the features of native that counted lacks: what code that
// picks its path by CPU features did not take under Valgrind.
func Lacking(native, counted []string) []string {
	var out []string
	for _, f := range native {
		if !slices.Contains(counted, f) {
			out = append(out, f)
		}
	}
	return out
}

// FeatureList is features as one line, "" for none: what results and
// reports record.
func FeatureList(features []string) string { return strings.Join(features, " ") }
