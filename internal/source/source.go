package source

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/gotest"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
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
// tree: Target builds a tree's benchmarks as p selects them.
type Buildable interface {
	Source
	Target(p Plan) program.Target
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
	// Progress receives progress lines; nil is silent. Verbose also
	// sends it what the workers print (a test binary's PASS line, a
	// benchmark's own output) and a line per round.
	Progress io.Writer
	Verbose  bool
	// Getenv reads the environment the results record (commit, runner).
	Getenv func(string) string
	// Sandbox runs builds and workers of code that may come from a pull
	// request as its unprivileged user; nil runs them as is.
	Sandbox *sandbox.Sandbox
	// Count, when set, counts the work of the benchmarks under callgrind
	// instead of timing them (count.One); Budget and Samples are then
	// unused.
	Count *count.Settings
	// KeepDumps, with Count, is where the count keeps the dumps of a block
	// of every benchmark (count.Options.Keep); "" keeps none.
	KeepDumps string
	// Known is the stored baseline's hash of each package's test binary
	// (results.Results.Hashes): a package whose hash is the same is not
	// measured, and the results list it as Unmeasured. nil measures every
	// package (update, --measure-all, the embedded suite).
	Known map[string]string
	// Self is the wirebench executable whose `worker` command serves the
	// embedded suite when it is counted; "" is this process's own.
	Self string
}

// CodeError is a failure of the code measured: its tests (or its
// command) do not build, or a benchmark fails, panics, crashes or hangs.
// It is what the code's author caused, a pull request say, and fails a
// check with a report: not an error of wirebench's own nor of its input.
type CodeError struct{ Err error }

func (e *CodeError) Error() string { return e.Err.Error() }
func (e *CodeError) Unwrap() error { return e.Err }

// codeError marks err as the code's when it is a build failure of it
// (gotest.BrokenError); other errors are returned as they are.
func codeError(err error) error {
	var broken *gotest.BrokenError
	if errors.As(err, &broken) {
		return &CodeError{err}
	}
	return err
}

// workers is where the workers' own output goes: progress when verbose,
// nowhere otherwise (their last lines still come with an error).
func (p Plan) workers() io.Writer {
	if p.Verbose {
		return p.Progress
	}
	return nil
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
