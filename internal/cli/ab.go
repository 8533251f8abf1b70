package cli

import (
	"cmp"
	"context"
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"os"
	"path/filepath"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/shard"
	"github.com/wirebench/wirebench/internal/source"
)

// abFromConfig is the A/B comparison c asks for.
func abFromConfig(e *env, c *config.Config, target program.Target) check.AB {
	return check.AB{
		Target: target, Base: c.BasePath, Head: c.HeadPath, Filter: c.Filter, AA: c.AA, Pin: c.Pin, Verbose: c.Verbose, MeasureAll: c.MeasureAll,
		Options: ab.Options{
			Budget: c.MeasureBudget(true), ConfirmBudget: c.ConfirmBudget, Block: c.Block, Seed: c.Seed, Generations: c.Generations,
			Compare: c.CompareOptions(true), Progress: e.stderr, Verbose: c.Verbose,
			Why: fmt.Sprintf("`ab --base %s --head %s`: both builds ran on this machine at the same time, alternating in blocks of about %s", c.BasePath, c.HeadPath, c.Block),
		},
	}
}

func cmdAB(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.AB, args)
	if err != nil {
		return err
	}
	sb, err := newSandbox()
	if err != nil {
		return err
	}
	defer sb.Close()
	if !sb.Active {
		fmt.Fprintf(e.stderr, "wirebench: ab: no sandbox: %s\n", sb.Why)
	}
	ct, note, err := check.Instrument(ctx, c, nil, true)
	if err != nil {
		return err
	}
	src := commandSource(c, e).(source.Buildable)
	p := check.Plan(e, c, true)
	p.Sandbox, p.Count = sb, ct
	target := src.Target(p)
	for _, d := range []struct{ flag, dir string }{{"--base", c.BasePath}, {"--head", c.HeadPath}} {
		if err := target.CheckTree(d.dir); err != nil {
			return badInputf("%s %s: %w", d.flag, d.dir, err)
		}
	}
	r := abFromConfig(e, c, target)
	r.Sandbox = sb
	if ct != nil {
		r.Options.Why = fmt.Sprintf("`ab --base %s --head %s`: both builds were counted on this machine", c.BasePath, c.HeadPath)
	}
	r.WithCount(c, ct)
	r.Dumps = check.DumpsDir(cmp.Or(c.Out, c.Report)) // beside what ab was asked to write; nothing unasked
	if c.Bench != "" {
		r.Filter = c.Bench
	}
	if c.Shard != "" {
		if r.Shard, err = shard.Parse(c.Shard); err != nil {
			return badInput{Err: err}
		}
	}
	in := outcome.Report{BaselineSource: "the base build (" + c.BasePath + ")",
		Title: "wirebench: same-runner A/B, " + c.HeadPath + " against " + c.BasePath, FailOn: c.FailCondition(), Notes: check.WithNote(nil, note)}
	o, err := r.Run(ctx, e.stderr)
	switch {
	case err != nil && ctx.Err() == nil && program.Side(err) == "head":
		// The head's code failed: the gate fails, with a report.
		return deliverBroken(ctx, e, c, check.Broken(in, "The head could not be measured", err))
	case err != nil && ctx.Err() == nil && program.Side(err) == "base":
		return badInput{Err: err}
	case err != nil:
		return err
	}
	if !r.Shard.Whole() {
		return writeABShard(e, check.ABShard(o, r), c.Out)
	}
	out := check.Paired(o, nil, in)
	d := local(e)
	d.ResultsPath, d.ReportPath, d.Format = c.Out, c.Report, c.Format
	if err := d.Deliver(ctx, out); err != nil {
		return err
	}
	return gate(out.Failed())
}

// writeABShard writes a shard's part of a same-runner A/B comparison to
// path, for merge: the shard judges nothing, so it passes once written.
func writeABShard(e *env, p *shard.ABPart, path string) error {
	data, err := shard.WriteAB(p)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("ab --shard: %w", err)
		}
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("ab --shard: %w", err)
	}
	fmt.Fprintf(e.stderr, "wirebench: ab: shard %s counted %s of the %d both builds list (%d only in the base, %d only in the head) in %s; wrote %s: merge the shards' files with `wirebench merge` for the verdict\n",
		p.Shard, human.Plural(len(p.Head.Benchmarks), "benchmark", "benchmarks"), common(p.ListedBase, p.ListedHead), len(p.Missing), len(p.New), p.Elapsed.Round(100*time.Millisecond), path)
	return nil
}

// common is how many names a and b share.
func common(a, b []string) int {
	in := map[string]bool{}
	for _, n := range a {
		in[n] = true
	}
	k := 0
	for _, n := range b {
		if in[n] {
			k++
		}
	}
	return k
}
