// Package callgrind counts the work of a block of code instead of timing
// it: the instructions it executes and, with cache simulation, an
// estimate of the cycles they take, under Valgrind's callgrind tool.
//
// Wall time on a shared 2-vCPU machine moves by more than the changes a
// gate must catch (docs/ab-mode.md, docs/sensitivity.md); a count does
// not care what runs beside it. A worker process runs under
// `valgrind --tool=callgrind --instr-atstart=no` (Command), so nothing is
// instrumented until the worker itself asks, and brackets each measured
// block with client requests (Begin, End): start instrumentation, zero
// the counters of every thread, run the block, dump every thread's
// counters to a file, stop instrumentation. The orchestrator reads the dump (ReadDump) and turns
// it into per-operation counts (Counts), and reads where the block's work
// went: the self cost of every function (ReadProfile, Dumps.Profile) and
// of every source line (ReadLines), which WriteCachegrind writes for
// Valgrind's cg_diff and cg_annotate. FuncName makes a Go function's
// symbol, as a profile names it, readable.
//
// The client requests are issued from assembly (amd64 and arm64, no cgo),
// as the Go runtime's own valgrind support does; outside Valgrind they do
// nothing.
//
// Go under callgrind needs two settings, both measured (see
// ../../docs/design/counted.md, "How a count is made"):
// GODEBUG=asyncpreemptoff=1, or callgrind aborts
// on the signal that preempts a goroutine; GOMAXPROCS=1, or idle and
// spinning threads of the runtime are counted into the block. Command
// sets both.
package callgrind
