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
	"slices"
	"strings"
	"sync"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/worker"
)

// Target is what the A/B mode builds in each source tree, and how the
// build starts as workers (see internal/worker). A source of benchmarks
// that can be built implements it (internal/source).
type Target interface {
	// CheckTree reports whether tree holds something to build; the error
	// wraps ErrSetup and says what is missing.
	CheckTree(tree string) error
	// Build builds tree into dir, a directory of its own, and returns how
	// to start its workers; the error wraps ErrSetup and carries the
	// build's last lines.
	Build(ctx context.Context, tree, dir string) (Program, error)
}

// Program is one build: the worker processes that together serve its
// benchmarks (the suite's one command, or a test binary per package).
type Program []Part

// Part is one worker process of a program.
type Part struct {
	// Command starts it; Command.Path is copied afresh for every
	// generation of workers.
	Command worker.Command
	// Package names the part's benchmarks, "" for none: in a run, a
	// benchmark of a package is called by its key (results.Key: the
	// package import path, a space, and its name).
	Package string
	// List, when set, is the go test -bench pattern the part's benchmarks
	// are listed with (a test binary's worker knows its benchmarks only by
	// running them once); otherwise its handshake names them.
	List string
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
func GoBuild(ctx context.Context, dir, pkg, out string, sb *sandbox.Sandbox) error {
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
		path, args, env := sb.Wrap(gobin, args, sb.GoEnv(append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")))
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Dir, cmd.Env = dir, env
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
	// BaseEnv and HeadEnv are the workers' environments, secrets always
	// dropped (see sandbox.Environ); nil means the current one.
	BaseEnv, HeadEnv []string
	// AA starts second base workers for the A/A check.
	AA bool
	// Stderr receives the workers' diagnostics, prefixed; nil discards
	// them (their last lines still go into errors).
	Stderr io.Writer
	// Sandbox runs the workers (code built from a pull request) as its
	// unprivileged user; nil runs them as is, the environment cleaned.
	Sandbox *sandbox.Sandbox
	// CPUs, when set, is where every worker runs, all of them on the
	// same CPUs (worker.OneCPU gives one): the blocks of a visit then
	// meet the same neighbours. nil leaves the workers to the scheduler.
	CPUs []int
	// counter, when set, runs every worker under callgrind (CountSolo,
	// Count).
	counter *counter
}

// Processes returns a Spawner that starts the worker processes of the two
// programs, the base's and the head's (the names a spawner is given are
// ignored: every generation serves the whole selection). With o.Dir,
// every generation runs fresh copies of the binaries, one per worker
// process (the second base worker's too), removed when the generation
// closes: see Spawner for why.
func Processes(base, head Program, o StartOptions) Spawner {
	gen := 0
	lists := &listCache{names: map[string][]string{}}
	return func(ctx context.Context, _ []string, aa bool) (*Generation, error) {
		suffix := ""
		if gen > 0 {
			suffix = fmt.Sprintf(" #%d", gen+1)
		}
		gen++
		progs := []Program{base, head, base}
		labels := []string{"base", "head", "base2"}
		if !(aa && o.AA) {
			progs, labels = progs[:2], labels[:2]
		}
		var dir string
		if o.Dir != "" {
			dir = filepath.Join(o.Dir, fmt.Sprintf("gen%d", gen))
			for i := range progs {
				fresh, err := copyProgram(progs[i], filepath.Join(dir, labels[i]))
				if err != nil {
					os.RemoveAll(dir)
					return nil, fmt.Errorf("%w: copy the %s binaries: %v", ErrSetup, labels[i], err)
				}
				progs[i] = fresh
			}
		}
		g, err := start(ctx, progs, o, suffix, lists)
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

// copyProgram copies every part's executable into dir.
func copyProgram(p Program, dir string) (Program, error) {
	out := make(Program, len(p))
	for i, part := range p {
		dst := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(part.Command.Path)))
		if err := copyFile(part.Command.Path, dst); err != nil {
			return nil, err
		}
		part.Command.Path = dst
		out[i] = part
	}
	return out, nil
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
// for their handshakes: progs are the base's, the head's and, for the A/A
// check, the base's again. An incompatible build gives an error wrapping
// worker.ErrIncompatible; on any error no worker is left running.
func start(ctx context.Context, progs []Program, o StartOptions, suffix string, lists *listCache) (*Generation, error) {
	labels := []string{"base" + suffix, "head" + suffix, "base (A/A)" + suffix}
	sides := []string{"base", "head", "base"}
	envs := [][]string{o.BaseEnv, o.HeadEnv, o.BaseEnv}
	ws := make([]*multi, len(progs))
	errs := make([]error, len(progs))
	var wg sync.WaitGroup
	for i, p := range progs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws[i], errs[i] = startProgram(ctx, sides[i], labels[i], p, envs[i], o, lists)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, w := range ws {
			if w != nil {
				w.kill()
			}
		}
		// The head's failure is the pull request's: report it alone, as
		// also an incompatible build, which explains the rest.
		for _, e := range errs {
			if Side(e) == "head" {
				return nil, e
			}
		}
		for _, e := range errs {
			if errors.Is(e, worker.ErrIncompatible) {
				return nil, e
			}
		}
		return nil, err
	}
	g := &Generation{Base: ws[0], Head: ws[1]}
	if len(ws) > 2 {
		g.Base2 = ws[2]
	}
	g.Close = func() error {
		var errs []error
		for _, w := range ws {
			errs = append(errs, w.close())
		}
		return errors.Join(errs...)
	}
	return g, nil
}

// startProgram starts every part of p, the build side ("base", "head" or
// "" for no comparison), and joins them into one worker; its errors are
// the side's.
func startProgram(ctx context.Context, side, label string, p Program, env []string, o StartOptions, lists *listCache) (*multi, error) {
	if env == nil {
		env = os.Environ()
	}
	m := &multi{side: side, byKey: map[string]int{}}
	for _, part := range p {
		cmd := part.Command
		cmd.Env = append(slices.Clone(env), cmd.Env...)
		partLabel := label
		if part.Package != "" {
			partLabel += " " + part.Package
		}
		var dumps *callgrind.Dumps
		if o.counter != nil {
			var out string
			cmd, out = o.counter.wrap(cmd, partLabel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				m.kill()
				return nil, fmt.Errorf("%w: %v", ErrSetup, err)
			}
			if err := o.Sandbox.Own(filepath.Dir(out)); err != nil {
				m.kill()
				return nil, fmt.Errorf("%w: %v", ErrSetup, err)
			}
			dumps = &callgrind.Dumps{OutFile: out}
		}
		cmd.Path, cmd.Args, cmd.Env = o.Sandbox.Wrap(cmd.Path, cmd.Args, cmd.Env)
		cmd.CPUs = o.CPUs
		c, err := worker.Start(ctx, partLabel, cmd, o.Stderr)
		if err != nil {
			m.kill()
			return nil, m.fail(err)
		}
		names := c.Handshake().Benchmarks
		if part.List != "" {
			if names, err = lists.list(ctx, c, side, part); err != nil {
				c.Kill()
				m.kill()
				return nil, m.fail(fmt.Errorf("%s: list the benchmarks: %w", partLabel, err))
			}
		}
		m.add(c, part.Package, names)
		m.dumps = append(m.dumps, dumps)
	}
	return m, nil
}

// listCache keeps what the first generation's workers listed, by build
// side, package and pattern: a test binary lists its benchmarks by running
// each once. The side is part of the key because the base's and the
// head's package of one import path are different code: a benchmark the
// pull request adds or removes is listed by one of them only.
type listCache struct {
	mu    sync.Mutex
	names map[string][]string
}

func (l *listCache) list(ctx context.Context, c *worker.Client, side string, part Part) ([]string, error) {
	key := side + "\x00" + part.Package + "\x00" + part.List
	l.mu.Lock()
	names, ok := l.names[key]
	l.mu.Unlock()
	if ok {
		return names, nil
	}
	names, err := c.List(ctx, part.List)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.names[key] = names
	l.mu.Unlock()
	return names, nil
}
