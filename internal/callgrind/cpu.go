package callgrind

import (
	"slices"
	"strconv"
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

// XCR0 bits: SSE and AVX state (1, 2), AVX-512's opmask and upper
// registers (5, 6, 7).
const (
	xcrAVX    = 1<<1 | 1<<2
	xcrAVX512 = xcrAVX | 1<<5 | 1<<6 | 1<<7
)

// osState is the XCR0 bits a feature's "+state" names.
var osState = map[string]uint32{"": 0, "avx": xcrAVX, "avx512": xcrAVX512}

// features are the amd64 features code commonly dispatches on, by the
// names Linux's /proc/cpuinfo gives them, per CPUID word (Intel's
// Software Developer's Manual, volume 2, CPUID): "name@bit", with "+avx"
// or "+avx512" where the OS must save that state (XCR0) for the feature
// to be usable.
var features = []struct {
	word  func(CPUID) uint32
	names string
}{
	{func(c CPUID) uint32 { return c.Leaf1EDX }, "sse2@26"},
	{func(c CPUID) uint32 { return c.Leaf1ECX }, "sse3@0 pclmulqdq@1 ssse3@9 fma@12+avx sse4_1@19 sse4_2@20 movbe@22 popcnt@23 aes@25 avx@28+avx f16c@29+avx rdrand@30"},
	{func(c CPUID) uint32 { return c.Leaf7EBX }, "bmi1@3 avx2@5+avx bmi2@8 erms@9 avx512f@16+avx512 avx512dq@17+avx512 rdseed@18 adx@19 " +
		"avx512ifma@21+avx512 avx512cd@28+avx512 sha_ni@29 avx512bw@30+avx512 avx512vl@31+avx512"},
	{func(c CPUID) uint32 { return c.Leaf7ECX }, "avx512vbmi@1+avx512 avx512_vbmi2@6+avx512 gfni@8 vaes@9+avx vpclmulqdq@10+avx " +
		"avx512_vnni@11+avx512 avx512_bitalg@12+avx512 avx512_vpopcntdq@14+avx512"},
	{func(c CPUID) uint32 { return c.Leaf7EDX }, "fsrm@4"},
}

// Features are the features c offers and the OS lets code use, by
// /proc/cpuinfo's names, in the order of the manual's bits; none when
// c is zero.
func (c CPUID) Features() []string {
	var out []string
	for _, w := range features {
		for _, f := range strings.Fields(w.names) {
			name, rest, _ := strings.Cut(f, "@")
			bit, state, _ := strings.Cut(rest, "+")
			n, _ := strconv.Atoi(bit)
			os := osState[state]
			if w.word(c)&(1<<n) != 0 && c.XCR0&os == os {
				out = append(out, name)
			}
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
