// Command action is wirebench: a serialization benchmark suite that
// guards pull requests against regressions in encoded size, allocations and
// speed. Under GitHub Actions it is the action's entry point; elsewhere it
// is an ordinary command-line tool.
//
// Usage:
//
//	action                      check against baseline/ if present, else run
//	action run [flags]          measure the suite and print a table
//	action compare [flags] OLD NEW
//	action check [flags]        measure, compare with the baseline, report
//	action update [flags]       measure and store the new baseline
//	action merge [flags] SHARDS...
//	action ab --base DIR [flags]
//
// Run `action help` or `action COMMAND -h` for the flags. The commands
// read their flags (or, under Actions, the action's inputs) into one
// config.Config, take their benchmarks from a source.Source, and hand the
// outcome of internal/pipeline to internal/deliver.
package main
