package callgrind

// Client requests: Valgrind's core request RUNNING_ON_VALGRIND and
// callgrind's own, VG_USERREQ_TOOL_BASE('C','T') + 0..5 (callgrind.h).
const (
	reqRunningOnValgrind = 0x1001

	reqBase                 = 'C'<<24 | 'T'<<16
	reqDumpStats            = reqBase + 0
	reqZeroStats            = reqBase + 1
	reqStartInstrumentation = reqBase + 4
	reqStopInstrumentation  = reqBase + 5
)

// OnValgrind reports whether this process runs under Valgrind.
func OnValgrind() bool { return clientRequest(reqRunningOnValgrind, 0, 0, 0, 0, 0) > 0 }

// Begin starts counting: instrumentation on (if it is not already),
// counters zeroed. What runs
// between Begin and End is what the dump End writes counts. Begin and
// End themselves cost a few dozen instructions, counted into the block.
func Begin() {
	clientRequest(reqStartInstrumentation, 0, 0, 0, 0, 0)
	clientRequest(reqZeroStats, 0, 0, 0, 0, 0)
}

// End stops counting: the counters since Begin are dumped to the next
// dump files (see Dumps) and, with stop, instrumentation is switched off
// again, so the code up to the next Begin runs uninstrumented, several
// times faster; but switching it on and off re-translates the code the
// process runs, which costs more than running a little code instrumented.
func End(stop bool) {
	clientRequest(reqDumpStats, 0, 0, 0, 0, 0)
	if stop {
		clientRequest(reqStopInstrumentation, 0, 0, 0, 0, 0)
	}
}
