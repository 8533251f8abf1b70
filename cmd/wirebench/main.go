// Command wirebench gates Go benchmarks: a module's own go test
// benchmarks, or its embedded serialization suite, measured, tested for
// significant change, and failed on a regression of encoded size,
// allocations or speed. It is an ordinary command-line tool (and, under
// GitHub Actions, runs the action like cmd/action):
//
//	go install github.com/wirebench/wirebench/cmd/wirebench@latest
//
// Usage:
//
//	wirebench                      check the embedded suite against baseline/ if present, else run it
//	wirebench run [flags]          measure (--bench: your module's benchmarks) and print the run
//	wirebench compare [flags] BASELINE CANDIDATE
//	wirebench check [flags]        measure, compare with the baseline, report
//	wirebench update [flags]       measure and store the new baseline
//	wirebench merge [flags] SHARDS...
//	wirebench ab --base DIR [flags]
//
// Run `wirebench help` or `wirebench help COMMAND` for the flags, which
// internal/config defines; the commands are internal/cli's.
package main

import "github.com/wirebench/wirebench/internal/cli"

func main() { cli.Main(cli.Wirebench) }
