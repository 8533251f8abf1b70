package gotest

import (
	"fmt"
	"strings"
)

// TimerHook is the variable a patched testing package (PatchTesting)
// calls on its benchmark timer's events, with the benchmark whose timer
// it is: TimerStop, TimerStart, TimerReset and TimerEnd. A parent benchmark's
// timer runs around its sub-benchmarks, so the worker acts on the events
// of the benchmark it runs only.
const TimerHook = "WirebenchTimerHook"

// The timer's events, as TimerHook is called with them.
const (
	TimerStop  = 0
	TimerStart = 1
	TimerReset = 2
	// TimerEnd follows the stop that ends a timed run of b.N
	// operations: b.Loop's last, while the benchmark function's
	// variables are still live, and the one after the function
	// returns (a function that used b.Loop has its second, with the
	// timer already stopped).
	TimerEnd = 3
)

// NetBytes is the function a patched testing package (PatchTesting)
// declares to read what a benchmark allocated since its timer's last
// reset (testing's own count, read at every stop of the timer): the
// worker counts a collection after a block only when the block
// allocated, since one that allocated nothing leaves the collector
// nothing of its own to do.
const NetBytes = "WirebenchNetBytes"

// NoRunGC is the variable a patched testing package (PatchTesting)
// reads before each run of a benchmark: set, the run does not collect
// garbage first. A counted request sets it: the worker has collected
// (and returned the free pages) just before, and under callgrind each
// of testing's collections (one before its run of one operation, one
// before the run of the block's size) took about as long as the block.
const NoRunGC = "WirebenchNoRunGC"

// hookCall is the call of TimerHook with event, indented by tabs.
func hookCall(tabs string, event int) string {
	return fmt.Sprintf("%sif %s != nil {\n%s\t%s(b, %d)\n%s}\n", tabs, TimerHook, tabs, TimerHook, event, tabs)
}

// timerPatches are the places in the testing package's benchmark.go that
// TimerHook is called from, each an old text and its new one: at the end
// of StartTimer's start (after its clock and memory statistics are read),
// at the beginning of StopTimer's stop (before they are read again), and
// at the end of ResetTimer, and after the stop that ends a run (b.Loop's
// last, runN's after the function); and runN's collection before a run,
// skipped while NoRunGC is set. What runs between TimerStart and TimerStop is
// what testing times; TimerReset zeroes what was counted, as ResetTimer
// zeroes the time. Each old text must occur exactly once: it is the text
// of go1.26's and go1.27's testing package, identical in both
// (TestPatchTesting checks each release's source); a release that
// rewrote it is counted without the hooks.
var timerPatches = []struct{ old, new string }{
	{"\t\tb.timerOn = true\n", "\t\tb.timerOn = true\n" + hookCall("\t\t", TimerStart)},
	{"func (b *B) StopTimer() {\n\tif b.timerOn {\n", "func (b *B) StopTimer() {\n\tif b.timerOn {\n" + hookCall("\t\t", TimerStop)},
	{"\tb.netAllocs = 0\n\tb.netBytes = 0\n}\n", "\tb.netAllocs = 0\n\tb.netBytes = 0\n" + hookCall("\t", TimerReset) + "}\n"},
	{"\tif !more {\n\t\tb.StopTimer()\n", "\tif !more {\n\t\tb.StopTimer()\n" + hookCall("\t\t", TimerEnd)},
	{"\tb.benchFunc(b)\n\tb.StopTimer()\n", "\tb.benchFunc(b)\n\tb.StopTimer()\n" + hookCall("\t", TimerEnd)},
	{"\truntime.GC()\n\tb.resetRaces()\n", "\tif !" + NoRunGC + " {\n\t\truntime.GC()\n\t}\n\tb.resetRaces()\n"},
}

// PatchTesting returns src, the testing package's benchmark.go, with
// TimerHook declared and called on the timer's events, or false when src
// does not have the text the patch expects (a Go release that rewrote the
// timer): the caller then counts without the hooks.
func PatchTesting(src string) (string, bool) {
	for _, p := range timerPatches {
		if strings.Count(src, p.old) != 1 {
			return "", false
		}
		src = strings.Replace(src, p.old, p.new, 1)
	}
	return src + `
// ` + TimerHook + `, when set, is called on a benchmark timer's events:
// 0 stop, 1 start, 2 reset, 3 the end of a timed run. Added by wirebench to its own builds of a
// test binary, which count the timed work under callgrind.
var ` + TimerHook + ` func(b *B, event int)

// ` + NoRunGC + `, when set, has a run of a benchmark start without
// collecting garbage first: the worker collected before the block.
var ` + NoRunGC + ` bool

// ` + NetBytes + ` is the bytes b allocated with its timer on since its
// last reset, as testing counts them for -benchmem.
func ` + NetBytes + `(b *B) uint64 { return b.netBytes }
`, true
}
