package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/deliver"
	"github.com/wirebench/wirebench/internal/pipeline"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// plan is how c says to measure, with progress on stderr.
func plan(e *env, c *config.Config, ab bool) source.Plan {
	return source.Plan{
		Budget: c.MeasureBudget(ab), Samples: c.MeasureSamples(), Filter: c.Filter, Seed: c.Seed, Shard: c.Shard,
		Progress: e.stderr, Verbose: c.Verbose, Getenv: e.getenv,
	}
}

// planLike is plan for measuring against the stored reference ref (nil:
// none): the budget and samples c does not give are ref's
// (pipeline.MeasureLike), with the note that says so, if any.
func planLike(e *env, c *config.Config, ref *results.Results) (source.Plan, string) {
	p := plan(e, c, false)
	p.Reference = ref
	m, note := pipeline.MeasureLike(ref, pipeline.Measure{Budget: c.Budget, Samples: c.Samples}, pipeline.Measure{Budget: p.Budget, Samples: p.Samples})
	p.Budget, p.Samples = m.Budget, m.Samples
	p.Known = knownHashes(c, ref)
	return p, note
}

// knownHashes is the stored reference's package hashes a check may skip
// packages by (source.Plan.Known): those of a go test reference of the
// same --bench, unless c measures all. The embedded suite has none: it is
// wirebench's own, measured in its own processes.
func knownHashes(c *config.Config, ref *results.Results) map[string]string {
	if ref == nil || c.MeasureAll || c.Bench == "" || ref.Suite != source.GoTestSuite || ref.Settings.Filter != c.Bench {
		return nil
	}
	return ref.Hashes
}

// withNote is notes with note first, when there is one.
func withNote(notes []string, note string) []string {
	if note == "" {
		return notes
	}
	return append([]string{note}, notes...)
}

// measure gives the source's results; a selection or file problem is bad
// input, code that does not build or run is the code's failure
// (source.CodeError, exit 1).
func measure(ctx context.Context, src source.Source, p source.Plan) (*results.Results, []string, error) {
	r, notes, err := src.Results(ctx, p)
	var code *source.CodeError
	switch {
	case err == nil, ctx.Err() != nil, errors.As(err, &code):
		return r, notes, err
	}
	return nil, nil, badInput{err}
}

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
	p := plan(e, c, false)
	if c.Shard != "" {
		// The baseline, when there is one, balances the shards by cost.
		if b, err := baseline.Load(baseline.DefaultPath, source.Embedded{}.Suite()); err == nil {
			p.Reference = b.Reference
		}
	}
	ct, note, err := counting(ctx, c, nil, false)
	if err != nil {
		return err
	}
	p.Count = ct
	src := commandSource(c, e)
	cand, notes, err := measure(ctx, src, p)
	if err != nil {
		return err
	}
	notes = withNote(notes, note)
	d := local(e)
	d.ResultsPath, d.Format, d.Plots = c.Out, c.Format, c.Plots
	return d.Deliver(ctx, pipeline.Run(cand, report.Input{Title: "wirebench: " + src.Title(), Notes: notes}))
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
