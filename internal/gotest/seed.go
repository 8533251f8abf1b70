package gotest

import (
	"strings"

	"github.com/wirebench/wirebench/internal/worker"
)

// SeedVar is the environment variable (worker.RuntimeSeedVar) whose
// value, in a counted build of a test binary (Tree.TimerHooks), seeds the Go runtime's random state in place of
// the bytes the kernel gives every process (AT_RANDOM): the hash seeds of
// maps and sync.Map, map iteration order, the unseeded global sources of
// math/rand and math/rand/v2, the scheduler's and the memory profiler's
// random choices. Two processes with the same value start from the same
// global state, so two builds' processes of one seed mostly meet the
// same random inputs and their counts pair (docs/counted.md); which
// thread takes which draw of it still depends on scheduling, so not
// always. Without the variable the runtime seeds itself as it always
// does.
const SeedVar = worker.RuntimeSeedVar

// seedPatch is the place in the runtime's rand.go where randinit takes
// its seed: before it reads AT_RANDOM (startupRand), the patched runtime
// reads SeedVar, whose bytes become the seed. The old text must occur
// exactly once: it is Go 1.26's runtime (TestPatchRuntimeSeed checks the
// installed toolchain's); a release that rewrote it is counted unseeded.
var seedPatch = struct{ old, new string }{
	"\tseed := &globalRand.seed\n\tif len(startupRand) >= 16 &&\n",
	"\tseed := &globalRand.seed\n\tif s := wirebenchSeed(); s != \"\" {\n\t\tfor i := 0; i < len(s); i++ {\n\t\t\tseed[i%len(seed)] ^= s[i]\n\t\t}\n\t} else if len(startupRand) >= 16 &&\n",
}

// PatchRuntimeSeed returns src, the runtime's rand.go, with randinit
// seeded from SeedVar when it is set, or false when src does not have the
// text the patch expects. The variable is read from the environment the
// kernel passed (after argv), as the runtime's own getGodebugEarly reads
// GODEBUG: randinit runs before the environment is parsed. Linux only,
// where the environment follows argv.
func PatchRuntimeSeed(src string) (string, bool) {
	if strings.Count(src, seedPatch.old) != 1 || !strings.Contains(src, "\nimport (\n") {
		return "", false
	}
	src = strings.Replace(src, seedPatch.old, seedPatch.new, 1)
	return src + `
// wirebenchSeed is the value of ` + SeedVar + ` in the environment the
// process started with, "" when unset or not on Linux. Added by wirebench
// to its own counted builds of a test binary, so that two builds'
// processes of one seed draw the same random state.
func wirebenchSeed() string {
	if GOOS != "linux" {
		return ""
	}
	const prefix = "` + SeedVar + `="
	for i := int32(0); argv_index(argv, argc+1+i) != nil; i++ {
		p := argv_index(argv, argc+1+i)
		s := unsafe.String(p, findnull(p))
		if len(s) > len(prefix) && s[:len(prefix)] == prefix {
			return s[len(prefix):]
		}
	}
	return ""
}
`, true
}

// runtimeOverlay writes the seeded runtime's rand.go of the toolchain at
// root into dir and returns the overlay entry that puts it in place, or
// ok false when that runtime does not take the patch. Every package is
// compiled again with it once (about 20 s here), then comes from the
// build cache.
func runtimeOverlay(root, dir string) (target, src string, ok bool, err error) {
	return patchOverlay(root, "runtime/rand.go", dir, "runtime-rand.go", PatchRuntimeSeed)
}
