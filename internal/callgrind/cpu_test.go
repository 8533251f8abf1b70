package callgrind

import (
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestFeatures decodes CPUID words: a feature counts when its bit is set
// and the OS saves the state it needs (XCR0).
func TestFeatures(t *testing.T) {
	const (
		sse2    = 1 << 26 // leaf 1 EDX
		avx     = 1 << 28 // leaf 1 ECX
		avx2    = 1 << 5  // leaf 7 EBX
		bmi2    = 1 << 8
		avx512f = 1 << 16
	)
	tests := []struct {
		name string
		id   CPUID
		want []string
	}{
		{"none", CPUID{}, nil},
		{"the OS saves AVX-512's state", CPUID{Leaf1EDX: sse2, Leaf1ECX: avx, Leaf7EBX: avx2 | bmi2 | avx512f, XCR0: xcrAVX512},
			[]string{"sse2", "avx", "bmi2", "avx2", "avx512f"}},
		{"the OS saves only AVX's", CPUID{Leaf1EDX: sse2, Leaf1ECX: avx, Leaf7EBX: avx2 | bmi2 | avx512f, XCR0: xcrAVX},
			[]string{"sse2", "avx", "bmi2", "avx2"}},
		{"the OS saves neither", CPUID{Leaf1EDX: sse2, Leaf1ECX: avx, Leaf7EBX: avx2 | bmi2 | avx512f},
			[]string{"sse2", "bmi2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.id.Features()
			// Features keeps the manual's order; compared as sets here.
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Features() = %q, want %q", got, want)
			}
		})
	}
	if got := Lacking([]string{"sse2", "avx2", "avx512f", "avx512bw"}, []string{"sse2", "avx2"}); !reflect.DeepEqual(got, []string{"avx512f", "avx512bw"}) {
		t.Errorf("Lacking = %q", got)
	}
}

// TestCPUUnderValgrind reads the CPU's features natively and under
// Valgrind (this test binary again, TestCPUHelper): Valgrind's virtual
// CPU offers a part of the machine's, SSE2 at least (every amd64 has it,
// so a read that failed would show), and no AVX-512, which no Valgrind
// release implements.
func TestCPUUnderValgrind(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("CPUID is read on amd64 only")
	}
	vg := findValgrind(t)
	native := ReadCPUID().Features()
	cmd := exec.Command(vg.Path, Options{}.Args(t.TempDir()+"/out", os.Args[0], []string{"-test.run=^TestCPUHelper$", "-test.v"})...)
	cmd.Env = Env(append(os.Environ(), "WIREBENCH_CPU_HELPER=1"))
	b, err := cmd.CombinedOutput()
	_, line, ok := strings.Cut(string(b), "features: ")
	if err != nil || !ok {
		t.Fatalf("the helper under valgrind: %v\n%s", err, b)
	}
	line, _, _ = strings.Cut(line, "\n")
	counted := strings.Fields(line)
	t.Logf("native: %s", FeatureList(native))
	t.Logf("under valgrind: %s", FeatureList(counted))
	t.Logf("lacking: %s", FeatureList(Lacking(native, counted)))
	if !slices.Contains(counted, "sse2") {
		t.Errorf("under valgrind no SSE2: the features were not read")
	}
	for _, f := range counted {
		if !slices.Contains(native, f) {
			t.Errorf("Valgrind's CPU offers %s, which the machine's does not", f)
		}
		if strings.HasPrefix(f, "avx512") {
			t.Errorf("Valgrind's CPU offers %s", f)
		}
	}
}

func TestCPUHelper(t *testing.T) {
	if os.Getenv("WIREBENCH_CPU_HELPER") == "" {
		t.Skip("run by TestCPUUnderValgrind")
	}
	t.Log("features: " + FeatureList(ReadCPUID().Features()))
}
