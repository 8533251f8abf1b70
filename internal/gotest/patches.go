package gotest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The names the patches go by in Patches, the worker's handshake and the
// reports.
const (
	PatchNameTesting = "testing"      // testing/benchmark.go: the timer hooks (PatchTesting)
	PatchNameSeed    = "runtime seed" // runtime/rand.go: one stream per seeded process (seed.go)
	PatchNameSched   = "sched"        // runtime/proc.go: the monitor held off (PatchRuntimeSched)
	PatchNameCode    = "code"         // runtime/iface.go: the code's own cheap state (PatchRuntimeCode)
)

// textPatch is one change of a toolchain file: old, which must occur in
// the file as many times as the patch says, becomes new.
type textPatch struct{ old, new string }

// applyTexts returns src with every patch applied when each old text
// occurs exactly n times in src and each of needs at least once, or
// false, with nothing changed: a file is patched whole or not at all.
func applyTexts(src string, n int, needs []string, patches []textPatch) (string, bool) {
	for _, s := range needs {
		if !strings.Contains(src, s) {
			return "", false
		}
	}
	for _, p := range patches {
		if strings.Count(src, p.old) != n {
			return "", false
		}
	}
	for _, p := range patches {
		src = strings.ReplaceAll(src, p.old, p.new)
	}
	return src, true
}

// filePatch is one patch of a toolchain's source: its name (Patches), the
// file (rel, under GOROOT's src), the overlay file's name, and the patch
// itself, which reports false when the file is not the text it expects.
// seeded is set for the runtime's patches that go with the seed: applied
// only where the seed patch was.
type filePatch struct {
	name, rel, overlay string
	patch              func(string) (string, bool)
	seeded             bool
}

// testingPatch is the timer hooks' patch, the same texts in every
// release wirebench knows (testing/benchmark.go did not change between
// go1.26 and go1.27).
var testingPatch = filePatch{PatchNameTesting, "testing/benchmark.go", "testing-benchmark.go", PatchTesting, false}

// releasePatches is what wirebench patches in one Go release's toolchain:
// the testing package's timer hooks, and the runtime's seed, monitor and
// code patches, each checked against that release's own text. The
// runtime's patches are known per release because what makes them right
// is more than their text: every draw of the runtime's random state must
// come from the one stream on the one P, and a release may add a draw
// the old texts do not see (go1.27's cheaprandu64, of the memory
// profiler and the lock's spinning, is one).
type releasePatches struct {
	release string
	files   []filePatch
}

// releases are the patch sets of the Go releases wirebench knows, oldest
// first. A toolchain of another release (a newer one, a development
// build) is measured with the testing patch alone, its processes
// unseeded and so unpaired (Patches says so).
var releases = []releasePatches{
	{"go1.26", []filePatch{
		testingPatch,
		{PatchNameSeed, "runtime/rand.go", "runtime-rand.go", patchSeed126, false},
		{PatchNameSched, "runtime/proc.go", "runtime-proc.go", PatchRuntimeSched, true},
		{PatchNameCode, "runtime/iface.go", "runtime-iface.go", PatchRuntimeCode, true},
	}},
	{"go1.27", []filePatch{
		testingPatch,
		{PatchNameSeed, "runtime/rand.go", "runtime-rand.go", patchSeed127, false},
		{PatchNameSched, "runtime/proc.go", "runtime-proc.go", PatchRuntimeSched, true},
		{PatchNameCode, "runtime/iface.go", "runtime-iface.go", PatchRuntimeCode, true},
	}},
}

// KnownReleases are the Go releases wirebench has patch sets for.
func KnownReleases() []string {
	var out []string
	for _, r := range releases {
		out = append(out, r.release)
	}
	return out
}

// patchesFor is the patch set of version's release, false when
// wirebench knows none.
func patchesFor(version string) (releasePatches, bool) {
	rel := Release(version)
	for _, r := range releases {
		if r.release == rel {
			return r, true
		}
	}
	return releasePatches{}, false
}

// Release is the Go release a toolchain's version (go env GOVERSION)
// names: "go1.27" of "go1.27.3", "go1.27rc1" or "go1.27" (an experiment
// suffix " X:..." ignored), or "" for a development build ("devel
// go1.28-abcdef ...") or a version of another form, which no patch set
// can be assumed to fit.
func Release(version string) string {
	f := strings.Fields(version)
	if len(f) == 0 {
		return ""
	}
	rest, ok := strings.CutPrefix(f[0], "go1.")
	if !ok {
		return ""
	}
	minor := rest[:len(rest)-len(strings.TrimLeft(rest, "0123456789"))]
	if minor == "" {
		return ""
	}
	tail := rest[len(minor):]
	for _, pre := range []string{".", "rc", "beta"} {
		if n, ok := strings.CutPrefix(tail, pre); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			tail = ""
		}
	}
	if tail != "" {
		return ""
	}
	return "go1." + minor
}

