package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/worker"
)

// abConfig is how to run a same-runner A/B comparison.
type abConfig struct {
	Base, Head    string // source trees
	Budget        time.Duration
	ConfirmBudget time.Duration
	Block         time.Duration
	Filter        string
	Seed          uint64
	Generations   int
	AA            bool
	Compare       compareConfig
	// BaseCommit and HeadCommit, when set, are recorded as the builds'
	// commits (the action knows them from the event).
	BaseCommit, HeadCommit string
	// Why says why this comparison was made, for the report.
	Why string
}

func (c *abConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.Base, "base", "", "source tree of the base version (a checkout of wirebench, e.g. a git worktree of main)")
	fs.StringVar(&c.Head, "head", ".", "source tree of the head version")
	fs.DurationVar(&c.Budget, "budget", ab.DefaultBudget, "time of the measurement, warm-up included (builds and the confirmation of regressions come on top)")
	fs.DurationVar(&c.ConfirmBudget, "confirm-budget", 0, "time bound of re-measuring flagged changes in fresh workers before the verdict (0: half of --budget; negative: no confirmation)")
	fs.DurationVar(&c.Block, "block", ab.DefaultBlock, "work in one block; base and head alternate block by block")
	fs.StringVar(&c.Filter, "filter", "", "regular expression selecting benchmarks by name; opt-in datasets run only when named")
	fs.Uint64Var(&c.Seed, "seed", 0, "seed of the shuffled order (0: random)")
	fs.IntVar(&c.Generations, "generations", 0, "generations of workers (fresh processes on fresh copies of the binaries) the measurement is split into (0: chosen from the budget)")
	fs.BoolVar(&c.AA, "aa", true, "run the built-in A/A check: a second base worker measured like the head, every benchmark; if it flags anything, timings do not fail the run")
	c.Compare.Options = compare.Defaults()
	c.Compare.Options.Threshold = ab.DefaultThreshold
	c.Compare.Options.Normalize = compare.NormalizeNever
	c.Compare.FailOn = compare.FailOnRegression
	fs.Var(percent{&c.Compare.Options.Threshold}, "threshold", "effect floor: a timing change smaller than this is never a regression, however significant (1% or 0.01)")
	fs.Var(percent{&c.Compare.Options.SizeThreshold}, "size-threshold", "growth of the encoded size (B/msg) that fails (0%: any byte)")
	fs.Var(percent{&c.Compare.Options.AllocThreshold}, "alloc-threshold", "growth of a deterministic allocation count that fails (0%: any allocation)")
	fs.Float64Var(&c.Compare.Options.Alpha, "alpha", c.Compare.Options.Alpha, "significance level after Holm adjustment: the chance of any false alarm in the run")
	fs.Var(enumFlag{(*string)(&c.Compare.FailOn), []string{"regression", "never"}}, "fail-on", "exit 1 on: regression or never")
}

func (c *abConfig) validate() error {
	if c.Base == "" {
		return badInputf("ab needs --base DIR: a source tree of the base version (e.g. `git worktree add /tmp/base main`)")
	}
	if c.Budget <= 0 {
		return badInputf("--budget %s: must be positive, e.g. --budget 4m", c.Budget)
	}
	if c.Block <= 0 {
		return badInputf("--block %s: must be positive, e.g. --block 1ms", c.Block)
	}
	if c.Filter != "" {
		if _, err := regexp.Compile(c.Filter); err != nil {
			return badInputf("--filter %q is not a valid regular expression: %v", c.Filter, err)
		}
	}
	if err := c.Compare.validate(); err != nil {
		return err
	}
	for _, d := range []struct{ flag, dir string }{{"--base", c.Base}, {"--head", c.Head}} {
		if err := ab.CheckTree(d.dir); err != nil {
			return badInputf("%s %s: %v", d.flag, d.dir, err)
		}
	}
	return nil
}

func cmdAB(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("ab", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: action ab --base DIR [--head DIR] [flags]\n\nBuilds ./cmd/action in both trees, runs both on this machine alternating in short blocks, and compares them pair by pair (see docs/ab-mode.md).")
		fs.PrintDefaults()
	}
	var c abConfig
	c.register(fs)
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "markdown", "json"}}, "format", "output: text (like benchstat), markdown or json")
	reportPath := fs.String("report", "", "also write the Markdown report to this file")
	out := fs.String("out", "", "also write the head's results (one sample per pair) as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() > 0 {
		return badInputf("ab takes no arguments, got %q (use --base and --head)", fs.Args())
	}
	if err := c.validate(); err != nil {
		return err
	}
	o, err := runAB(ctx, e, c)
	if err != nil {
		return err
	}
	if err := writeResultsFile(e, *out, o.Head); err != nil {
		return err
	}
	in := report.Input{Result: o.Result, Candidate: o.Head, BaselineSource: "the base build (" + c.Base + ")",
		Title: "wirebench: same-runner A/B, " + c.Head + " against " + c.Base, FailOn: c.Compare.FailOn}
	if err := writeReport(e, *reportPath, in); err != nil {
		return err
	}
	if err := writeComparison(e.stdout, format, in); err != nil {
		return err
	}
	if o.Result.Failed(c.Compare.FailOn) {
		return errGate
	}
	return nil
}

