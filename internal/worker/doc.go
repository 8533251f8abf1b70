// Package worker is the measuring end of a build: a long-lived process
// (`wirebench worker`, or a test binary with the worker added) that holds
// a prepared suite and, on request, warms up and runs one named benchmark
// for a given number of iterations, answering with the time, allocations
// and bytes it measured, or, under callgrind, counts one block of it
// (Request.Count). How one block is measured is the worker's; which
// blocks, in which processes, is its caller's: the same-runner A/B
// orchestrator (internal/ab) starts workers of both builds — the base,
// the head and a second base worker for its A/A check — and alternates
// them in short blocks, so both builds see the same machine at the same
// moment; counting (internal/count) starts fresh processes of a build
// under callgrind.
//
// # Protocol
//
// The protocol is JSON lines over the worker's stdin (requests) and stdout
// (replies): one JSON object per line, UTF-8, '\n'-terminated. Nothing else
// is written to stdout; diagnostics go to stderr.
//
// On start the worker writes one Hello line: the protocol name
// ("wirebench-ab"), the version it speaks, the oldest version it accepts,
// its suite name, its benchmark names and its environment. The orchestrator
// checks the versions (see Negotiate) and then sends requests, one at a
// time, each with an id the reply echoes:
//
//	{"id":1,"op":"warmup","name":"BenchmarkSerialize/codec=raw/dataset=small","warmup_ns":30000000}
//	{"id":2,"op":"run","name":"BenchmarkSerialize/codec=raw/dataset=small","n":52000,"pre":13000}
//	{"id":3,"op":"size","name":"BenchmarkSerialize/codec=raw/dataset=small"}
//	{"id":4,"op":"gc"}
//	{"id":5,"op":"quit"}
//
// "warmup" runs the benchmark for about warmup_ns and replies with its last
// batch; "run" runs pre untimed iterations, then exactly n iterations as
// one timed block; "size" gives
// the encoded message size; "gc" collects the heap now (outside any timed
// block); "quit" replies and exits. A reply has "ok": true and the
// measurement, or "ok": false and an "error" — unknown benchmark, malformed
// line, unknown op, a benchmark that failed or panicked. A bad request never
// ends the worker. Unknown fields are ignored, so a newer orchestrator may
// add optional fields within a version.
//
// # Garbage collection
//
// The worker keeps the collector off for its whole life, so no collection
// ever lands inside a timed block. A runtime.GC() before every ~1 ms block
// would cost as much as the block when the heap is large, so the
// orchestrator decides instead: it adds up the bytes every worker reports
// and, when any would pass a bound, sends "gc" to all of them at the same
// point of the interleaving (between blocks), so the builds are collected
// identically. As a
// safety net a worker also collects on its own before a block when its
// garbage since the last collection exceeds Options.MaxGarbage, and says
// so in the reply ("collected": true).
package worker