// Patches is what wirebench patched in a toolchain for a counted build:
// the patch set of its release, which of its patches applied and which
// did not, and why. A counted process pairs by seed only where the
// runtime seed patch applied (Seeded); the report names what did not.
type Patches struct {
	// Version is the toolchain's go env GOVERSION.
	Version string
	// Release is the release whose patch set was used, "" when wirebench
	// knows none for Version (Unknown then says so).
	Release string
	// Applied are the patches that applied (PatchNameTesting, ...).
	Applied []string
	// Skipped are those of the set that did not apply, each with why.
	Skipped []Skipped
	// Unknown, for a toolchain of a release without a patch set, says so
	// and which releases have one: "go1.28 not known: known go1.26,
	// go1.27". Its runtime is not patched.
	Unknown string
}

// Skipped is a patch that did not apply, and why.
type Skipped struct{ Name, Why string }

// Seeded reports whether the runtime took its seed from SeedVar: its
// counted processes pair by seed.
func (p Patches) Seeded() bool { return slices.Contains(p.Applied, PatchNameSeed) }

// Hooks reports whether the testing package calls TimerHook.
func (p Patches) Hooks() bool { return slices.Contains(p.Applied, PatchNameTesting) }

// String says what was patched, as the progress lines, the worker's
// handshake and the reports put it: "patches for go1.27: testing,
// runtime seed, sched, code", "patches for go1.27: testing; not applied:
// runtime seed (runtime/rand.go is not go1.27's text), ...", or
// "patches: testing; runtime patches: none (go1.28 not known: known
// go1.26, go1.27)".
func (p Patches) String() string {
	var b strings.Builder
	if p.Release != "" {
		b.WriteString("patches for " + p.Release + ": ")
	} else {
		b.WriteString("patches: ")
	}
	if len(p.Applied) == 0 {
		b.WriteString("none")
	}
	b.WriteString(strings.Join(p.Applied, ", "))
	if p.Unknown != "" {
		fmt.Fprintf(&b, "; runtime patches: none (%s)", p.Unknown)
	}
	for _, s := range p.Skipped {
		fmt.Fprintf(&b, "; not applied: %s (%s)", s.Name, s.Why)
	}
	return b.String()
}

// unknownRelease says that version's release has no patch set, and which
// releases have.
func unknownRelease(version string) string {
	name := Release(version)
	if name == "" {
		f := strings.Fields(version)
		name = strings.Join(f[:min(len(f), 2)], " ") // "devel go1.28-abcdef", not its date
	}
	if name == "" {
		name = "a toolchain that does not say its version"
	}
	return fmt.Sprintf("%s not known: known %s", name, strings.Join(KnownReleases(), ", "))
}

// applyPatches writes the patched toolchain files of the toolchain at
// root, of version, into dir and returns what was patched and the
// overlay entries that put the files in place: the patch set of its
// release, each patch where its file has the release's text (the
// runtime's seeded patches only where the seed patch applied), or for a
// release without a set the testing patch alone.
func applyPatches(root, version, dir string) (Patches, map[string]string, error) {
	p := Patches{Version: version}
	set, ok := patchesFor(version)
	if !ok {
		set = releasePatches{files: []filePatch{testingPatch}}
		p.Unknown = unknownRelease(version)
	}
	p.Release = set.release
	extra := map[string]string{}
	for _, f := range set.files {
		if f.seeded && !p.Seeded() {
			p.Skipped = append(p.Skipped, Skipped{f.name, "it goes with the runtime seed"})
			continue
		}
		target, src, ok, err := patchOverlay(root, f.rel, dir, f.overlay, f.patch)
		if err != nil {
			return Patches{}, nil, err
		}
		if !ok {
			why := fmt.Sprintf("%s is not the text the patch expects", f.rel)
			if set.release != "" {
				why = fmt.Sprintf("%s is not %s's text", f.rel, set.release)
			}
			p.Skipped = append(p.Skipped, Skipped{f.name, why})
			continue
		}
		extra[target] = src
		p.Applied = append(p.Applied, f.name)
	}
	return p, extra, nil
}

// patchOverlay writes patch's version of the toolchain source file rel
// (under root's src) into dir as name and returns the overlay entry that
// puts it in place, or ok false when that toolchain's file does not take
// the patch.
func patchOverlay(root, rel, dir, name string, patch func(string) (string, bool)) (target, src string, ok bool, err error) {
	target = filepath.Join(root, "src", filepath.FromSlash(rel))
	orig, err := os.ReadFile(target)
	if err != nil {
		return "", "", false, fmt.Errorf("read the toolchain's %s: %w", rel, err)
	}
	patched, ok := patch(string(orig))
	if !ok {
		return "", "", false, nil
	}
	src = filepath.Join(dir, name)
	if err := os.WriteFile(src, []byte(patched), 0o644); err != nil {
		return "", "", false, err
	}
	return target, src, true, nil
}
