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
// random choices. Two processes with the same value draw the same values
// in the same order (on one P; seedPatches), so two builds' processes of
// one seed meet the same random inputs and their counts pair
// (docs/counted.md). Without the variable the runtime seeds itself as it
// always does.
const SeedVar = worker.RuntimeSeedVar

// seedPatches are the places in the runtime's rand.go that the patch
// changes; each old text must occur exactly once (Go 1.26's runtime:
// TestPatchRuntimeSeed checks the installed toolchain's), or nothing is
// patched and the build is counted unseeded, never half patched.
//
//   - randinit takes its seed from SeedVar, when set, before it reads
//     AT_RANDOM (startupRand); a seeded process also starts one stream
//     of its own from it (wirebenchStream).
//   - rand, every draw of the runtime and of the packages linked to it
//     (map seeds and iteration order, sync.Map, math/rand, math/rand/v2,
//     hash/maphash), takes the next value of that one stream whenever
//     the calling thread holds the process's only P (GOMAXPROCS=1, as
//     counted processes run). Unpatched, each thread (M) draws from a
//     stream of its own, seeded as the thread starts, and which thread
//     runs the benchmark's goroutine after a blocking system call
//     depends on timing, so one seed gave several outcomes. With one P
//     no other thread can draw at the same time, so the stream needs no
//     lock; a thread without the P, or a process with more than one P,
//     draws from its own stream as before.
//   - cheaprand, the runtime's cheap generator, likewise takes one state
//     (wirebenchCheap) on the one P (amd64 and arm64, where it is wyrand).
//     It decides among other things when a type assertion's or a type
//     switch's cache is rebuilt (about 1 in 1,000 misses): until then
//     each assertion looks its itab up in the runtime's table, so the
//     thread the benchmark ran on moved its count: two processes' blocks
//     of msgpack/v5's StructManual were 2.2% apart, most of it in
//     runtime.typeAssert, getitab and itabTableType.find.
//   - mrandinit seeds a new thread's cheap generator from the new
//     thread's stream, not from a draw of the creating thread's, so that
//     starting a thread (which the scheduler does when it likes) takes
//     nothing from the one stream.
var seedPatches = []struct{ old, new string }{
	{
		"\tseed := &globalRand.seed\n\tif len(startupRand) >= 16 &&\n",
		"\tseed := &globalRand.seed\n\tif s := wirebenchSeed(); s != \"\" {\n\t\tfor i := 0; i < len(s); i++ {\n\t\t\tseed[i%len(seed)] ^= s[i]\n\t\t}\n\t\tone := *seed\n\t\tone[0] ^= 1\n\t\twirebenchStream.Init(one)\n\t\twirebenchCheap = byteorder.LEUint64(one[8:])\n\t\twirebenchCodeCheap = byteorder.LEUint64(one[16:])\n\t\twirebenchOneStream = true\n\t} else if len(startupRand) >= 16 &&\n",
	},
	{
		"\tmp := getg().m\n\tc := &mp.chacha8\n\tfor {\n",
		"\tmp := getg().m\n\tc := &mp.chacha8\n\tif wirebenchOnOneP(mp) {\n\t\tc = &wirebenchStream\n\t}\n\tfor {\n",
	},
	{
		"func cheaprand() uint32 {\n\tmp := getg().m\n",
		"func cheaprand() uint32 {\n\tmp := getg().m\n\tstate := &mp.cheaprand\n\tif wirebenchOnOneP(mp) {\n\t\tstate = &wirebenchCheap\n\t}\n",
	},
	{
		"\t\tmp.cheaprand += 0xa0761d6478bd642f\n\t\thi, lo := math.Mul64(mp.cheaprand, mp.cheaprand^0xe7037ed1a0b428db)\n",
		"\t\t*state += 0xa0761d6478bd642f\n\t\thi, lo := math.Mul64(*state, *state^0xe7037ed1a0b428db)\n",
	},
	{
		"\tmp.chacha8.Init64(seed)\n\tmp.cheaprand = rand()\n",
		"\tmp.chacha8.Init64(seed)\n\tmp.cheaprand = seed[0] ^ seed[1]\n",
	},
}

// PatchRuntimeSeed returns src, the runtime's rand.go, with its random
// state taken from SeedVar when it is set (seedPatches), or false when
// src does not have every text the patch expects. The variable is read
// from the environment the kernel passed (after argv), as the runtime's
// own getGodebugEarly reads GODEBUG: randinit runs before the
// environment is parsed. Linux only, where the environment follows argv.
func PatchRuntimeSeed(src string) (string, bool) {
	if !strings.Contains(src, "\nimport (\n") {
		return "", false
	}
	for _, p := range seedPatches {
		if strings.Count(src, p.old) != 1 {
			return "", false
		}
	}
	for _, p := range seedPatches {
		src = strings.Replace(src, p.old, p.new, 1)
	}
	return src + `
// wirebenchStream is the one stream a seeded process draws from while
// it runs on one P, and wirebenchOneStream says it is in use. Added by
// wirebench to its own counted builds of a test binary.
var (
	wirebenchStream    chacha8rand.State
	wirebenchCheap     uint64
	wirebenchCodeCheap uint64
	wirebenchOneStream bool
)

// wirebenchCodeRand is cheaprand for the decisions the code's own
// operations make (when a type assertion's or type switch's cache is
// rebuilt: the patched iface.go): in a seeded process on its one P it
// draws from a state of its own, which nothing else draws from, so that
// the scheduler's draws (which depend on how often it found nothing to
// run, a matter of time) do not move it. Added by wirebench to its own
// counted builds of a test binary.
//
//go:nosplit
func wirebenchCodeRand() uint32 {
	if !wirebenchOnOneP(getg().m) {
		return cheaprand()
	}
	wirebenchCodeCheap += 0xa0761d6478bd642f
	hi, lo := math.Mul64(wirebenchCodeCheap, wirebenchCodeCheap^0xe7037ed1a0b428db)
	return uint32(hi ^ lo)
}

// wirebenchOnOneP reports whether mp draws from the process's one stream
// and cheap state: the process is seeded, runs on one P, and mp holds it,
// so no other thread can draw at the same time.
//
//go:nosplit
func wirebenchOnOneP(mp *m) bool {
	return wirebenchOneStream && mp.p != 0 && gomaxprocs == 1
}

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
