// Package gotest turns a Go module's own benchmarks (the BenchmarkXxx
// functions of its test files) into workers of wirebench's measuring
// engine. Discover finds the benchmark functions of the packages a pattern
// selects; Build compiles each package's test binary (go test -c) with a
// worker added by an overlay, so the user's tree is never touched: a test
// function, run inside the package's own TestMain, that serves the
// benchmarks over the worker protocol (internal/worker) on two file
// descriptors of its own, drives them with testing.RunBenchmarks at the
// iteration counts the engine asks for, and reads back what testing
// reports (ns/op, B/op, allocs/op and b.ReportMetric units). Whatever the
// benchmarks print on stdout or stderr cannot reach the protocol.
package gotest
