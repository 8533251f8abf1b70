package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/plot"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
)

// runConfig is how to measure the suite.
type runConfig struct {
	Budget  time.Duration
	Samples int
	Filter  string
	Seed    uint64
	Out     string // results JSON file, "" for none
	Format  string // table, bench or json (stdout)
	// Shard selects one shard of a partitioned suite ("" or "1/1": all).
	Shard string
	// Reference is the baseline's reference run, when known: it balances
	// the shards by cost.
	Reference *results.Results
}

func (c *runConfig) register(fs *flag.FlagSet) {
	fs.DurationVar(&c.Budget, "budget", 60*time.Second, "time the measurement should take, warm-up included")
	fs.IntVar(&c.Samples, "samples", 15, "samples per benchmark (one per interleaved round)")
	fs.StringVar(&c.Filter, "filter", "", "regular expression selecting benchmarks by name; opt-in datasets run only when named")
	fs.Uint64Var(&c.Seed, "seed", 0, "seed of the shuffled round order (0: random)")
	fs.StringVar(&c.Out, "out", "", "also write the results as JSON to this file")
	fs.StringVar(&c.Shard, "shard", "", "measure only shard I of N of the suite (I/N), for a job matrix; merge the shards' results with `merge`")
}

func (c *runConfig) validate() error {
	if c.Budget <= 0 {
		return badInputf("--budget %s: must be positive, e.g. --budget 60s", c.Budget)
	}
	if c.Samples < 2 {
		return badInputf("--samples %d: need at least 2 (10 or more for a useful comparison)", c.Samples)
	}
	if c.Filter != "" {
		if _, err := regexp.Compile(c.Filter); err != nil {
			return badInputf("--filter %q is not a valid regular expression: %v", c.Filter, err)
		}
	}
	if c.Shard != "" {
		if _, err := shard.Parse(c.Shard); err != nil {
			return badInputf("--shard: %v", err)
		}
	}
	return nil
}

// shardCosts are the expected costs of the reference's benchmarks under
// this run's settings, for balancing shards.
func (c *runConfig) shardCosts() shard.Costs {
	if c.Reference == nil {
		return nil
	}
	nb := max(len(c.Reference.Benchmarks), 1)
	target := c.Budget / time.Duration(c.Samples*nb)
	return shard.ReferenceCost(c.Reference, c.Samples, target, 30*time.Millisecond)
}

// measure prepares and runs the selected benchmarks and returns their
// results, with progress on stderr.
func measure(ctx context.Context, e *env, c runConfig) (*results.Results, error) {
	var sel bench.Selection
	if c.Filter != "" {
		sel.Filter = regexp.MustCompile(c.Filter)
	}
	var spec shard.Spec
	var partition string
	var suiteSize int
	if c.Shard != "" {
		spec, _ = shard.Parse(c.Shard)
	}
	if !spec.Whole() {
		names := bench.Names(sel, bench.Codecs(), bench.Datasets())
		assign := shard.Assign(names, spec.Count, c.shardCosts())
		partition, suiteSize = shard.PartitionID(assign, spec.Count), len(names)
		sel.Only = func(name string) bool { return assign[name] == spec.Index }
		mine := 0
		for _, s := range assign {
			if s == spec.Index {
				mine++
			}
		}
		if mine == 0 {
			return nil, badInputf("shard %s has no benchmarks (%d benchmarks over %d shards): use fewer shards", spec, len(names), spec.Count)
		}
		how := "by name hash (no baseline to balance costs)"
		if c.Reference != nil {
			how = "balanced by the baseline's timings"
		}
		fmt.Fprintf(e.stderr, "wirebench: shard %s of %d benchmarks, %s\n", spec, len(names), how)
	}
	benches, err := bench.Prepare(sel, bench.Codecs(), bench.Datasets())
	if err != nil {
		return nil, badInput{err}
	}
	r := bench.NewRunner(benches, bench.Options{Samples: c.Samples, Budget: c.Budget, Seed: c.Seed, Progress: e.stderr})
	if err := r.Run(ctx); err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	res := r.Results(bench.SuiteName, bench.CaptureEnv(e.getenv))
	res.Settings.Filter = c.Filter
	if !spec.Whole() {
		res.Settings.Shard, res.Settings.Partition, res.Settings.SuiteSize = spec.String(), partition, suiteSize
	}
	return res, nil
}

func cmdRun(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c runConfig
	c.register(fs)
	fs.StringVar(&c.Format, "format", "table", "output on stdout: table, bench (Go benchmark format, for benchstat) or json")
	plots := fs.String("plots", "", "also draw the results as PNG charts into this directory")
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() > 0 {
		return badInputf("run takes no arguments, got %q", fs.Args())
	}
	if err := c.validate(); err != nil {
		return err
	}
	if c.Shard != "" {
		// The baseline, when there is one, balances the shards by cost.
		if b, err := baseline.Load(baseline.DefaultPath, bench.SuiteName); err == nil {
			c.Reference = b.Reference
		}
	}
	switch c.Format {
	case "table", "bench", "json":
	default:
		return badInputf("--format %q: want table, bench or json", c.Format)
	}
	res, err := measure(ctx, e, c)
	if err != nil {
		return err
	}
	if c.Out != "" {
		if err := res.WriteFile(c.Out); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wirebench: results written to %s\n", c.Out)
	}
	if *plots != "" {
		files, err := plot.Write(*plots, res)
		if err != nil {
			return fmt.Errorf("draw plots: %w", err)
		}
		fmt.Fprintf(e.stderr, "wirebench: %d plots written to %s\n", len(files), *plots)
	}
	return writeResults(e.stdout, res, c.Format)
}

func writeResults(w io.Writer, res *results.Results, format string) error {
	switch format {
	case "bench":
		return res.WriteBench(w)
	case "json":
		return res.Encode(w)
	}
	return report.RunTable(w, res)
}

// cmdDefault is what `action` with no arguments does outside GitHub
// Actions: the main job on the embedded suite — check against the
// baseline when the repository has one, otherwise a plain run.
func cmdDefault(ctx context.Context, e *env) error {
	if _, err := os.Stat(baseline.DefaultPath); err == nil {
		fmt.Fprintf(e.stderr, "wirebench: checking against %s (run `action run` to only measure)\n", baseline.DefaultPath)
		return cmdCheck(ctx, e, nil)
	}
	fmt.Fprintf(e.stderr, "wirebench: no %s: measuring only (`action update` creates a baseline)\n", baseline.DefaultPath)
	return cmdRun(ctx, e, []string{"--out", defaultResultFile})
}
