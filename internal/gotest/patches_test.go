package gotest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testToolchains are, for each release wirebench has a patch set for,
// the toolchain its tests check the set against when the installed Go is
// of another release: fetched by the go command through the module proxy
// (GOTOOLCHAIN), as a module that asks for it would be.
var testToolchains = map[string]string{
	"go1.26": "go1.26.8",
	"go1.27": "go1.27.3",
}

// TestEveryReleaseIsTested: every release with a patch set has a
// toolchain its tests run against, of that release.
func TestEveryReleaseIsTested(t *testing.T) {
	for _, r := range KnownReleases() {
		v, ok := testToolchains[r]
		if !ok || Release(v) != r {
			t.Errorf("release %s has no test toolchain of its own (testToolchains[%q] = %q)", r, r, v)
		}
	}
}

// releaseEnv is the environment in which the go command builds with a
// toolchain of release: the installed one when it is of that release,
// otherwise testToolchains' (GOTOOLCHAIN), fetched now if the module
// cache does not have it. A toolchain that cannot be fetched (no
// network) skips the test, or fails it with WIREBENCH_REQUIRE_TOOLS set,
// as CI runs.
func releaseEnv(t *testing.T, release string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	env := append(os.Environ(), "GOTOOLCHAIN=local")
	if v, err := goEnvIn(t, env, "GOVERSION"); err == nil && Release(v) == release {
		return env
	}
	want := testToolchains[release]
	env = append(os.Environ(), "GOTOOLCHAIN="+want)
	if v, err := goEnvIn(t, env, "GOVERSION"); err != nil || v != want {
		msg := "the go command could not fetch " + want + " (GOTOOLCHAIN=" + want + "), which the patches for " + release + " are checked against"
		if err != nil {
			msg += ": " + err.Error()
		}
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return env
}

// goEnvIn is go env name in a directory of its own with env.
func goEnvIn(t *testing.T, env []string, name string) (string, error) {
	t.Helper()
	out, err := goCommand(context.Background(), Tree{Dir: t.TempDir(), Env: env}, "env", name)
	return strings.TrimSpace(string(out)), err
}

// releaseRoot is the GOROOT of release's toolchain (releaseEnv), where
// the go command keeps it.
func releaseRoot(t *testing.T, release string) string {
	t.Helper()
	root, err := goEnvIn(t, releaseEnv(t, release), "GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// releaseSource is the file rel (under src) of release's toolchain.
func releaseSource(t *testing.T, release, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(releaseRoot(t, release), "src", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setOf is the patch set of release.
func setOf(t *testing.T, release string) releasePatches {
	t.Helper()
	for _, r := range releases {
		if r.release == release {
			return r
		}
	}
	t.Fatalf("no patch set for %s", release)
	return releasePatches{}
}

func TestRelease(t *testing.T) {
	tests := []struct{ version, want string }{
		{"go1.26.8", "go1.26"},
		{"go1.27.3", "go1.27"},
		{"go1.27", "go1.27"},
		{"go1.27rc1", "go1.27"},
		{"go1.28beta2", "go1.28"},
		{"go1.27.3 X:nocoverageredesign", "go1.27"},
		{"devel go1.28-1a2b3c4d Mon Nov 2 10:00:00 2026 +0000", ""},
		{"go1.27.3-vendor", ""},
		{"go1.27.", ""},
		{"go1.x", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Release(tt.version); got != tt.want {
			t.Errorf("Release(%q) = %q, want %q", tt.version, got, tt.want)
		}
	}
}

// TestPatchSetsPerRelease: each release's source takes every patch of
// its own set, and the seed patch of no other release: the runtime's
// patches are chosen by the toolchain's release, and a set never
// applies, even in part, to a runtime it was not written for.
func TestPatchSetsPerRelease(t *testing.T) {
	for _, set := range releases {
		t.Run(set.release, func(t *testing.T) {
			for _, f := range set.files {
				if _, ok := f.patch(releaseSource(t, set.release, f.rel)); !ok {
					t.Errorf("%s's %s does not take its %s patch", set.release, f.rel, f.name)
				}
			}
			rand := releaseSource(t, set.release, "runtime/rand.go")
			for _, other := range releases {
				if other.release == set.release {
					continue
				}
				if _, ok := seedFile(other).patch(rand); ok {
					t.Errorf("%s's runtime seed patch applied to %s's rand.go", other.release, set.release)
				}
			}
		})
	}
}

// seedFile is set's runtime seed patch.
func seedFile(set releasePatches) filePatch {
	for _, f := range set.files {
		if f.name == PatchNameSeed {
			return f
		}
	}
	return filePatch{}
}

// TestPatchTesting: each release's testing/benchmark.go takes the timer
// hooks, every event's call in place; a file without one of the texts
// is left unpatched.
func TestPatchTesting(t *testing.T) {
	for _, release := range KnownReleases() {
		t.Run(release, func(t *testing.T) {
			src := releaseSource(t, release, "testing/benchmark.go")
			out, ok := PatchTesting(src)
			if !ok {
				t.Fatalf("%s's benchmark.go does not take the timer hooks", release)
			}
			for _, p := range timerPatches {
				if strings.Count(out, p.new) != 1 {
					t.Errorf("the patched file has %q %d times, want once", p.new, strings.Count(out, p.new))
				}
			}
			if !strings.Contains(out, "func "+NetBytes+"(b *B) uint64") {
				t.Errorf("the patched file does not declare %s", NetBytes)
			}
			if !strings.Contains(out, "var "+TimerHook+" func(b *B, event int)") {
				t.Errorf("the patched file does not declare %s", TimerHook)
			}
			if _, ok := PatchTesting(strings.Replace(src, timerPatches[1].old, "", 1)); ok {
				t.Error("a benchmark.go without StopTimer's text was patched")
			}
		})
	}
}

// TestApplyPatches: what a counted build patches, by the toolchain's
// release and its files' texts: a known release's whole set, seeded; a
// release without a set (go1.28, a development build), the testing
// patch alone and its runtime unpatched, named; a runtime whose rand.go
// is not its release's text (a 1.27.x that changed it), unseeded with
// the sched and code patches left off with it; one whose proc.go changed,
// seeded without the sched patch. The release's real sources, copied
// and changed where a case says.
func TestApplyPatches(t *testing.T) {
	const release = "go1.27"
	root := releaseRoot(t, release)
	all := []string{PatchNameTesting, PatchNameSeed, PatchNameSched, PatchNameCode}
	tests := []struct {
		name, version string
		// change is the file changed in the copy of the toolchain's
		// sources, "" none.
		change            string
		applied           []string
		seeded            bool
		says, runtimeSays string
	}{
		{name: "a known release", version: testToolchains[release], applied: all, seeded: true,
			says: "patches for go1.27: testing, runtime seed, sched, code"},
		{name: "a release without a set", version: "go1.28.1", applied: []string{PatchNameTesting},
			says: "patches: testing; runtime patches: none (go1.28 not known: known go1.26, go1.27)"},
		{name: "a development build", version: "devel go1.28-1a2b3c4d Mon Nov 2 10:00:00 2026 +0000", applied: []string{PatchNameTesting},
			says: "patches: testing; runtime patches: none (devel go1.28-1a2b3c4d not known: known go1.26, go1.27)"},
		{name: "rand.go changed", version: "go1.27.9", change: "runtime/rand.go", applied: []string{PatchNameTesting},
			says: "patches for go1.27: testing; not applied: runtime seed (runtime/rand.go is not go1.27's text); not applied: sched (it goes with the runtime seed); not applied: code (it goes with the runtime seed)"},
		{name: "proc.go changed", version: "go1.27.9", change: "runtime/proc.go", applied: []string{PatchNameTesting, PatchNameSeed, PatchNameCode}, seeded: true,
			says: "patches for go1.27: testing, runtime seed, code; not applied: sched (runtime/proc.go is not go1.27's text)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := root
			if tt.change != "" {
				r = changedRoot(t, root, tt.change)
			}
			p, extra, err := applyPatches(r, tt.version, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Applied, tt.applied) || p.Seeded() != tt.seeded {
				t.Errorf("applied %q (seeded %v), want %q (seeded %v)", p.Applied, p.Seeded(), tt.applied, tt.seeded)
			}
			if got := p.String(); got != tt.says {
				t.Errorf("says\n%s\nwant\n%s", got, tt.says)
			}
			if len(extra) != len(p.Applied) {
				t.Errorf("%d overlay entries for %d patches applied", len(extra), len(p.Applied))
			}
			for target, src := range extra {
				if !strings.HasPrefix(target, filepath.Join(r, "src")+string(filepath.Separator)) {
					t.Errorf("overlay entry %s is not the toolchain's", target)
				}
				if _, err := os.Stat(src); err != nil {
					t.Errorf("overlay file: %v", err)
				}
			}
		})
	}
}

// changedRoot is a GOROOT with the sources of root's runtime and testing
// packages (what the patches read), rel among them changed
// (changeTexts).
func changedRoot(t *testing.T, root, rel string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"runtime/rand.go", "runtime/proc.go", "runtime/iface.go", "testing/benchmark.go"} {
		b, err := os.ReadFile(filepath.Join(root, "src", f))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if f == rel {
			src = changeTexts(t, src, rel)
		}
		p := filepath.Join(dir, "src", filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// changeTexts changes a text of go1.27's patch of rel in src, a comment
// line added in it, as a release that rewrote it.
func changeTexts(t *testing.T, src, rel string) string {
	t.Helper()
	var old string
	switch rel {
	case "runtime/rand.go":
		old = seedPatches127[len(seedPatches127)-1].old
	case "runtime/proc.go":
		old = schedPatch.old
	default:
		t.Fatalf("no change for %s", rel)
	}
	if !strings.Contains(src, old) {
		t.Fatalf("%s does not have the text to change", rel)
	}
	i := strings.Index(old, "\n") + 1
	return strings.Replace(src, old, old[:i]+"\t// rewritten\n"+old[i:], 1)
}

// TestPatchesString: what the handshake and the reports say.
func TestPatchesString(t *testing.T) {
	tests := []struct {
		p    Patches
		want string
	}{
		{Patches{Release: "go1.26", Applied: []string{"testing", "runtime seed", "sched", "code"}}, "patches for go1.26: testing, runtime seed, sched, code"},
		{Patches{Unknown: "go1.28 not known: known go1.26, go1.27"}, "patches: none; runtime patches: none (go1.28 not known: known go1.26, go1.27)"},
		{Patches{Release: "go1.27", Skipped: []Skipped{{"testing", "testing/benchmark.go is not go1.27's text"}}, Applied: []string{"runtime seed"}},
			"patches for go1.27: runtime seed; not applied: testing (testing/benchmark.go is not go1.27's text)"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v says %q, want %q", tt.p, got, tt.want)
		}
	}
}
