package cli

import (
	"context"
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"os"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/deliver"
	"github.com/wirebench/wirebench/internal/source"
)

// commandSource is where a command's benchmarks come from: the module's
// own go test benchmarks when --bench is given, the embedded suite
// otherwise.
func commandSource(c *config.Config, e *env) source.Source {
	if c.Bench != "" {
		return source.GoTest{Packages: c.PackageList(), Bench: c.Bench, BuildFlags: c.BuildFlagList()}
	}
	if m := userModule("."); m != "" {
		fmt.Fprintf(e.stderr, "wirebench: measuring wirebench's embedded serialization suite, not the benchmarks of %s (this module): --bench . runs those (e.g. `wirebench run --bench .`)\n", m)
	}
	return source.Embedded{}
}

// local is the command line's delivery.
func local(e *env) deliver.Local {
	return deliver.Local{Stdout: e.stdout, Stderr: e.stderr, Format: "text", Own: config.OutDir}
}

func cmdRun(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Run, args)
	if err != nil {
		return err
	}
	p := check.Plan(e, c, false)
	if c.Shard != "" {
		// The baseline, when there is one, balances the shards by cost.
		if b, err := baseline.Load(baseline.DefaultPath, source.Embedded{}.Suite()); err == nil {
			p.Reference = b.Reference
		}
	}
	ct, note, err := check.Instrument(ctx, c, nil, false)
	if err != nil {
		return err
	}
	p.Count = ct
	src := commandSource(c, e)
	cand, notes, err := check.Measure(ctx, src, p)
	if err != nil {
		return err
	}
	notes = check.WithNote(notes, note)
	d := local(e)
	d.ResultsPath, d.Format, d.Plots = c.Out, c.Format, c.Plots
	return d.Deliver(ctx, check.Run(cand, outcome.Report{Title: "wirebench: " + src.Title(), Notes: notes}))
}

// cmdDefault is what `wirebench` with no arguments does outside GitHub
// Actions: the main job on the embedded suite — check against the
// baseline when the repository has one, otherwise a plain run.
func cmdDefault(ctx context.Context, e *env) error {
	if _, err := os.Stat(baseline.DefaultPath); err == nil {
		fmt.Fprintf(e.stderr, "wirebench: checking the embedded suite against %s (`wirebench run` only measures; `wirebench help` for your module's benchmarks)\n", baseline.DefaultPath)
		return cmdCheck(ctx, e, nil)
	}
	fmt.Fprintf(e.stderr, "wirebench: no %s: measuring the embedded suite only (`wirebench update` stores a baseline; `wirebench help` for your module's benchmarks)\n", baseline.DefaultPath)
	return cmdRun(ctx, e, []string{"--out", config.ResultFile})
}
