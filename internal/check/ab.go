package check

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/shard"
	"github.com/wirebench/wirebench/internal/worker"
)

// AB is one same-runner A/B comparison: what to build in which trees,
// and how to measure. Run runs it.
type AB struct {
	Target     program.Target
	Base, Head string // source trees
	// Filter is the selection, recorded with the results.
	Filter string
	AA     bool
	// Pin runs every worker on one CPU (worker.OneCPU).
	Pin bool
	// Verbose shows what the workers print and the chatter of every
	// round and generation (ab.Options.Verbose).
	Verbose bool
	Options ab.Options
	// Sandbox runs the builds and the workers; nil as is.
	Sandbox *sandbox.Sandbox
	// BaseCommit and HeadCommit, when set, are recorded as the builds'
	// commits (the action knows them from the event).
	BaseCommit, HeadCommit string
	// Count, when set, counts both builds' work under callgrind
	// (countPair) instead of timing them; Options.Compare then holds the
	// counted options (CountedOptions: WithCount sets both).
	Count *count.Settings
	// Clock, when set beside Count, also times both builds natively
	// after the count and judges their wall time with these options (the
	// clock's wider floor), in one verdict with the count (joinPairedClock);
	// ClockBudget is its budget (0: pairedClockBudget of the count's time).
	Clock       *compare.Options
	ClockBudget time.Duration
	// Dumps, with Count, is where the callgrind dumps of the benchmarks
	// whose counted change the report explains are saved (saveDumps); ""
	// saves none.
	Dumps string
	// MeasureAll measures the packages identical on both sides too
	// (splitIdentical); identical is what Run found so, for the result.
	MeasureAll bool
	identical  []compare.Identical
	// Shard, when not the whole, is the part of the benchmarks this run
	// counts, as one job of a matrix (docs/shards.md): Run builds both
	// trees and lists every benchmark, then calibrates and counts only
	// those shard.ABAssign gives this shard; ABShard is what it hands the
	// merge. Only counts shard (Count set, Clock not): see Run.
	Shard shard.Spec
	// unbuilt are, by side, the packages whose tests did not build
	// (results.TroubleNotBuilt): each its own row (finishAB).
	unbuilt map[string][]results.Trouble
}

// WithCount sets how r measures under c: counted as ct (nil: timed) and,
// with metric auto, timed beside the count (clocked), with the wall-time
// floor and, when given, the budget.
func (r *AB) WithCount(c *config.Config, ct *count.Settings) {
	timed := r.Options.Compare
	r.Count = ct
	r.Options.Compare = CountedOptions(c, timed, ct)
	if clocked(c, ct) {
		timed.Threshold = c.TimeThreshold
		r.Clock = &timed
		if c.Given("budget") {
			r.ClockBudget = c.Budget
		}
	}
}

// Run builds both trees, starts the workers and runs the comparison,
// with progress on progress. Setup failures (no Go toolchain, a build that
// fails, a base without the A/B worker) wrap program.ErrSetup or
// worker.ErrIncompatible, so the action can fall back to the stored
// baseline.
func (r AB) Run(ctx context.Context, progress io.Writer) (*ab.Outcome, error) {
	start := time.Now()
	if !r.Shard.Whole() && (r.Count == nil || r.Clock != nil) {
		return nil, fmt.Errorf("%w: a same-runner A/B comparison is split over shards only when counted alone (metric instructions or cycles): a timed comparison's verdict is made of its visits' pairing in time, which the shards' files do not carry", program.ErrSetup)
	}
	r.unbuilt = map[string][]results.Trouble{}
	dir, err := os.MkdirTemp("", "wirebench-ab-")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	defer os.RemoveAll(dir)
	if err := r.Sandbox.Own(dir); err != nil { // the sandbox's user builds and runs in it
		return nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	progs := map[string]program.Program{}
	for _, side := range []struct{ label, tree, other string }{{"base", r.Base, r.Head}, {"head", r.Head, r.Base}} {
		t0 := time.Now()
		target := r.Target
		if p, ok := target.(program.Pairable); ok {
			target = p.Beside(side.other)
		}
		prog, troubles, err := target.Build(ctx, side.tree, filepath.Join(dir, side.label))
		if err != nil {
			return nil, &program.SideError{Side: side.label, Err: fmt.Errorf("the %s (%s): %w", side.label, side.tree, err)}
		}
		progs[side.label] = prog
		r.unbuilt[side.label] = troubles
		fmt.Fprintf(progress, "wirebench: ab: built the %s (%s) in %s\n", side.label, side.tree, time.Since(t0).Round(100*time.Millisecond))
	}
	if line := builtWith(progs["base"], progs["head"]); line != "" {
		fmt.Fprintln(progress, line)
	}
	if !r.MeasureAll {
		var same program.Program
		b, h, same := splitIdentical(progs["base"], progs["head"])
		if (len(b) == 0) != (len(h) == 0) {
			// What is left to measure is on one side only (a package
			// new in the head, or one a side could not build): with
			// nothing of the other side beside it, it cannot be
			// compared, so the identical packages are measured too.
			fmt.Fprintf(progress, "wirebench: ab: every package the %s has is identical in the other build, and the other has packages of its own: measuring all of them\n", pick(len(b) == 0, "base", "head"))
			b, h, same = progs["base"], progs["head"], nil
		}
		progs["base"], progs["head"] = b, h
		if r.identical, err = listIdentical(ctx, progress, r.Sandbox, same, environWith("GITHUB_SHA", r.HeadCommit)); err != nil {
			return nil, err
		}
		if len(progs["base"]) == 0 && len(progs["head"]) == 0 {
			o := identicalOutcome(r)
			finishAB(o, r)
			fmt.Fprintf(progress, "wirebench: ab: %s in all (builds %s; nothing to measure: every package identical in both builds)\n",
				time.Since(start).Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))
			return o, nil
		}
	}
	built := time.Since(start)
	if r.Count != nil {
		return countAB(ctx, progress, r, progs, dir, start, built)
	}
	o, err := timeAB(ctx, progress, r, progs, dir)
	if err != nil {
		return nil, err
	}
	finishAB(o, r)
	fmt.Fprintf(progress, "wirebench: ab: %s in all (builds %s, measurement %s; %d rounds in %d generations, %d confirmation rounds in %d, %d collections)\n",
		time.Since(start).Round(100*time.Millisecond), built.Round(100*time.Millisecond), o.Elapsed.Round(100*time.Millisecond),
		o.Rounds, o.Generations, o.ConfirmRounds, o.ConfirmGenerations, o.Collections)
	return o, nil
}

