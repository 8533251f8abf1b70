package gotest

import (
	"strings"
	"testing"
)

// TestPatchRuntimeSched: each release's proc.go takes the patch, once,
// in retake; a proc.go without the text, or with it twice, or without
// retake, is left unpatched.
func TestPatchRuntimeSched(t *testing.T) {
	for _, release := range KnownReleases() {
		t.Run(release, func(t *testing.T) {
			real := releaseSource(t, release, "runtime/proc.go")
			tests := []struct {
				name, src string
				ok        bool
			}{
				{"the release's", real, true},
				{"text missing", strings.Replace(real, schedPatch.old, "", 1), false},
				{"text twice", real + "\nfunc g() {\n" + schedPatch.old + "}\n", false},
				{"no retake", strings.Replace(real, "\nfunc retake(now int64) uint32 {\n", "\nfunc retake2(now int64) uint32 {\n", 1), false},
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
		})
	}
}

// TestPatchRuntimeCode: each release's iface.go takes the patch, every
// cache decision drawn from wirebenchCodeRand, which the release's seed
// patch defines; an iface.go with a text once (not twice) is left
// unpatched.
func TestPatchRuntimeCode(t *testing.T) {
	for _, release := range KnownReleases() {
		t.Run(release, func(t *testing.T) {
			real := releaseSource(t, release, "runtime/iface.go")
			out, ok := PatchRuntimeCode(real)
			if !ok {
				t.Fatalf("%s's iface.go does not take the patch", release)
			}
			if strings.Contains(out, "cheaprand()&") || strings.Count(out, "wirebenchCodeRand()&") != 4 {
				t.Errorf("patched iface.go draws %d times from wirebenchCodeRand and still from cheaprand: %v",
					strings.Count(out, "wirebenchCodeRand()&"), strings.Contains(out, "cheaprand()&"))
			}
			if _, ok := PatchRuntimeCode(strings.Replace(real, codePatches[0].old, "", 1)); ok {
				t.Error("an iface.go with the first text once was patched")
			}
			seeded, ok := seedFile(setOf(t, release)).patch(releaseSource(t, release, "runtime/rand.go"))
			if !ok || !strings.Contains(seeded, "func wirebenchCodeRand() uint32 {") {
				t.Errorf("%s's seed patch does not define wirebenchCodeRand", release)
			}
		})
	}
}
