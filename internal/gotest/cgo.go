package gotest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// How a package's test binary is built with or without cgo.
//
// The go command builds with cgo (CGO_ENABLED=1) by default where it
// finds a C compiler, as on GitHub's ubuntu runners, and without it
// elsewhere. wirebench decides for itself, package by package, so that
// the same code makes the same binary (and so the same Hash and counts)
// on every machine:
//
//   - the environment's CGO_ENABLED, when it sets one (0 or 1), decides
//     for every package;
//   - otherwise a package's test binary is built with cgo only when it
//     needs it: when it links a package outside the standard library
//     with cgo files (import "C", or SWIG), the package itself among
//     them, as go list -deps -test sees them with cgo on. Everything
//     else is built without cgo, as the action's image always built it
//     (the standard library's cgo, net's resolver and os/user's
//     lookups, has pure Go fallbacks), so a module that does not use cgo
//     builds the binaries its stored baselines were made from whether
//     or not the machine has a C compiler.
//
// A package built with cgo needs the C compiler the go command calls (go
// env CC): its absence is one error before any build (CheckCompiler),
// naming the package, cgo and the fix.

// cgoVar is the go command's switch for cgo.
const cgoVar = "CGO_ENABLED"

// env is the go command's environment for t before goEnv's additions:
// t.Env, or the process's.
func (t Tree) env() []string {
	if t.Env == nil {
		return os.Environ()
	}
	return t.Env
}

// withCgo is t with cgo switched on or off (CGO_ENABLED set in its
// environment, in place of any other value).
func (t Tree) withCgo(on bool) Tree {
	v := "0"
	if on {
		v = "1"
	}
	t.Env = setEnv(t.env(), cgoVar, v)
	return t
}

// explicitCgo is the CGO_ENABLED the environment sets: set false when it
// sets none (or an empty one, which the go command ignores too), an error
// for a value the go command does not take.
func explicitCgo(env []string) (on, set bool, err error) {
	v := lookupEnv(env, cgoVar)
	switch v {
	case "":
		return false, false, nil
	case "0":
		return false, true, nil
	case "1":
		return true, true, nil
	}
	return false, false, fmt.Errorf("%s=%q in the environment: the go command takes 0 or 1", cgoVar, v)
}

// depListed is what go list -deps -test says of a package in a test
// binary's dependencies.
type depListed struct {
	ImportPath                        string
	Standard                          bool
	CgoFiles, SwigFiles, SwigCXXFiles []string
	Deps                              []string
}

// cgoNeeds lists, with cgo on, the dependencies of the test binaries of
// the packages roots (import paths) and returns, for each root whose
// test binary links packages outside the standard library that use cgo,
// those packages, sorted (a test variant, "p [q.test]", named as p).
func cgoNeeds(ctx context.Context, t Tree, roots []string) (map[string][]string, error) {
	if len(roots) == 0 {
		return nil, nil
	}
	args := append([]string{"list", "-e", "-deps", "-test", "-json=ImportPath,Standard,CgoFiles,SwigFiles,SwigCXXFiles,Deps"}, t.BuildFlags...)
	out, err := goCommand(ctx, t.withCgo(true), append(args, roots...)...)
	if err != nil {
		return nil, fmt.Errorf("go list -deps -test (with cgo, to find the packages that need it) in %s: %w", t.Dir, err)
	}
	listed, err := decodeDeps(bytes.NewReader(out))
	if err != nil {
		return nil, err
	}
	return needsFrom(listed, roots), nil
}

// decodeDeps reads go list -json's stream of packages by import path.
func decodeDeps(r io.Reader) (map[string]depListed, error) {
	listed := map[string]depListed{}
	dec := json.NewDecoder(r)
	for {
		var l depListed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			return listed, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list -deps -test: %w", err)
		}
		listed[l.ImportPath] = l
	}
}