// timeAB times the programs built in dir against each other (ab.Run)
// with r's options.
func timeAB(ctx context.Context, progress io.Writer, r AB, progs map[string]program.Program, dir string) (*ab.Outcome, error) {
	var cpus []int
	if r.Pin {
		cpus = worker.OneCPU()
	}
	if cpus != nil {
		if r.Verbose {
			fmt.Fprintf(progress, "wirebench: ab: every worker runs on CPU %d (of the %d this process may use)\n", cpus[0], runtime.NumCPU())
		}
		r.Options.Why += fmt.Sprintf("; every worker ran on CPU %d", cpus[0])
	}
	spawn := ab.Processes(progs["base"], progs["head"], ab.StartOptions{
		StartOptions: program.StartOptions{Stderr: r.workers(progress), Sandbox: r.Sandbox, CPUs: cpus, EveryCPU: !r.Pin},
		Dir:          filepath.Join(dir, "run"), AA: r.AA,
		BaseEnv: environWith("GITHUB_SHA", r.BaseCommit), HeadEnv: environWith("GITHUB_SHA", r.HeadCommit),
	})
	o, err := ab.Run(ctx, spawn, r.Options)
	if err != nil {
		if program.IsSetup(err) {
			return nil, err
		}
		return nil, fmt.Errorf("same-runner A/B: %w", err)
	}
	return o, nil
}

// countAB is Run's comparison of counted work (countPair), on the
// programs built in dir.
func countAB(ctx context.Context, progress io.Writer, r AB, progs map[string]program.Program, dir string, start time.Time, built time.Duration) (*ab.Outcome, error) {
	why := r.Options.Why
	base := count.Build{Program: progs["base"], Env: environWith("GITHUB_SHA", r.BaseCommit)}
	head := count.Build{Program: progs["head"], Env: environWith("GITHUB_SHA", r.HeadCommit)}
	kept := ""
	if r.Dumps != "" {
		kept = filepath.Join(dir, "dumps")
	}
	o, err := countPair(ctx, base, head, count.Options{Settings: *r.Count, Dir: filepath.Join(dir, "count"),
		Stderr: r.workers(progress), Sandbox: r.Sandbox, Progress: progress, Keep: kept, Select: r.selector(progress)}, r.Options.Compare, why)
	if err != nil {
		if program.IsSetup(err) {
			return nil, err
		}
		return nil, fmt.Errorf("same-runner A/B, counted: %w", err)
	}
	saveDumps(progress, o.Result, kept, r.Dumps)
	counting := o.Elapsed
	clock := ""
	if r.Clock != nil {
		if o, err = clockAB(ctx, progress, r, progs, dir, o); err != nil {
			return nil, err
		}
		clock = fmt.Sprintf(", wall-time check %s", o.Result.Clock.Elapsed.Round(100*time.Millisecond))
	}
	finishAB(o, r)
	fmt.Fprintf(progress, "wirebench: ab: %s in all (builds %s, counting %s in %d processes of each build%s)\n",
		time.Since(start).Round(100*time.Millisecond), built.Round(100*time.Millisecond), counting.Round(100*time.Millisecond), o.Rounds, clock)
	return o, nil
}

