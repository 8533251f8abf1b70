package program

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/worker"
)

// Target is what is built in each source tree, and how the build starts
// as workers (see internal/worker). A source of benchmarks that can be
// built implements it (internal/source).
type Target interface {
	// CheckTree reports whether tree holds something to build; the error
	// wraps ErrSetup and says what is missing.
	CheckTree(tree string) error
	// Build builds tree into dir, a directory of its own, and returns how
	// to start its workers, and the troubles of what did not build (a
	// package whose tests do not build is its own row, its benchmarks
	// not served); the error wraps ErrSetup and carries the build's last
	// lines.
	Build(ctx context.Context, tree, dir string) (Program, []results.Trouble, error)
}

// Pairable is a Target that can build one side of a same-runner A/B
// beside the other side's tree, so that the two builds differ only in
// the trees' own code (a go test target names both sides' workers
// alike).
type Pairable interface {
	Beside(peer string) Target
}

// Program is one build: the worker processes that together serve its
// benchmarks (the suite's one command, or a test binary per package).
type Program []Part

// ForKeys is the parts of p that serve the benchmarks keys (by their
// package: results.Key), in p's order: a process that counts some of a
// program's benchmarks starts only the test binaries that have them. A
// part without a package (the suite's one worker) serves every key.
func (p Program) ForKeys(keys []string) Program {
	pkgs := map[string]bool{}
	for _, k := range keys {
		pkg, _ := results.SplitKey(k)
		pkgs[pkg] = true
	}
	var out Program
	for _, part := range p {
		if part.Package == "" || pkgs[part.Package] {
			out = append(out, part)
		}
	}
	return out
}

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
	// Parallel names the part's benchmark functions that call
	// RunParallel: timed, the part runs on every CPU it may use (see
	// StartOptions.EveryCPU); counted, Valgrind runs their goroutines one
	// at a time.
	Parallel []string
	// Hash is the identity of what the part runs (gotest.Hash), "" when
	// not known: two parts of one Package and one non-empty Hash run the
	// same instructions on the same inputs, so a comparison need not
	// measure them.
	Hash string
	// NoHandshake, when set, is the likely cause of the part's process
	// ending or staying silent before its handshake (a test binary whose
	// TestMain did not run the worker), added to that error.
	NoHandshake string
	// BuiltWith says which Go built the part and what wirebench patched
	// in it (gotest.Binary.BuiltWith), for the progress lines; "" when
	// not said (the embedded suite's worker).
	BuiltWith string
	// Patches is what wirebench patched in the toolchain for a counted
	// build (gotest.Patches), "" when it patched nothing (a timed build,
	// the embedded suite's worker). wirebench made it, not the part's
	// code: the reports may say it.
	Patches string
}

// Patches is what the program's parts say alike of wirebench's patches
// (Part.Patches), "" when they disagree or say nothing.
func (prog Program) Patches() string { return prog.alike(func(p Part) string { return p.Patches }) }

// BuiltWith is what the program's parts say alike of the Go that built
// them (Part.BuiltWith), "" when they disagree or say nothing.
func (prog Program) BuiltWith() string { return prog.alike(func(p Part) string { return p.BuiltWith }) }

// alike is what every part of prog says of field, "" when two differ.
func (prog Program) alike(field func(Part) string) string {
	said := ""
	for i, part := range prog {
		if i > 0 && field(part) != said {
			return ""
		}
		said = field(part)
	}
	return said
}

// ErrSetup marks a failure to set the benchmarks up (no Go toolchain, a
// tree that is not a wirebench module, a build that fails), for a
// comparison or for measuring one tree alone. Whether the caller may fall
// back to the stored baseline depends on whose it is (see Side): a base
// that cannot be built or run is not the pull request's doing; a head
// that cannot is, and must fail the check.
var ErrSetup = errors.New("cannot build or start the benchmarks")

// IsSetup reports whether err is a failure to set the benchmarks up:
// ErrSetup, or a build whose workers speak another protocol
// (worker.ErrIncompatible). Whose it is (Side) says whether the caller
// may fall back to the stored baseline.
func IsSetup(err error) bool {
	return errors.Is(err, ErrSetup) || errors.Is(err, worker.ErrIncompatible)
}

// SideError is a failure of one build: the base's or the head's.
type SideError struct {
	Side string // "base" or "head"
	Err  error
}

func (e *SideError) Error() string { return e.Err.Error() }
func (e *SideError) Unwrap() error { return e.Err }

// Side returns which build err comes from, "base" or "head", or "" when
// it is neither's (the machine, a cancellation).
func Side(err error) string {
	var se *SideError
	if errors.As(err, &se) {
		return se.Side
	}
	return ""
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

// Intersect returns the benchmarks of two builds' lists that both have
// (in head's order), those only in base, and those only in head.
func Intersect(base, head []string) (common, onlyBase, onlyHead []string) {
	inBase := make(map[string]bool, len(base))
	for _, n := range base {
		inBase[n] = true
	}
	inHead := make(map[string]bool, len(head))
	for _, n := range head {
		inHead[n] = true
		if inBase[n] {
			common = append(common, n)
		} else {
			onlyHead = append(onlyHead, n)
		}
	}
	for _, n := range base {
		if !inHead[n] {
			onlyBase = append(onlyBase, n)
		}
	}
	return common, onlyBase, onlyHead
}
