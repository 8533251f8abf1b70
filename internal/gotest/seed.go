package gotest

import (
	"github.com/wirebench/wirebench/internal/worker"
)

// SeedVar is the environment variable (worker.RuntimeSeedVar) whose
// value, in a counted build of a test binary (Tree.TimerHooks), seeds the Go runtime's random state in place of
// the bytes the kernel gives every process (AT_RANDOM): the hash seeds of
// maps and sync.Map, map iteration order, the unseeded global sources of
// math/rand and math/rand/v2, the scheduler's and the memory profiler's
// random choices. Two processes with the same value draw the same values
// in the same order (on one P; seedPatches126, seedPatches127), so two builds' processes of
// one seed meet the same random inputs and their counts pair
// (docs/design/counted-pairs.md, "Pairs"). Without the variable the
// runtime seeds itself as it
// always does.
const SeedVar = worker.RuntimeSeedVar

// The seed patch, per release: the places in the runtime's rand.go it
// changes, each old text exactly once (checked against each release's
// own source: TestPatchRuntimeSeed), or nothing is patched and the build
// is counted unseeded, never half patched. Both releases' patches do the
// same:
//
//   - randinit takes its seed from SeedVar, when set, before it reads
//     AT_RANDOM (startupRand); a seeded process also starts one stream
//     of its own from it (wirebenchStream), and the cheap states below.
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
//     runtime.typeAssert, getitab and itabTableType.find. The code's own
//     decisions draw from a state of their own (wirebenchCodeRand,
//     PatchRuntimeCode).
//   - mrandinit seeds a new thread's cheap generator from the new
//     thread's stream, not from a draw of the creating thread's, so that
//     starting a thread (which the scheduler does when it likes) takes
//     nothing from the one stream.
//
// go1.27 made cheaprand 32-bit (a uint32 state, bits.Mul32) and added a
// 64-bit one, cheaprandu64 (and cheaprand64 on it), with a state of its
// own (mp.cheaprand64), which the memory profiler's sampling and the
// lock's spinning draw from: its patch takes that state on the one P too
// (wirebenchCheap64), and mrandinit seeds both without a draw.

// seedRandinit is the start of randinit, the same in both releases: the
// seed is read there. The cheap states' seeding differs (setCheap).
func seedRandinit(setCheap string) textPatch {
	return textPatch{
		"\tseed := &globalRand.seed\n\tif len(startupRand) >= 16 &&\n",
		"\tseed := &globalRand.seed\n\tif s := wirebenchSeed(); s != \"\" {\n\t\tfor i := 0; i < len(s); i++ {\n\t\t\tseed[i%len(seed)] ^= s[i]\n\t\t}\n\t\tone := *seed\n\t\tone[0] ^= 1\n\t\twirebenchStream.Init(one)\n" +
			setCheap + "\t\twirebenchOneStream = true\n\t} else if len(startupRand) >= 16 &&\n",
	}
}

// seedRand is rand's draw from the one stream, and seedCheaprand
// cheaprand's start, the same texts in both releases.
var (
	seedRand = textPatch{
		"\tmp := getg().m\n\tc := &mp.chacha8\n\tfor {\n",
		"\tmp := getg().m\n\tc := &mp.chacha8\n\tif wirebenchOnOneP(mp) {\n\t\tc = &wirebenchStream\n\t}\n\tfor {\n",
	}
	seedCheaprand = textPatch{
		"func cheaprand() uint32 {\n\tmp := getg().m\n",
		"func cheaprand() uint32 {\n\tmp := getg().m\n\tstate := &mp.cheaprand\n\tif wirebenchOnOneP(mp) {\n\t\tstate = &wirebenchCheap\n\t}\n",
	}
)

// seedPatches126 is go1.26's seed patch: cheaprand is 64-bit wyrand
// (math.Mul64 of internal/runtime/math).
var seedPatches126 = []textPatch{
	seedRandinit("\t\twirebenchCheap = byteorder.LEUint64(one[8:])\n\t\twirebenchCodeCheap = byteorder.LEUint64(one[16:])\n"),
	seedRand,
	seedCheaprand,
	{
		"\t\tmp.cheaprand += 0xa0761d6478bd642f\n\t\thi, lo := math.Mul64(mp.cheaprand, mp.cheaprand^0xe7037ed1a0b428db)\n",
		"\t\t*state += 0xa0761d6478bd642f\n\t\thi, lo := math.Mul64(*state, *state^0xe7037ed1a0b428db)\n",
	},
	{
		"\tmp.chacha8.Init64(seed)\n\tmp.cheaprand = rand()\n",
		"\tmp.chacha8.Init64(seed)\n\tmp.cheaprand = seed[0] ^ seed[1]\n",
	},
}

