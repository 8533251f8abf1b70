// Package cli holds wirebench's commands, under the two binaries: the
// command-line tool (cmd/wirebench) and the action image's entrypoint
// (cmd/action), both a thin main over Main.
//
// The commands read their flags (or, under Actions, the action's inputs)
// into one config.Config, take their benchmarks from a source.Source
// (the embedded suite, a module's go test benchmarks, files), measure
// them, and hand the outcome of internal/check to internal/deliver:
//
//	run      measure and print the run
//	compare  compare two files of results or Go benchmark text
//	check    measure, compare with the stored baseline, report
//	update   measure and store the new baseline
//	merge    merge a job matrix's shards
//	ab       build two trees and compare them on this machine
//	action   the GitHub Action: one of the above, by its event
//	worker   one build's benchmarks behind the workers' protocol
//
// Every binary serves every command: the action's image runs its own
// binary as the embedded suite's worker and as the sandbox's first step.
package cli
