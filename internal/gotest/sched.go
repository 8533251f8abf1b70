package gotest

import "strconv"

// QuietSchedNS is how long, in wall time, a counted process's only P
// runs one time slice (or sits in one system call) before the runtime's
// monitor preempts it or takes the P back: a second, where the runtime
// itself waits 10 ms for a slice and 20 µs for a system call.
//
// Under Valgrind a process runs 50-100 times slower and one thread at a
// time, so the monitor thread (sysmon) wakes inside nearly every
// blocking call and every few thousand instructions of a loop, and what
// it decides depends only on how much wall time went by: with one P (as
// counted processes run) it takes the P from every system call it finds
// twice, and the goroutine then leaves the call by the slow paths
// (exitsyscallTryGetP, exitsyscallNoP, stopm, a futex sleep, another
// thread woken to spin for work), and it preempts every 10 ms slice
// (gopreempt_m, schedule, findRunnable). A benchmark that made a system
// call an operation (a write to /dev/null, a pipe written and read) came
// out 2.3-3.2% apart between processes for that alone. A second instead
// keeps what the monitor is for, progress: a goroutine that spins
// waiting for another one, or a call that really blocks, is still
// preempted or has its P taken, once a second instead of a hundred
// times (docs/design/counted-pairs.md, "What a count contains").
const QuietSchedNS = 1_000_000_000

// schedPatch is the place in the runtime's proc.go, in retake (the
// monitor's loop over the Ps), where a counted process's one P is left
// alone until it has run one slice for QuietSchedNS: the monitor notes
// the slice's start and goes on to the next P, taking neither the
// scheduler's lock nor the goroutine's status (which would make the
// goroutine spin in exitsyscall while the monitor holds it). Its old
// text must occur exactly once, or nothing is patched: retake is the
// same in go1.26 and go1.27, and both releases' sets use it
// (TestPatchRuntimeSched checks each release's source).
var schedPatch = textPatch{
	"\t\tpd := &pp.sysmontick\n\t\tsysretake := false\n",
	"\t\tpd := &pp.sysmontick\n\t\tif wirebenchQuiet(pp, pd, now) {\n\t\t\tcontinue\n\t\t}\n\t\tsysretake := false\n",
}

// PatchRuntimeSched returns src, the runtime's proc.go, with the
// monitor's preemption and retaking of a counted process's one P held
// off for QuietSchedNS (schedPatch), or false when src does not have the
// text the patch expects. "Counted" is what the seed patch decides
// (its wirebenchOneStream: SeedVar set, one P), so this
// patch goes only with that one, and a process without SeedVar, or with
// more than one P, is scheduled as the runtime always does.
func PatchRuntimeSched(src string) (string, bool) {
	src, ok := applyTexts(src, 1, []string{"\nfunc retake(now int64) uint32 {\n"}, []textPatch{schedPatch})
	if !ok {
		return "", false
	}
	return src + `
// wirebenchQuiet reports whether the monitor leaves pp alone this round:
// the process is counted (seeded, one P: wirebenchOneStream) and pp has
// run its current slice, or sat in its current system call, for less
// than a second of wall time. Added by wirebench to its own counted
// builds of a test binary, so that what the monitor does inside a
// counted block does not depend on how much wall time Valgrind took.
func wirebenchQuiet(pp *p, pd *sysmontick, now int64) bool {
	if !wirebenchOneStream || gomaxprocs != 1 {
		return false
	}
	if t := pp.schedtick; pd.schedtick != t {
		pd.schedtick = t
		pd.schedwhen = now
		return true
	}
	return pd.schedwhen+` + strconv.Itoa(QuietSchedNS) + ` > now
}
`, true
}

// codePatches are the texts of the runtime's iface.go where a type
// assertion or type switch decides, at random, whether to rebuild its
// cache (about 1 in 1,000 misses, then less often the larger the cache):
// each must occur exactly twice (typeAssert and interfaceSwitch), or
// nothing is patched. Patched, they draw from wirebenchCodeRand, a state
// of their own in a seeded process on one P, instead of the cheap
// generator the scheduler also draws from: a scheduler that found
// nothing to run once more (it draws to choose where to steal from, a
// matter of time) moved when the cache was rebuilt, and until then
// every assertion looks its itab up in the runtime's table
// (itabTableType.find): two processes' blocks of msgpack/v5's
// StructManual, one seed, 42,298 instructions apart there of 45,689.
// typeAssert and interfaceSwitch are the same in go1.26 and go1.27.
var codePatches = []textPatch{
	{"\tif cheaprand()&1023 != 0 {\n", "\tif wirebenchCodeRand()&1023 != 0 {\n"},
	{"\tif cheaprand()&uint32(oldC.Mask) != 0 {\n", "\tif wirebenchCodeRand()&uint32(oldC.Mask) != 0 {\n"},
}

// PatchRuntimeCode returns src, the runtime's iface.go, with its caches'
// random decisions drawn from wirebenchCodeRand (codePatches), or false
// when src does not have every text the patch expects twice. Like
// PatchRuntimeSched it goes only with the seed patch, which defines
// wirebenchCodeRand.
func PatchRuntimeCode(src string) (string, bool) {
	return applyTexts(src, 2, nil, codePatches)
}