// seedPatches127 is go1.27's seed patch: cheaprand is 32-bit wyrand
// (bits.Mul32) and cheaprandu64 64-bit wyrand on a state of its own.
var seedPatches127 = []textPatch{
	seedRandinit("\t\twirebenchCheap = uint32(byteorder.LEUint64(one[8:]))\n\t\twirebenchCodeCheap = uint32(byteorder.LEUint64(one[16:]))\n\t\twirebenchCheap64 = byteorder.LEUint64(one[24:])\n"),
	seedRand,
	seedCheaprand,
	{
		"\t\tmp.cheaprand += 0x53c5ca59\n\t\thi, lo := bits.Mul32(mp.cheaprand, mp.cheaprand^0x74743c1b)\n",
		"\t\t*state += 0x53c5ca59\n\t\thi, lo := bits.Mul32(*state, *state^0x74743c1b)\n",
	},
	{
		"\t\tmp := getg().m\n\t\t// Implement wyrand: https://github.com/wangyi-fudan/wyhash\n\t\tmp.cheaprand64 += 0xa0761d6478bd642f\n\t\thi, lo := bits.Mul64(mp.cheaprand64, mp.cheaprand64^0xe7037ed1a0b428db)\n",
		"\t\tmp := getg().m\n\t\tstate := &mp.cheaprand64\n\t\tif wirebenchOnOneP(mp) {\n\t\t\tstate = &wirebenchCheap64\n\t\t}\n\t\t*state += 0xa0761d6478bd642f\n\t\thi, lo := bits.Mul64(*state, *state^0xe7037ed1a0b428db)\n",
	},
	{
		"\tmp.chacha8.Init64(seed)\n\tmp.cheaprand = uint32(rand())\n\tmp.cheaprand64 = rand()\n",
		"\tmp.chacha8.Init64(seed)\n\tmp.cheaprand = uint32(seed[0] ^ seed[1])\n\tmp.cheaprand64 = seed[2] ^ seed[3]\n",
	},
}

// The imports each release's patched rand.go uses: a rand.go without
// them is not the release's.
var (
	seedNeeds126 = []string{"\n\t\"internal/byteorder\"\n", "\n\t\"internal/chacha8rand\"\n", "\n\t\"internal/runtime/math\"\n", "\n\t\"unsafe\"\n"}
	seedNeeds127 = []string{"\n\t\"internal/byteorder\"\n", "\n\t\"internal/chacha8rand\"\n", "\n\t\"math/bits\"\n", "\n\t\"unsafe\"\n"}
)

// seedState126 and seedState127 are the seed patch's state and
// wirebenchCodeRand, of each release's cheap generator: the code's own
// cheap state draws as the release's cheaprand does.
const (
	seedState126 = `
// wirebenchStream is the one stream a seeded process draws from while
// it runs on one P, wirebenchCheap the one cheap state (cheaprand's),
// wirebenchCodeCheap the code's own (wirebenchCodeRand), and
// wirebenchOneStream says they are in use. Added by wirebench to its own
// counted builds of a test binary.
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
`
	seedState127 = `
// wirebenchStream is the one stream a seeded process draws from while
// it runs on one P, wirebenchCheap and wirebenchCheap64 the one cheap
// states (cheaprand's, cheaprandu64's), wirebenchCodeCheap the code's own
// (wirebenchCodeRand), and wirebenchOneStream says they are in use.
// Added by wirebench to its own counted builds of a test binary.
var (
	wirebenchStream    chacha8rand.State
	wirebenchCheap     uint32
	wirebenchCheap64   uint64
	wirebenchCodeCheap uint32
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
	wirebenchCodeCheap += 0x53c5ca59
	hi, lo := bits.Mul32(wirebenchCodeCheap, wirebenchCodeCheap^0x74743c1b)
	return hi ^ lo
}
`
)

// seedCommon are the seed patch's functions that both releases' share.
const seedCommon = `
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
`

// seedPatch returns the seed patch of a release: rand.go with its random
// state taken from SeedVar when it is set, or false when src does not
// have every text the patch expects (each of patches once, each of needs).
// The variable is read from the environment the kernel passed (after
// argv), as the runtime's own getGodebugEarly reads GODEBUG: randinit
// runs before the environment is parsed. Linux only, where the
// environment follows argv.
func seedPatch(needs []string, patches []textPatch, state string) func(string) (string, bool) {
	return func(src string) (string, bool) {
		out, ok := applyTexts(src, 1, needs, patches)
		if !ok {
			return "", false
		}
		return out + state + seedCommon, true
	}
}

// patchSeed126 and patchSeed127 are the seed patches of go1.26 and go1.27.
var (
	patchSeed126 = seedPatch(seedNeeds126, seedPatches126, seedState126)
	patchSeed127 = seedPatch(seedNeeds127, seedPatches127, seedState127)
)
