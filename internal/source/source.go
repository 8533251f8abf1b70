// Package source is where benchmarks come from. A Source gives the
// candidate's results: the embedded serialization suite measured in this
// process, or a results or benchmark-text file another step wrote (a
// user's `go test -bench` output, the shards of a job matrix). A Source
// that can also be built from a source tree (a Target) serves the
// same-runner A/B engine, which builds the base and the head and measures
// them side by side.
//
// Sources are the seam between "what is measured" and the one pipeline
// that compares, reports and delivers it: adding a source is one file
// here, and nothing downstream changes.
package source

import (
	"context"
	"io"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/results"
)

// Source gives a candidate's results.
type Source interface {
	// Suite names the benchmarks in results and baselines, so that a
	// baseline of one suite is never compared with another's ("" for
	// benchmarks of no particular suite, such as a user's file).
	Suite() string
	// Title names what is measured, for reports ("default suite").
	Title() string
	// Results measures or reads the results, with notes for the report
	// (e.g. how shards were merged).
	Results(ctx context.Context, p Plan) (*results.Results, []string, error)
}

// Buildable is a Source the same-runner A/B mode can build from a source
// tree.
type Buildable interface {
	Source
	Target() ab.Target
}

// Plan is how to measure.
type Plan struct {
	Budget  time.Duration
	Samples int
	// Filter selects benchmarks by name ("" all).
	Filter string
	Seed   uint64
	// Shard is "I/N" to measure one shard of a partitioned suite.
	Shard string
	// Reference is the baseline's reference run when known: it balances
	// the shards by cost.
	Reference *results.Results
	// Progress receives progress lines; nil is silent.
	Progress io.Writer
	// Getenv reads the environment the results record (commit, runner).
	Getenv func(string) string
}

func (p Plan) getenv(k string) string {
	if p.Getenv == nil {
		return ""
	}
	return p.Getenv(k)
}

func (p Plan) progress() io.Writer {
	if p.Progress == nil {
		return io.Discard
	}
	return p.Progress
}
