package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

// Default output locations, relative to the working directory.
const (
	defaultOutDir     = "wirebench-results"
	defaultReportFile = "wirebench-results/report.md"
	defaultResultFile = "wirebench-results/results.json"
)

// checkConfig is what check needs beyond measuring and comparing.
type checkConfig struct {
	Run      runConfig
	Compare  compareConfig
	Baseline string
	Report   string
}

func (c *checkConfig) register(fs *flag.FlagSet) {
	c.Run.register(fs)
	c.Compare.register(fs)
	fs.StringVar(&c.Baseline, "baseline", baseline.DefaultPath, "baseline file to compare with")
	fs.StringVar(&c.Report, "report", defaultReportFile, "write the Markdown report here")
}

func cmdCheck(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c checkConfig
	c.register(fs)
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() > 0 {
		return badInputf("check takes no arguments, got %q", fs.Args())
	}
	if c.Run.Out == "" {
		c.Run.Out = defaultResultFile
	}
	return check(ctx, e, c)
}

// check measures, compares with the baseline file and reports. The
// baseline is read before measuring, so a corrupt file fails in a second,
// not after a minute of benchmarks.
func check(ctx context.Context, e *env, c checkConfig) error {
	if err := c.Run.validate(); err != nil {
		return err
	}
	if err := c.Compare.validate(); err != nil {
		return err
	}
	base, err := baseline.Load(c.Baseline, bench.SuiteName)
	if err != nil && !errors.Is(err, baseline.ErrNotExist) {
		return badInput{err}
	}
	if base != nil {
		c.Run.Reference = base.Reference
	}
	cand, err := measure(ctx, e, c.Run)
	if err != nil {
		return err
	}
	if err := writeResultsFile(e, c.Run.Out, cand); err != nil {
		return err
	}
	in := report.Input{Candidate: cand, BaselineSource: c.Baseline + " (local file)", Title: "wirebench: " + bench.SuiteName + " suite", FailOn: c.Compare.FailOn}
	if base == nil {
		in.Notes = append(in.Notes, fmt.Sprintf("No baseline at %s yet: nothing to compare with, so the check passes. Run `update` on the default branch to create it.", c.Baseline))
		if err := writeReport(e, c.Report, in); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "no baseline yet at %s: the check passes; `go run ./cmd/action update` creates one\n", c.Baseline)
		return report.RunTable(e.stdout, cand)
	}
	opts := c.Compare.Options
	opts.BetweenRun = &compare.Noise{Spread: base.BetweenRunNoise()}
	res, err := compare.Compare(base.Reference, cand, opts)
	if err != nil {
		return badInputf("compare with %s: %v", c.Baseline, err)
	}
	in.Result, in.History = res, base.History
	if err := writeReport(e, c.Report, in); err != nil {
		return err
	}
	if err := report.Text(e.stdout, res); err != nil {
		return err
	}
	if res.Failed(c.Compare.FailOn) {
		fmt.Fprintf(e.stderr, "wirebench: %d regression(s) against %s\n", res.Count(compare.Regression), c.Baseline)
		return errGate
	}
	return nil
}

func writeResultsFile(e *env, path string, r *results.Results) error {
	if path == "" {
		return nil
	}
	if err := r.WriteFile(path); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wirebench: results written to %s\n", path)
	return nil
}

func writeReport(e *env, path string, in report.Input) error {
	if path == "" {
		return nil
	}
	md := report.Markdown(in, report.Options{MaxChars: summaryMaxChars})
	if err := results.WriteFileAtomic(path, []byte(md)); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	fmt.Fprintf(e.stderr, "wirebench: report written to %s\n", path)
	return nil
}

// updateConfig is what update needs.
type updateConfig struct {
	Run      runConfig
	Baseline string
	History  int
}

func cmdUpdate(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("update", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c updateConfig
	c.Run.register(fs)
	fs.StringVar(&c.Baseline, "baseline", baseline.DefaultPath, "baseline file to write")
	fs.IntVar(&c.History, "history", baseline.DefaultHistory, "keep at most this many runs in the baseline's history")
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() > 0 {
		return badInputf("update takes no arguments, got %q", fs.Args())
	}
	return update(ctx, e, c)
}

// update measures and stores the run as the new reference, appending to
// the history. An unreadable existing baseline is an error, never
// overwritten: its history would be lost.
func update(ctx context.Context, e *env, c updateConfig) error {
	if err := c.Run.validate(); err != nil {
		return err
	}
	if c.History < 1 {
		return badInputf("--history %d: keep at least 1 run", c.History)
	}
	old, err := baseline.Load(c.Baseline, bench.SuiteName)
	if err != nil && !errors.Is(err, baseline.ErrNotExist) {
		return badInput{err}
	}
	if c.Run.Filter != "" {
		fmt.Fprintf(e.stderr, "wirebench: warning: --filter %q stores a partial reference; checks will list the other benchmarks as new\n", c.Run.Filter)
	}
	r, err := measure(ctx, e, c.Run)
	if err != nil {
		return err
	}
	if err := writeResultsFile(e, c.Run.Out, r); err != nil {
		return err
	}
	runID := runIdentity(e.getenv)
	b := old
	if b == nil {
		b = baseline.New(r, runID)
	} else {
		b.Add(r, runID, c.History)
	}
	if err := os.MkdirAll(filepath.Dir(c.Baseline), 0o755); err != nil {
		return fmt.Errorf("update baseline: %w", err)
	}
	if err := b.Save(c.Baseline); err != nil {
		return fmt.Errorf("update baseline: %w", err)
	}
	fmt.Fprintf(e.stdout, "baseline %s updated: %d benchmarks, %d runs in its history\n", c.Baseline, len(r.Benchmarks), len(b.History))
	return nil
}

// runIdentity names the CI run for history entries, when known.
func runIdentity(getenv func(string) string) string {
	id := getenv("GITHUB_RUN_ID")
	if id == "" {
		return ""
	}
	if a := getenv("GITHUB_RUN_ATTEMPT"); a != "" {
		id += "." + a
	}
	return id
}
