package callgrind

import "unsafe"

// Client requests: Valgrind's core requests RUNNING_ON_VALGRIND and
// GDB_MONITOR_COMMAND (valgrind.h), and callgrind's own,
// VG_USERREQ_TOOL_BASE('C','T') + 4 and 5 (callgrind.h).
const (
	reqRunningOnValgrind = 0x1001
	reqMonitorCommand    = 0x1202

	reqBase                 = 'C'<<24 | 'T'<<16
	reqStartInstrumentation = reqBase + 4
	reqStopInstrumentation  = reqBase + 5
)

// Callgrind's monitor commands "zero" and "dump", NUL-terminated, as
// Begin and End issue them (MonitorZero, MonitorDump).
var (
	zeroCommand = []byte(MonitorZero + "\x00")
	dumpCommand = []byte(MonitorDump + "\x00")
)

// MonitorZero and MonitorDump are the monitor commands that zero and dump
// the counters of every thread of the process.
//
// Not callgrind's own client requests ZERO_STATS and DUMP_STATS: those
// act on the calling thread only (callgrind's main.c passes
// only_current_thread), and a Go benchmark's goroutine does not keep its
// thread: after a blocking system call or a thread that exits, it goes
// on on another, whose work the calling thread's dump misses (and whose
// counters, never zeroed, carry what earlier blocks left there). The
// monitor commands, issued from the process with Valgrind's core request
// GDB_MONITOR_COMMAND (no debugger needed), reach callgrind's
// zero_all_cost and dump_profile for all threads: a dump then writes one
// file per thread (see Dumps).
const (
	MonitorZero = "zero"
	MonitorDump = "dump"
)

// OnValgrind reports whether this process runs under Valgrind.
func OnValgrind() bool { return clientRequest(reqRunningOnValgrind, 0, 0, 0, 0, 0) > 0 }

// monitor issues a monitor command (NUL-terminated) to Valgrind.
func monitor(cmd []byte) {
	clientRequest(reqMonitorCommand, uintptr(unsafe.Pointer(&cmd[0])), 0, 0, 0, 0)
}

// Begin starts counting: instrumentation on (if it is not already), the
// counters of every thread zeroed. What runs between Begin and End, on
// any thread, is what the dump End writes counts. Begin and End
// themselves cost a few dozen instructions, counted into the block.
func Begin() {
	clientRequest(reqStartInstrumentation, 0, 0, 0, 0, 0)
	monitor(zeroCommand)
}

// End stops counting: the counters of every thread since Begin are
// dumped to the next dump files (see Dumps) and, with stop,
// instrumentation is switched off again, so the code up to the next
// Begin runs uninstrumented, several times faster; but switching it on
// and off re-translates the code the process runs, which costs more than
// running a little code instrumented.
func End(stop bool) {
	monitor(dumpCommand)
	if stop {
		clientRequest(reqStopInstrumentation, 0, 0, 0, 0, 0)
	}
}
