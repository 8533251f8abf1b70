package ab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/wirebench/wirebench/internal/worker"
)

// Target is what the A/B mode builds in each source tree, and how it
// starts the built program as a worker (see internal/worker). A source of
// benchmarks that can be built implements it (internal/source).
type Target interface {
	// CheckTree reports whether tree holds something to build; the error
	// wraps ErrSetup and says what is missing.
	CheckTree(tree string) error
	// Build builds tree into the executable out; the error wraps
	// ErrSetup and carries the build's last lines.
	Build(ctx context.Context, tree, out string) error
	// WorkerArgs are the arguments that make the built executable a
	// worker serving the benchmarks filter selects ("" all of them).
	WorkerArgs(filter string) []string
}

// CheckModule reports whether dir is a directory holding a Go module. The
// error wraps ErrSetup.
func CheckModule(dir string) error {
	if dir == "" {
		return fmt.Errorf("%w: no directory given", ErrSetup)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrSetup, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return fmt.Errorf("%w: %s is not a Go module (it has no go.mod)", ErrSetup, dir)
	}
	return nil
}

// GoBuild compiles the package pkg of the module in dir into the file out,
// with -trimpath (so two checkouts of the same code in different
// directories give the same binary) and without cgo, ignoring any go.work
// above dir. When the tree's version control cannot be read (a checkout
// owned by another user, as in a container) it builds without VCS
// stamping. The error wraps ErrSetup and carries the compiler's last
// lines.
func GoBuild(ctx context.Context, dir, pkg, out string) error {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("%w: the A/B mode builds the base and the head and needs the Go toolchain, but go is not in PATH", ErrSetup)
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSetup, err)
	}
	build := func(extra ...string) ([]byte, error) {
		args := append([]string{"build", "-trimpath"}, extra...)
		args = append(args, "-o", out, pkg)
		cmd := exec.CommandContext(ctx, gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
		return cmd.CombinedOutput()
	}
	output, err := build()
	if err != nil && bytes.Contains(output, []byte("-buildvcs=false")) {
		output, err = build("-buildvcs=false")
	}
	if err != nil {
		return fmt.Errorf("%w: go build %s in %s: %v\n%s", ErrSetup, pkg, dir, err, lastLines(string(output), 20))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// StartOptions say how to start worker processes.
type StartOptions struct {
	// Dir is where each generation's copies of the binaries go; "" runs
	// the binaries in place (tests).
	Dir string
	// Target gives the workers' arguments.
	Target Target
	// Filter is the user's selection (the worker's --filter), "" for the
	// default suite.
	Filter string
	// BaseEnv and HeadEnv are the workers' environments, secrets always
	// dropped (see workerEnviron); nil means the current one.
	BaseEnv, HeadEnv []string
	// AA starts second base workers for the A/A check.
	AA bool
	// Stderr receives the workers' diagnostics, prefixed; nil discards
	// them (their last lines still go into errors).
	Stderr io.Writer
}

// Processes returns a Spawner that starts worker processes of the two
// binaries: for the whole selection, or for just the named benchmarks (a
// filter matching exactly those names), which makes a confirmation's
// workers start in a fraction of the time. With o.Dir, every generation
// runs fresh copies of the binaries, one per worker (the second base
// worker too), removed when the generation closes: see Spawner for why.
func Processes(baseBin, headBin string, o StartOptions) Spawner {
	gen := 0
	return func(ctx context.Context, names []string, aa bool) (*Generation, error) {
		filter := o.Filter
		if names != nil {
			quoted := make([]string, len(names))
			for i, n := range names {
				quoted[i] = regexp.QuoteMeta(n)
			}
			filter = "^(?:" + strings.Join(quoted, "|") + ")$"
		}
		args := o.Target.WorkerArgs(filter)
		suffix := ""
		if gen > 0 {
			suffix = fmt.Sprintf(" #%d", gen+1)
		}
		gen++
		bins := []string{baseBin, headBin, baseBin}
		var dir string
		if o.Dir != "" {
			dir = filepath.Join(o.Dir, fmt.Sprintf("gen%d", gen))
			for i, label := range []string{"base", "head", "base2"} {
				if label == "base2" && !(aa && o.AA) {
					break
				}
				dst := filepath.Join(dir, label)
				if err := copyFile(bins[i], dst); err != nil {
					os.RemoveAll(dir)
					return nil, fmt.Errorf("%w: copy the %s binary: %v", ErrSetup, label, err)
				}
				bins[i] = dst
			}
		}
		g, err := start(ctx, bins, args, o, aa && o.AA, suffix)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if dir != "" {
			closeWorkers := g.Close
			g.Close = func() error {
				err := closeWorkers()
				os.RemoveAll(dir)
				return err
			}
		}
		return g, nil
	}
}

// copyFile copies an executable to dst, creating dst's directory.
func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// start starts the workers of one generation at the same time (each
// prepares its benchmarks, a second or two for the whole suite) and waits
// for their handshakes. An incompatible build gives an error wrapping
// worker.ErrIncompatible; on any error no worker is left running.
func start(ctx context.Context, bins []string, args []string, o StartOptions, aa bool, suffix string) (*Generation, error) {
	type spec struct {
		label, bin string
		env        []string
	}
	specs := []spec{{"base" + suffix, bins[0], o.BaseEnv}, {"head" + suffix, bins[1], o.HeadEnv}}
	if aa {
		specs = append(specs, spec{"base (A/A)" + suffix, bins[2], o.BaseEnv})
	}
	clients := make([]*worker.Client, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, s := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := s.env
			if env == nil {
				env = os.Environ()
			}
			env = workerEnviron(env)
			clients[i], errs[i] = worker.Start(ctx, s.label, s.bin, slices.Clone(args), env, o.Stderr)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, c := range clients {
			if c != nil {
				c.Kill()
			}
		}
		// An incompatible build explains the rest: report it alone.
		for _, e := range errs {
			if errors.Is(e, worker.ErrIncompatible) {
				return nil, e
			}
		}
		return nil, err
	}
	g := &Generation{Base: clients[0], Head: clients[1]}
	if aa {
		g.Base2 = clients[2]
	}
	g.Close = func() error {
		var errs []error
		for _, c := range clients {
			errs = append(errs, c.Close())
		}
		return errors.Join(errs...)
	}
	return g, nil
}

// workerEnviron drops from env what the workers must not see. A worker
// runs code built from the pull request, so it gets neither the action's
// inputs (INPUT_GITHUB-TOKEN among them) nor any variable that carries a
// token or a URL to get one (the runner's ACTIONS_* tokens, GITHUB_TOKEN,
// GH_TOKEN): a pull request that changes the benchmark must not be able
// to read them. Everything else (PATH, HOME, GOMAXPROCS, GODEBUG, …)
// passes, so both builds run as the action itself does.
func workerEnviron(env []string) []string {
	secret := func(name string) bool {
		up := strings.ToUpper(name)
		switch {
		case strings.HasPrefix(up, "INPUT_"), strings.HasPrefix(up, "ACTIONS_"):
			return true
		case up == "GITHUB_TOKEN", up == "GH_TOKEN", up == "GITHUB_PAT":
			return true
		}
		return strings.Contains(up, "TOKEN") || strings.Contains(up, "SECRET") || strings.Contains(up, "PASSWORD")
	}
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !secret(name) {
			out = append(out, kv)
		}
	}
	return out
}
