package gotest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchRuntimeSched: the installed toolchain's proc.go takes the
// patch, once, in retake; a proc.go without the text, or with it twice,
// or without retake, is left unpatched.
func TestPatchRuntimeSched(t *testing.T) {
	installed := installedRuntime(t, "proc.go")
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"the installed toolchain's", installed, true},
		{"text missing", strings.Replace(installed, schedPatch.old, "", 1), false},
		{"text twice", installed + "\nfunc g() {\n" + schedPatch.old + "}\n", false},
		{"no retake", strings.Replace(installed, "\nfunc retake(now int64) uint32 {\n", "\nfunc retake2(now int64) uint32 {\n", 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := PatchRuntimeSched(tt.src)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			i := strings.Index(out, "\nfunc retake(now int64) uint32 {\n")
			if j := strings.Index(out, schedPatch.new); j < i || strings.Count(out, schedPatch.new) != 1 {
				t.Errorf("the patch is not in retake once (retake at %d, patch at %d)", i, j)
			}
			if !strings.Contains(out, "func wirebenchQuiet(pp *p, pd *sysmontick, now int64) bool {") || !strings.Contains(out, "1000000000 > now") {
				t.Errorf("patched text lacks wirebenchQuiet with its second")
			}
		})
	}
}

// TestPatchRuntimeCode: the installed toolchain's iface.go takes the
// patch, every cache decision drawn from wirebenchCodeRand; an iface.go
// with a text once (not twice) is left unpatched.
func TestPatchRuntimeCode(t *testing.T) {
	installed := installedRuntime(t, "iface.go")
	out, ok := PatchRuntimeCode(installed)
	if !ok {
		t.Fatal("the installed toolchain's iface.go does not take the patch")
	}
	if strings.Contains(out, "cheaprand()&") || strings.Count(out, "wirebenchCodeRand()&") != 4 {
		t.Errorf("patched iface.go draws %d times from wirebenchCodeRand and still from cheaprand: %v",
			strings.Count(out, "wirebenchCodeRand()&"), strings.Contains(out, "cheaprand()&"))
	}
	once := strings.Replace(installed, codePatches[0].old, "", 1)
	if _, ok := PatchRuntimeCode(once); ok {
		t.Error("an iface.go with the first text once was patched")
	}
	if seeded, ok := PatchRuntimeSeed(installedRuntime(t, "rand.go")); !ok || !strings.Contains(seeded, "func wirebenchCodeRand() uint32 {") {
		t.Error("the seed patch does not define wirebenchCodeRand")
	}
}

// installedRuntime is the installed toolchain's runtime source file name.
func installedRuntime(t *testing.T, name string) string {
	t.Helper()
	root, err := goroot(context.Background(), Tree{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "src", "runtime", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
