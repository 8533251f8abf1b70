package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/gotest"
	"github.com/wirebench/wirebench/internal/heartbeat"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/worker"
)

// GoTestSuite names a module's own benchmarks in results and baselines.
const GoTestSuite = "go test"

// GoTest is a module's own go test benchmarks: those the go test -bench
// pattern Bench selects in the packages Packages selects, built with
// BuildFlags. They run as workers built into the packages' test binaries
// (internal/gotest), in this tree (Results) or in a base and a head tree
// side by side (Target).
type GoTest struct {
	// Dir is the module tree Results measures ("" the working directory).
	Dir        string
	Packages   []string
	Bench      string
	BuildFlags []string
	// Env is the environment of the builds and the workers; nil the
	// process's.
	Env []string
}

// Suite is GoTestSuite.
func (GoTest) Suite() string { return GoTestSuite }

// Title names the selection.
func (g GoTest) Title() string {
	return fmt.Sprintf("go test -bench %s %s", g.Bench, strings.Join(g.packages(), " "))
}

func (g GoTest) packages() []string {
	if len(g.Packages) == 0 {
		return []string{"./..."}
	}
	return g.Packages
}

// Results builds the benchmarks of g.Dir and measures them in
// interleaved rounds as the plan says.
func (g GoTest) Results(ctx context.Context, p Plan) (*results.Results, []string, error) {
	dir, err := os.MkdirTemp("", "wirebench-gotest-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	tree := g.Dir
	if tree == "" {
		tree = "."
	}
	if p.Sandbox == nil {
		// The module's code runs: as the sandbox's user where possible.
		sb, err := sandbox.Default()
		if err != nil {
			return nil, nil, err
		}
		defer sb.Close()
		p.Sandbox = sb
	}
	if err := p.Sandbox.Own(dir); err != nil {
		return nil, nil, err
	}
	prog, troubles, err := g.Target(p).Build(ctx, tree, dir)
	if err != nil {
		return nil, nil, err
	}
	if with := prog.BuiltWith(); with != "" {
		fmt.Fprintf(p.progress(), "wirebench: built with %s\n", with)
	}
	hashes, unmeasured, prog := known(prog, p.Known)
	env := results.Env{Commit: p.getenv("GITHUB_SHA"), Ref: p.getenv("GITHUB_REF_NAME")}
	finish := func(r *results.Results) *results.Results {
		r.Suite = GoTestSuite
		r.Env.Commit, r.Env.Ref = env.Commit, env.Ref
		r.Env.FillMachine(bench.CaptureEnv(p.getenv))
		r.Settings.Filter = g.Bench
		r.Hashes, r.Unmeasured = hashes, unmeasured
		for _, t := range troubles {
			r.AddTrouble(t)
		}
		return r
	}
	if len(unmeasured) > 0 {
		fmt.Fprintf(p.progress(), "wirebench: %s not measured: %s as the baseline's (--measure-all measures them)\n",
			human.Plural(len(unmeasured), "package", "packages"), identicalWhat)
	}
	if len(prog) == 0 {
		r := results.New(GoTestSuite, env)
		if ref := p.Reference; ref != nil {
			// The toolchain, GOOS/GOARCH and the module's dependencies
			// are in every hash: the baseline's, as the workers' hello
			// would have said.
			r.Env.GoVersion, r.Env.GOOS, r.Env.GOARCH, r.Env.GOMAXPROCS = ref.Env.GoVersion, ref.Env.GOOS, ref.Env.GOARCH, ref.Env.GOMAXPROCS
			r.Env.Modules = maps.Clone(ref.Env.Modules)
		}
		if p.Count != nil {
			r.Settings.Counter = p.Count.Counter()
		}
		return finish(r), nil, nil
	}
	var r *results.Results
	if p.Count != nil {
		r, err = count.One(ctx, count.Build{Program: prog, Env: g.Env}, count.Options{Settings: *p.Count, Dir: filepath.Join(dir, "count"),
			Stderr: p.workers(), Progress: p.Progress, Sandbox: p.Sandbox, Keep: p.KeepDumps})
	} else {
		r, err = timeOne(ctx, prog, oneOptions{Samples: p.Samples, Budget: share(p.Budget, p.Reference, unmeasured), Seed: p.Seed, Env: g.Env,
			Stderr: p.workers(), Progress: p.Progress, Verbose: p.Verbose, Sandbox: p.Sandbox})
	}
	switch {
	case errors.Is(err, errNoneSelected):
		return nil, nil, fmt.Errorf("--bench %q matches benchmark functions of %s, but none of their sub-benchmarks", g.Bench, strings.Join(g.packages(), " "))
	case err != nil && ctx.Err() == nil:
		return nil, nil, &CodeError{fmt.Errorf("the benchmarks failed: %w", err)}
	case err != nil:
		return nil, nil, err
	}
	if r.Settings.Budget > 0 {
		r.Settings.Budget = p.Budget // the selection's, of which the measured had their share
	}
	return finish(r), nil, nil
}

// share is the part of a timed budget for the whole selection that the
// benchmarks measured get when the packages unmeasured are not measured:
// the reference's benchmarks outside them over all its benchmarks. Each
// benchmark then gets the time, and so the batch sizes, it would have
// had in the whole selection, and the results record the whole
// selection's budget, as the reference does (results.Harness).
func share(budget time.Duration, ref *results.Results, unmeasured []string) time.Duration {
	if ref == nil || len(unmeasured) == 0 || len(ref.Benchmarks) == 0 {
		return budget
	}
	skipped := 0
	for _, b := range ref.Benchmarks {
		if slices.Contains(unmeasured, b.Pkg) {
			skipped++
		}
	}
	return time.Duration(float64(budget) * float64(len(ref.Benchmarks)-skipped) / float64(len(ref.Benchmarks)))
}

// identicalWhat is what a package skipped against a stored baseline has
// in common with the baseline's (compare.IdenticalReason says the same).
const identicalWhat = "identical test binary and files"

// known splits prog against the hashes a stored baseline recorded: every
// part's hash by package (what the results record), the packages whose
// hash is the baseline's (not measured: the same instructions on the same
// inputs), and the parts left to measure.
func known(prog program.Program, baseline map[string]string) (hashes map[string]string, same []string, left program.Program) {
	for _, part := range prog {
		if part.Hash == "" {
			left = append(left, part)
			continue
		}
		if hashes == nil {
			hashes = map[string]string{}
		}
		hashes[part.Package] = part.Hash
		if baseline[part.Package] == part.Hash {
			same = append(same, part.Package)
			continue
		}
		left = append(left, part)
	}
	return hashes, same, left
}

// Target builds a tree's test binaries with the worker and starts one
// worker per package, GOMAXPROCS=1 (but a package with a benchmark that
// calls RunParallel: program.Part.Parallel), in the package's directory
// (where its testdata is).
func (g GoTest) Target(p Plan) program.Target {
	return goTestTarget{g: g, sandbox: p.Sandbox, progress: p.progress(), counted: p.Count != nil}
}

type goTestTarget struct {
	g        GoTest
	sandbox  *sandbox.Sandbox
	progress io.Writer
	// counted builds the binaries with the testing package's timer hooks
	// (gotest.Tree.TimerHooks).
	counted bool
	// peer is the other side's tree of a same-runner A/B (Beside).
	peer string
}

func (t goTestTarget) CheckTree(tree string) error { return program.CheckModule(tree) }

// Beside is t building beside the checkout peer, the other side of a
// same-runner A/B: each package's worker is named so as to clash with
// neither side's names, so both builds' workers have one name
// (gotest.Tree.Peer).
func (t goTestTarget) Beside(peer string) program.Target {
	t.peer = peer
	return t
}

func (t goTestTarget) Build(ctx context.Context, tree, dir string) (program.Program, []results.Trouble, error) {
	tree, err := readableTree(t.sandbox, tree, t.progress)
	if err != nil {
		return nil, nil, err
	}
	gt := gotest.Tree{Dir: tree, BuildFlags: t.g.BuildFlags, Env: goTestEnv(t.g.Env), Sandbox: t.sandbox, TimerHooks: t.counted, Peer: t.peer}
	// Finding the packages may download the module's dependencies (and
	// the toolchain its go.mod asks for), and building compiles them:
	// tens of seconds on a cold cache.
	start := time.Now()
	stop := building(t.progress, func() string {
		return fmt.Sprintf("finding and building the benchmarks of %s: %s elapsed (go list, go test -c)", tree, time.Since(start).Round(time.Second))
	})
	gt, tc, err := gotest.UseToolchain(ctx, gt)
	if err != nil {
		stop()
		return nil, nil, codeError(fmt.Errorf("%w: %w", program.ErrSetup, err))
	}
	copied(t.progress, tc)
	pkgs, err := gotest.Discover(ctx, gt, t.g.packages())
	if err != nil {
		stop()
		return nil, nil, codeError(fmt.Errorf("%w: %w", program.ErrSetup, err))
	}
	// Before any build: a pattern that can run nothing is named.
	if pkgs, err = gotest.Select(pkgs, t.g.Bench, strings.Join(t.g.packages(), " ")); err != nil {
		stop()
		return nil, nil, err
	}
	if note := cgoNote(pkgs); note != "" {
		fmt.Fprintf(t.progress, "wirebench: %s\n", note)
	}
	bins, troubles, err := gotest.Build(ctx, gt, pkgs, dir)
	stop()
	if err != nil {
		return nil, nil, codeError(fmt.Errorf("%w: %w", program.ErrSetup, err))
	}
	for _, tr := range troubles {
		if t.progress == nil {
			break
		}
		fmt.Fprintf(t.progress, "wirebench: %s: its tests do not build, so its benchmarks are not measured (its own row): %s\n", tr.Name, tr.Why)
	}
	var prog program.Program
	for _, b := range bins {
		prog = append(prog, program.Part{
			Command: worker.Command{
				Path: b.Path,
				Args: b.WorkerArgs(),
				Env:  []string{"WIREBENCH_WORKER_FDS=3,4", "GOMAXPROCS=1"},
				Dir:  b.Package.Dir,
				FDs:  true,
			},
			Package:     b.Package.ImportPath,
			List:        t.g.Bench,
			Parallel:    b.Package.Parallel,
			Hash:        b.Hash,
			NoHandshake: b.NoHandshake(),
			BuiltWith:   b.BuiltWith(),
			Patches:     patchesText(b.Patches),
		})
	}
	return prog, troubles, nil
}

// copied says that tc, fetched by the go command into its module cache,
// was copied out of it in this run (gotest.UseToolchain), where to, and
// how long it took.
func copied(progress io.Writer, tc gotest.Toolchain) {
	if tc.Made <= 0 {
		return
	}
	how := "a copy of each file"
	if tc.Linked {
		how = "hard links"
	}
	fmt.Fprintf(progress, "wirebench: %s is in the go command's module cache, where no file may be patched: copied it to %s (%s) in %s, once for this cache\n",
		tc.Version, tc.Copy, how, tc.Made.Round(time.Millisecond))
}

// patchesText is what p says, "" for nil (nothing patched).
func patchesText(p *gotest.Patches) string {
	if p == nil {
		return ""
	}
	return p.String()
}

// cgoNote says which packages are built with cgo because their test
// binaries need it (gotest.Package.NeedsCgo), or "" when none is: the
// rest, and every package of a module without cgo, are built without.
func cgoNote(pkgs []gotest.Package) string {
	var names []string
	for _, p := range pkgs {
		if p.Cgo && len(p.NeedsCgo) > 0 {
			names = append(names, p.ImportPath)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("the test binaries of %s link a package that uses cgo: they are built with CGO_ENABLED=1, every other without", strings.Join(names, ", "))
}

// goTestEnv is the go command's environment for a user's module: the
// toolchain the module asks for is fetched the way the go command does
// (GOTOOLCHAIN=auto) unless the environment chose a toolchain other than
// the image's default, local.
func goTestEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	choice := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOTOOLCHAIN="); ok {
			choice = v
			continue
		}
		out = append(out, kv)
	}
	if choice == "" || choice == "local" {
		choice = "auto"
	}
	return append(out, "GOTOOLCHAIN="+choice)
}

// building writes a line what says every heartbeat.Every until stop is
// called: a build says nothing while it runs.
func building(progress io.Writer, what func() string) (stop func()) {
	if progress == nil || progress == io.Discard {
		return func() {}
	}
	return heartbeat.Start(heartbeat.Every, func() { fmt.Fprintf(progress, "wirebench: %s\n", what()) })
}
