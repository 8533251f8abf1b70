// Package source is where benchmarks come from. A Source gives the
// candidate's results: the embedded serialization suite measured in this
// process, or a results or benchmark-text file another step wrote (a
// user's `go test -bench` output, the shards of a job matrix). A Source
// that can also be built from a source tree (a Target) serves the
// same-runner A/B engine, which builds the base and the head and measures
// them side by side.
//
// Sources are the seam between "what is measured" and the one flow
// (internal/check) that compares, reports and delivers it: adding a source is one file
// here, and nothing downstream changes.
package source