// runAB builds both trees, starts the workers and runs the comparison,
// with progress on stderr. Setup failures (no Go toolchain, a build that
// fails, a base without the A/B worker) wrap ab.ErrSetup or
// worker.ErrIncompatible, so the action can fall back to the stored
// baseline.
func runAB(ctx context.Context, e *env, c abConfig) (*ab.Outcome, error) {
	start := time.Now()
	dir, err := os.MkdirTemp("", "wirebench-ab-")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ab.ErrSetup, err)
	}
	defer os.RemoveAll(dir)
	bins := map[string]string{}
	for _, side := range []struct{ label, tree string }{{"base", c.Base}, {"head", c.Head}} {
		t0 := time.Now()
		bin := filepath.Join(dir, side.label, "action")
		if err := ab.Build(ctx, side.tree, bin); err != nil {
			return nil, err
		}
		bins[side.label] = bin
		fmt.Fprintf(e.stderr, "wirebench: ab: built the %s (%s) in %s\n", side.label, side.tree, time.Since(t0).Round(100*time.Millisecond))
	}
	built := time.Since(start)

	spawn := ab.Processes(bins["base"], bins["head"], ab.StartOptions{
		Dir: dir, Filter: c.Filter, AA: c.AA, Stderr: e.stderr,
		BaseEnv: environWith("GITHUB_SHA", c.BaseCommit), HeadEnv: environWith("GITHUB_SHA", c.HeadCommit),
	})
	why := c.Why
	if why == "" {
		why = fmt.Sprintf("`ab --base %s --head %s`: both builds ran on this machine at the same time, alternating in blocks of about %s", c.Base, c.Head, c.Block)
	}
	o, err := ab.Run(ctx, spawn, ab.Options{
		Budget: c.Budget, ConfirmBudget: c.ConfirmBudget, Block: c.Block, Seed: c.Seed, Generations: c.Generations,
		Compare: c.Compare.Options, Why: why, Progress: e.stderr,
	})
	if err != nil {
		if errors.Is(err, ab.ErrSetup) || errors.Is(err, worker.ErrIncompatible) {
			return nil, err
		}
		return nil, fmt.Errorf("same-runner A/B: %w", err)
	}
	if c.Filter != "" {
		o.Head.Settings.Filter, o.Base.Settings.Filter = c.Filter, c.Filter
	}
	fmt.Fprintf(e.stderr, "wirebench: ab: %s in all (builds %s, measurement %s; %d rounds in %d generations, %d confirmation rounds in %d, %d collections)\n",
		time.Since(start).Round(100*time.Millisecond), built.Round(100*time.Millisecond), o.Elapsed.Round(100*time.Millisecond),
		o.Rounds, o.Generations, o.ConfirmRounds, o.ConfirmGenerations, o.Collections)
	return o, nil
}

// environWith returns the process environment with key set to value, or
// removed when value is "" (internal/ab drops the secrets from it before a
// worker sees it). The base worker must not inherit the head's
// GITHUB_SHA, or it would record the head's commit as its own.
func environWith(key, value string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, key+"=") {
			env = append(env, kv)
		}
	}
	if value != "" {
		env = append(env, key+"="+value)
	}
	return env
}

// sameRunnerAB runs the same-runner A/B comparison for the action's check
// on a pull request, when the workflow checked the base commit out at the
// input base-path (docs/ab-mode.md). It returns nil and the reason when the
// check must fall back to the stored baseline: no base checkout, a tree
// that is not a wirebench module, a base older than the A/B protocol, a
// build or measurement that failed. The reason goes into the report.
func (a *actionRun) sameRunnerAB(ctx context.Context) (*ab.Outcome, string) {
	basePath := strings.TrimSpace(a.gha.GetInput("base-path"))
	switch {
	case !a.ev.IsPullRequest():
		return nil, ""
	case a.cfg.BenchmarkFile != "":
		return nil, "input benchmark-file compares your own `go test -bench` output with the stored baseline"
	case basePath == "":
		return nil, "no checkout of the base commit (input base-path is empty; see docs/ab-mode.md for the second actions/checkout)"
	}
	if err := ab.CheckTree(basePath); err != nil {
		return nil, fmt.Sprintf("input base-path %s: %v", basePath, err)
	}
	if err := ab.CheckTree("."); err != nil {
		return nil, fmt.Sprintf("the workspace: %v", err)
	}
	c := abConfig{Base: basePath, Head: ".", Budget: ab.DefaultBudget, Block: ab.DefaultBlock, AA: true,
		Filter: a.cfg.Run.Filter, Compare: a.cfg.Compare, HeadCommit: a.ev.SHA, BaseCommit: a.ev.PR.BaseSHA,
		Why: fmt.Sprintf("pull request with a checkout of its base commit at %s (input base-path)", basePath)}
	c.Compare.Options.Normalize = compare.NormalizeNever
	// The action's budget and threshold inputs default to empty: the A/B
	// mode's defaults (4m, 1%) differ from the stored baseline's (60s, 5%).
	if a.gha.GetInput("budget") != "" {
		c.Budget = a.cfg.Run.Budget
	}
	if a.gha.GetInput("threshold") == "" {
		c.Compare.Options.Threshold = ab.DefaultThreshold
	}
	a.gha.Infof("wirebench: same-runner A/B: base %s (%s) against the workspace (%s), budget %s", basePath, shortSHA(c.BaseCommit), shortSHA(c.HeadCommit), c.Budget)
	o, err := runAB(ctx, a.e, c)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "cancelled"
		}
		a.gha.Warningf("same-runner A/B comparison not possible, falling back to the stored baseline: %v", err)
		return nil, "the same-runner A/B comparison was not possible: " + firstLine(err.Error())
	}
	if c.HeadCommit != "" {
		o.Head.Env.Commit = c.HeadCommit
		o.Result.CandidateEnv.Commit = c.HeadCommit
	}
	if c.BaseCommit != "" {
		o.Base.Env.Commit = c.BaseCommit
		o.Result.BaselineEnv.Commit = c.BaseCommit
	}
	return o, ""
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
