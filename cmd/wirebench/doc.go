// Command wirebench gates Go benchmarks: a module's own go test
// benchmarks, or its embedded serialization suite, measured, tested for
// significant change, and failed on a regression of encoded size,
// allocations or speed. Under GitHub Actions it is the action's entry
// point; elsewhere it is an ordinary command-line tool:
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
// internal/config defines. The commands read their flags (or, under
// Actions, the action's inputs) into one config.Config, take their
// benchmarks from a source.Source, and hand the outcome of
// internal/pipeline to internal/deliver.
package main
