package source

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/gotest"
	"github.com/wirebench/wirebench/internal/load"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/shard"
	"github.com/wirebench/wirebench/internal/worker"
)

// Embedded is the serialization suite built into wirebench (seed 001's
// datasets on every codec), measured in this process by bench.Runner.
type Embedded struct{}

// Suite is bench.SuiteName.
func (Embedded) Suite() string { return bench.SuiteName }

// Title is "default suite".
func (Embedded) Title() string { return bench.SuiteName + " suite" }

// Warmup is the warm-up per benchmark; shard costs count it.
const warmup = 30 * time.Millisecond

// Results prepares the selected benchmarks (one shard of them with
// p.Shard) and measures them.
func (e Embedded) Results(ctx context.Context, p Plan) (*results.Results, []string, error) {
	var sel bench.Selection
	if p.Filter != "" {
		re, err := regexp.Compile(p.Filter)
		if err != nil {
			return nil, nil, fmt.Errorf("filter %q: %w", p.Filter, err)
		}
		sel.Filter = re
	}
	var spec shard.Spec
	if p.Shard != "" {
		var err error
		if spec, err = shard.Parse(p.Shard); err != nil {
			return nil, nil, err
		}
	}
	var partition string
	var suiteSize int
	if !spec.Whole() {
		names := bench.Names(sel, bench.Datasets())
		assign := shard.Assign(names, spec.Count, shardCosts(p))
		partition, suiteSize = shard.PartitionID(assign, spec.Count), len(names)
		sel.Only = func(name string) bool { return assign[name] == spec.Index }
		mine := 0
		for _, s := range assign {
			if s == spec.Index {
				mine++
			}
		}
		if mine == 0 {
			return nil, nil, fmt.Errorf("shard %s has no benchmarks (%d benchmarks over %d shards): use fewer shards", spec, len(names), spec.Count)
		}
		how := "by name hash (no baseline to balance costs)"
		if p.Reference != nil {
			how = "balanced by the baseline's timings"
		}
		fmt.Fprintf(p.progress(), "wirebench: shard %s of %d benchmarks, %s\n", spec, len(names), how)
	}
	// The suite's identity, for a stored check to skip it when the
	// baseline recorded the same (a whole run's only: a shard's is
	// measured).
	hash := ""
	if spec.Whole() && hashable(p) {
		var err error
		if hash, err = suiteHash(p); err != nil {
			return nil, nil, err
		}
		if p.Known != nil && p.Known[SuitePackage] == hash {
			fmt.Fprintf(p.progress(), "wirebench: the embedded suite not measured: %s (--measure-all measures it)\n", SuiteIdentical)
			return sameSuite(p, hash), nil, nil
		}
	}
	withHash := func(r *results.Results) {
		if hash != "" {
			r.Hashes = map[string]string{SuitePackage: hash}
		}
	}
	if p.Count != nil {
		res, err := e.count(ctx, p, sel)
		if err != nil {
			return nil, nil, err
		}
		withHash(res)
		res.Settings.Filter = p.Filter
		res.Axes = bench.Axes()
		if !spec.Whole() {
			res.Settings.Shard, res.Settings.Partition, res.Settings.SuiteSize = spec.String(), partition, suiteSize
		}
		return res, nil, nil
	}
	benches, err := bench.Prepare(sel, bench.Datasets())
	if err != nil {
		return nil, nil, err
	}
	r := bench.NewRunner(benches, bench.Options{Samples: p.Samples, Budget: p.Budget, Seed: p.Seed, Progress: p.Progress, Warmup: warmup})
	before, loadErr := load.Take()
	if err := r.Run(ctx); err != nil {
		return nil, nil, fmt.Errorf("measure: %w", err)
	}
	res := r.Results(bench.SuiteName, bench.CaptureEnv(p.getenv))
	withHash(res)
	if after, err := load.Take(); err == nil && loadErr == nil {
		res.Settings.OtherCPUs = before.Other(after)
	}
	res.Settings.Filter = p.Filter
	res.Axes = bench.Axes()
	if !spec.Whole() {
		res.Settings.Shard, res.Settings.Partition, res.Settings.SuiteSize = spec.String(), partition, suiteSize
	}
	return res, nil, nil
}