// needsFrom is cgoNeeds's answer from the listing: a root's test binary
// is the package "root.test", whose dependencies hold the root itself
// (or its test variant) and everything linked into the binary.
func needsFrom(listed map[string]depListed, roots []string) map[string][]string {
	needs := map[string][]string{}
	for _, root := range roots {
		main, ok := listed[root+".test"]
		if !ok {
			continue // no test files: no test binary
		}
		var need []string
		for _, dep := range main.Deps {
			if l, ok := listed[dep]; ok && !l.Standard && usesCgo(l.CgoFiles, l.SwigFiles, l.SwigCXXFiles) {
				path, _, _ := strings.Cut(dep, " [")
				need = append(need, path)
			}
		}
		if len(need) > 0 {
			slices.Sort(need)
			needs[root] = slices.Compact(need)
		}
	}
	return needs
}

// CompilerError is the failure to find the C compiler a package's build
// with cgo needs: where the go command would fail in the middle of the
// build with the compiler's name alone, it says which package needs cgo,
// why, and what to do.
type CompilerError struct {
	// Package is the first package to be built with cgo.
	Package Package
	// Explicit says the environment's CGO_ENABLED=1 asked for cgo.
	Explicit bool
	// CC is the compiler go env CC names; Err why it cannot be run.
	CC  string
	Err error
}

func (e *CompilerError) Error() string {
	var why, undo string
	switch p := e.Package; {
	case e.Explicit:
		why = fmt.Sprintf("%s=1 is set, so the test binary of %s is built with cgo", cgoVar, p.ImportPath)
		undo = "unset " + cgoVar
	case slices.Contains(p.NeedsCgo, p.ImportPath):
		why = fmt.Sprintf("%s uses cgo (import \"C\")", p.ImportPath)
	default:
		why = fmt.Sprintf("%s needs cgo: its test binary links %s, which uses it (import \"C\")", p.ImportPath, firstOf(p.NeedsCgo))
	}
	if undo == "" {
		undo = fmt.Sprintf("set %s=0 if the package builds without cgo", cgoVar)
	}
	return fmt.Sprintf("%s, but there is no C compiler to build it with: go env CC is %q, and %v. "+
		"Install one (Debian, Ubuntu: apt-get install gcc libc6-dev; the action's image has gcc), set CC to one, or %s",
		why, e.CC, e.Err, undo)
}

// firstOf names the first of names and how many more there are.
func firstOf(names []string) string {
	if len(names) == 0 {
		return "a package"
	}
	if n := len(names) - 1; n > 0 {
		return fmt.Sprintf("%s (and %d more)", names[0], n)
	}
	return names[0]
}

// CheckCompiler returns nil when no package of pkgs is built with cgo or
// the C compiler the go command would call (go env CC, looked up in the
// environment's PATH, as the go command looks it up) is there; otherwise
// a *CompilerError for the first package built with cgo, before any build
// has started.
func CheckCompiler(ctx context.Context, t Tree, pkgs []Package) error {
	i := slices.IndexFunc(pkgs, func(p Package) bool { return p.Cgo })
	if i < 0 {
		return nil
	}
	ct := t.withCgo(true)
	out, err := goCommand(ctx, ct, "env", "CC")
	if err != nil {
		return fmt.Errorf("go env CC: %w", err)
	}
	cc := strings.TrimSpace(string(out))
	if err := findProgram(cc, lookupEnv(ct.env(), "PATH")); err != nil {
		_, explicit, _ := explicitCgo(t.env())
		return &CompilerError{Package: pkgs[i], Explicit: explicit, CC: cc, Err: err}
	}
	return nil
}

// lookupEnv is the last value of name in env ("" if none).
func lookupEnv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if s, ok := strings.CutPrefix(kv, name+"="); ok {
			v = s
		}
	}
	return v
}

// findProgram reports why the program of the command line cmd (its first
// word: CC may carry flags) cannot be run: a name with a slash is the
// file it names, any other is looked up in the directories of path.
func findProgram(cmd, path string) error {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return errors.New("it is empty")
	}
	name := f[0]
	if strings.Contains(name, "/") {
		if err := executable(name); err != nil {
			return fmt.Errorf("%s %w", name, err)
		}
		return nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if executable(filepath.Join(dir, name)) == nil {
			return nil
		}
	}
	return fmt.Errorf("%s is not in PATH (%s)", name, path)
}

// executable reports why the file at path cannot be run: missing, a
// directory, or without execute permission.
func executable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("does not exist")
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("is a directory")
	case fi.Mode().Perm()&0o111 == 0:
		return errors.New("is not executable")
	}
	return nil
}
