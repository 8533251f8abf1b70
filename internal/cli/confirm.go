package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/pipeline"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// confirm re-measures src in new processes when o would fail on a timing
// regression against the stored baseline base, and judges o again by what
// it measured (pipeline.Confirm). When measuring again fails, o stands as
// it is (its regressions still fail the run) and a warning says why. A
// source that is not measured here (a file of results, merged shards)
// cannot be measured again: o stands.
func confirm(ctx context.Context, e *env, o *pipeline.Outcome, base *baseline.Baseline, src source.Source, p source.Plan, opts compare.Options) *pipeline.Outcome {
	if base == nil || !pipeline.NeedsConfirmation(o) {
		return o
	}
	var again *results.Results
	var err error
	_, measured := src.(source.Buildable)
	switch {
	case !measured:
		return o
	case p.Count != nil:
		again, err = countAgain(ctx, e, o, src, p)
	default:
		switch src.(type) {
		case source.Embedded:
			fmt.Fprintln(e.stderr, "wirebench: a timing regression: measuring again in a new process to confirm it")
			again, err = measureFresh(ctx, e, p)
		case source.GoTest:
			// Its benchmarks run in worker processes, new ones each time.
			fmt.Fprintln(e.stderr, "wirebench: a timing regression: measuring again in new worker processes to confirm it")
			again, _, err = src.Results(ctx, p)
		default:
			return o
		}
	}
	if err == nil {
		var c *pipeline.Outcome
		if c, err = pipeline.Confirm(o, base, again, opts); err == nil {
			if p.Count != nil {
				// The further processes are the candidate's too: its
				// results hold them all.
				c.Report.Candidate = again
			}
			return c
		}
	}
	fmt.Fprintf(e.stderr, "wirebench: warning: could not confirm the timing regressions, so they stand: %v\n", err)
	o.Report.Notes = append(o.Report.Notes, "The timing regressions could not be re-measured in a second process ("+err.Error()+"), so they fail the run as measured.")
	return o
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

// countAgain counts the benchmarks of o's counted regressions and
// improvements again in as many fresh processes as the candidate had,
// with its block sizes, and returns the candidate with them added
// (results.AddProcesses): what pipeline.Confirm judges them on.
func countAgain(ctx context.Context, e *env, o *pipeline.Outcome, src source.Source, p source.Plan) (*results.Results, error) {
	first := o.Report.Candidate
	names := pipeline.Recount(o)
	fmt.Fprintf(e.stderr, "wirebench: %s counted as changed: counting %s again in fresh processes to confirm\n",
		human.Plural(len(names), "benchmark", "benchmarks"), map[bool]string{true: "it", false: "them"}[len(names) == 1])
	ct := *p.Count
	ct.Only, ct.Iterations = names, blockSizes(first)
	if first.Settings.Counter != nil {
		ct.Processes = first.Settings.Counter.Processes
	}
	p.Count = &ct
	p.KeepDumps = "" // the first count's are kept
	again, _, err := src.Results(ctx, p)
	if err != nil {
		return nil, err
	}
	all := first.Clone()
	all.AddProcesses(again)
	return all, nil
}