// count counts the benchmarks sel selects (count.One) in worker
// processes of p.Self, this binary by default: `wirebench worker`
// serving exactly those benchmarks, each named by an anchored
// alternative of its --filter.
func (Embedded) count(ctx context.Context, p Plan, sel bench.Selection) (*results.Results, error) {
	self := p.Self
	if self == "" {
		if testing.Testing() {
			// A test binary has no worker command: it would run its tests.
			return nil, fmt.Errorf("the embedded suite is counted in worker processes of the wirebench binary, and this process is a test binary: set Plan.Self, or measure with --metric time")
		}
		var err error
		if self, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("find this binary to count the suite in worker processes: %w", err)
		}
	}
	names := bench.Names(sel, bench.Datasets())
	if only := p.Count.Only; len(only) > 0 {
		names = slices.DeleteFunc(names, func(n string) bool { return !slices.Contains(only, n) })
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no benchmark matches --filter %q", p.Filter)
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	sb := p.Sandbox
	if sb == nil {
		var err error
		if sb, err = sandbox.Default(); err != nil {
			return nil, err
		}
		defer sb.Close()
	}
	// The sandbox's user must reach the binary (not so when `go install`
	// as root put it under /root).
	path, err := sb.Program(self)
	if err != nil {
		return nil, err
	}
	prog := program.Program{{Command: worker.Command{Path: path, Args: []string{"worker", "--filter", "^(" + strings.Join(quoted, "|") + ")$"},
		// Measured in the worker as in-process runs are; set here, it
		// also keeps the worker from re-executing itself to set it, which
		// under valgrind would run the new process uncounted.
		Env: []string{"GODEBUG=madvdontneed=0"}}}}
	dir, err := os.MkdirTemp("", "wirebench-count-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	res, err := count.One(ctx, count.Build{Program: prog}, count.Options{Settings: *p.Count, Dir: dir, Stderr: p.workers(), Progress: p.Progress, Sandbox: sb, Keep: p.KeepDumps})
	if err != nil {
		return nil, fmt.Errorf("count: %w", err)
	}
	res.Suite = bench.SuiteName
	env := bench.CaptureEnv(p.getenv)
	res.Env.Commit, res.Env.Ref, res.Env.Runner, res.Env.Time = env.Commit, env.Ref, env.Runner, env.Time
	return res, nil
}

// shardCosts are the expected costs of the reference's benchmarks under
// p's settings, for balancing shards.
func shardCosts(p Plan) shard.Costs {
	if p.Reference == nil {
		return nil
	}
	nb := max(len(p.Reference.Benchmarks), 1)
	target := p.Budget / time.Duration(max(p.Samples, 1)*nb)
	return shard.ReferenceCost(p.Reference, p.Samples, target, warmup)
}

// Target builds the suite's command, ./cmd/wirebench, and starts it as
// `wirebench worker` serving the benchmarks p.Filter selects.
func (Embedded) Target(p Plan) program.Target {
	return embeddedTarget{filter: p.Filter, sandbox: p.Sandbox, progress: p.progress()}
}

// embeddedPackages are the packages the A/B mode builds in a wirebench
// tree, the first that the tree has: the command is ./cmd/wirebench; trees
// from before it was named after its binary have only ./cmd/action (a
// pull request's base may be one), which served the same commands.
var embeddedPackages = []string{"./cmd/wirebench", "./cmd/action"}

// embeddedPackage is the first of embeddedPackages that tree has, or "".
func embeddedPackage(tree string) string {
	for _, p := range embeddedPackages {
		if fi, err := os.Stat(filepath.Join(tree, filepath.FromSlash(p))); err == nil && fi.IsDir() {
			return p
		}
	}
	return ""
}

type embeddedTarget struct {
	filter   string
	sandbox  *sandbox.Sandbox
	progress io.Writer
}

func (embeddedTarget) CheckTree(tree string) error {
	if err := program.CheckModule(tree); err != nil {
		return err
	}
	if embeddedPackage(tree) == "" {
		return fmt.Errorf("%w: %s has no %s: it is not a wirebench tree", program.ErrSetup, tree, embeddedPackages[0])
	}
	return nil
}

func (t embeddedTarget) Build(ctx context.Context, tree, dir string) (program.Program, []results.Trouble, error) {
	pkg := embeddedPackage(tree)
	if pkg == "" {
		return nil, nil, fmt.Errorf("%w: %s has no %s: it is not a wirebench tree", program.ErrSetup, tree, embeddedPackages[0])
	}
	tree, err := readableTree(t.sandbox, tree, t.progress)
	if err != nil {
		return nil, nil, err
	}
	bin := filepath.Join(dir, "wirebench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	if err := t.sandbox.Own(dir); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	start := time.Now()
	stop := building(t.progress, func() string {
		return fmt.Sprintf("building %s: %s elapsed (go build)", tree, time.Since(start).Round(time.Second))
	})
	err = program.GoBuild(ctx, tree, pkg, bin, t.sandbox)
	stop()
	if err != nil {
		return nil, nil, err
	}
	args := []string{"worker"}
	if t.filter != "" {
		args = append(args, "--filter", t.filter)
	}
	// The suite's binary, built with -trimpath, is what it runs: its
	// datasets are made from seeds in it, and the Go version and platform
	// are in its bytes.
	hash, err := gotest.Hash(bin, "", "embedded suite "+t.filter, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	return program.Program{{Command: worker.Command{Path: bin, Args: args}, Hash: hash}}, nil, nil
}
