package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// The command line is the check's host (check.Host): where progress
// goes, the environment, and a new process of this binary to measure in.

// Progress is where a check's progress goes: stderr.
func (e *env) Progress() io.Writer { return e.stderr }

// Getenv reads the process environment.
func (e *env) Getenv(key string) string { return e.getenv(key) }

// MeasureFresh measures in a new process of this binary (measureFresh).
func (e *env) MeasureFresh(ctx context.Context, p source.Plan) (*results.Results, error) {
	return measureFresh(ctx, e, p)
}

// measureFresh measures the suite as p says in a new process: this binary
// runs `run` with p's settings (e.fresh instead, when set: tests). A new
// process, not this one again: a process is the unit of replication for
// timings. The child is this very binary, so it inherits this process's
// environment as it is.
func measureFresh(ctx context.Context, e *env, p source.Plan) (*results.Results, error) {
	if e.fresh != nil {
		return e.fresh(ctx, p)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this binary: %w", err)
	}
	dir, err := os.MkdirTemp("", "wirebench-confirm-")
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "results.json")
	cmd := exec.CommandContext(ctx, exe, freshArgs(p, out)...)
	cmd.Stdout, cmd.Stderr = io.Discard, e.stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("measure again in a new process: %w", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("read the second measurement: %w", err)
	}
	return results.Read(out, data)
}

// freshArgs are the arguments of `run` that measure as p says and write
// the results to out.
func freshArgs(p source.Plan, out string) []string {
	args := []string{"run", "--metric", "time", "--budget", p.Budget.String(), "--samples", strconv.Itoa(p.Samples), "--out", out, "--format", "json"}
	if p.Filter != "" {
		args = append(args, "--filter", p.Filter)
	}
	if p.Shard != "" {
		args = append(args, "--shard", p.Shard)
	}
	return args
}