// clockAB is countAB's wall-time check: both programs timed against each
// other (timeAB) with the clock's options, for pairedClockBudget of
// the count's time unless a budget was given, joined to the counted
// outcome (joinPairedClock).
func clockAB(ctx context.Context, progress io.Writer, r AB, progs map[string]program.Program, dir string, counted *ab.Outcome) (*ab.Outcome, error) {
	budget := r.ClockBudget
	if budget <= 0 {
		budget = pairedClockBudget(counted.Elapsed)
	}
	t := r
	t.Options.Budget, t.Options.ConfirmBudget, t.Options.Compare = budget, 0, *r.Clock
	t.Options.Why = ""
	fmt.Fprintf(progress, "wirebench: ab: counted; now timing both builds natively for %s, the wall-time check (floor ±%s): what a count cannot see\n",
		budget, human.Percent(r.Clock.Threshold))
	timed, err := timeAB(ctx, progress, t, progs, dir)
	if err != nil {
		return nil, fmt.Errorf("the wall-time check beside the count: %w", err)
	}
	return joinPairedClock(counted, timed, budget), nil
}

// selector is count.Options.Select for r's shard (nil: the whole): the
// benchmarks of a build's list that shard.ABAssign gives r's shard. The
// base is listed first (count.NewPair), and its list balances both
// builds' partition.
func (r AB) selector(progress io.Writer) func(side string, listed []string) []string {
	if r.Shard.Whole() {
		return nil
	}
	var part *shard.ABPartition
	return func(side string, listed []string) []string {
		if side == "base" || part == nil {
			part = shard.NewABPartition(listed, r.Shard.Count)
		}
		var keep []string
		for _, name := range listed {
			if part.Shard(name) == r.Shard.Index {
				keep = append(keep, name)
			}
		}
		fmt.Fprintf(progress, "wirebench: ab: shard %s: the %s lists %s, %d of them this shard's\n", r.Shard, side, human.Plural(len(listed), "benchmark", "benchmarks"), len(keep))
		return keep
	}
}

// identicalOutcome is the outcome of a run whose every package is
// identical in both builds: nothing measured, nothing compared, each
// benchmark listed as identical.
func identicalOutcome(r AB) *ab.Outcome {
	method := compare.MethodPaired
	if r.Count != nil {
		method = compare.MethodCounted
	}
	settings := results.Settings{}
	if r.Count != nil {
		settings.Counter = r.Count.Counter()
	}
	here := func() *results.Results {
		res := results.New("", bench.CaptureEnv(os.Getenv))
		res.Settings = settings
		return res
	}
	return &ab.Outcome{
		Result: &compare.Result{Options: r.Options.Compare, Method: method, Why: r.Options.Why},
		Head:   here(), Base: here(),
	}
}

// workers is where what the workers print goes: progress with Verbose,
// nowhere otherwise (their last lines come with an error).
func (r AB) workers(progress io.Writer) io.Writer {
	if r.Verbose {
		return progress
	}
	return nil
}

// finishAB records in o what the workers could not know: the filter, the
// machine, the commits.
func finishAB(o *ab.Outcome, r AB) {
	o.Result.Identical = r.identical
	// A package that did not build on a side is its own row: its
	// benchmarks the other side has are not missing or new.
	for _, t := range r.unbuilt["base"] {
		o.Base.AddTrouble(t)
	}
	for _, t := range r.unbuilt["head"] {
		o.Head.AddTrouble(t)
	}
	o.Result.NoteTroubles(o.Base, o.Head)
	if r.Filter != "" {
		o.Head.Settings.Filter, o.Base.Settings.Filter = r.Filter, r.Filter
	}
	// A test binary's worker knows its Go and platform; the machine is
	// this one's.
	here := bench.CaptureEnv(os.Getenv)
	for _, e := range []*results.Env{&o.Head.Env, &o.Base.Env, &o.Result.CandidateEnv, &o.Result.BaselineEnv} {
		e.FillMachine(here)
	}
	if r.HeadCommit != "" {
		o.Head.Env.Commit, o.Result.CandidateEnv.Commit = r.HeadCommit, r.HeadCommit
	}
	if r.BaseCommit != "" {
		o.Base.Env.Commit, o.Result.BaselineEnv.Commit = r.BaseCommit, r.BaseCommit
	}
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

// builtWith is the progress line that says which Go built each side and
// what wirebench patched in it (program.Program.BuiltWith), "" when
// neither says (the embedded suite's builds).
func builtWith(base, head program.Program) string {
	b, h := base.BuiltWith(), head.BuiltWith()
	if b == "" && h == "" {
		return ""
	}
	if b == "" {
		b = "a Go it does not say"
	}
	if h == "" {
		h = "a Go it does not say"
	}
	return fmt.Sprintf("wirebench: base built with %s, head with %s", b, h)
}
