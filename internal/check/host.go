package check

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// Host is what a check needs from the program that runs it, and only
// that: the check decides, the host provides. The command line is the
// one host (internal/cli); tests provide their own.
type Host interface {
	// Progress is where a check says what it is doing while it
	// measures (the terminal's stderr, the job's log).
	Progress() io.Writer
	// Getenv reads the process environment (a plan's, for the workers).
	Getenv(key string) string
	// MeasureFresh measures the embedded suite as p says in a new
	// process: a process is the unit of replication for timings, so a
	// timing regression is confirmed in another one.
	MeasureFresh(ctx context.Context, p source.Plan) (*results.Results, error)
}

// BadInput marks an error caused by the user's input (a flag, an input,
// a file, a selection), not by the code measured nor by wirebench: the
// command line exits 2 on it, where the code's failure exits 1.
type BadInput struct{ Err error }

func (b BadInput) Error() string { return b.Err.Error() }
func (b BadInput) Unwrap() error { return b.Err }

// badInputf is a BadInput with a formatted message.
func badInputf(format string, args ...any) error { return BadInput{fmt.Errorf(format, args...)} }

// Measure gives the source's results as p says; a selection or file
// problem is bad input, code that does not build or run is the code's
// failure (source.CodeError).
func Measure(ctx context.Context, src source.Source, p source.Plan) (*results.Results, []string, error) {
	r, notes, err := src.Results(ctx, p)
	var code *source.CodeError
	switch {
	case err == nil, ctx.Err() != nil, errors.As(err, &code):
		return r, notes, err
	}
	return nil, nil, BadInput{err}
}

// WithNote is notes with note first, when there is one.
func WithNote(notes []string, note string) []string {
	if note == "" {
		return notes
	}
	return append([]string{note}, notes...)
}
