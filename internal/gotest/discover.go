package gotest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wirebench/wirebench/internal/sandbox"
)

// Package is one package of the module with benchmark functions in its
// test files.
type Package struct {
	// ImportPath names the package; Dir is where its files are; Name is
	// its package clause's name.
	ImportPath, Dir, Name string
	// Internal are the benchmark functions of its own test files (package
	// Name), External those of its external test package (Name_test).
	Internal, External []string
	// Parallel are those of its benchmark functions that call RunParallel
	// (on any *testing.B, directly in their body): timed, they need the
	// machine's CPUs; counted, Valgrind runs their goroutines one at a
	// time.
	Parallel []string
	// Peers are other directories of this package (its directory in the
	// other side's checkout, Tree.Peer) whose names the worker's must
	// avoid as well: both builds then give their workers one tag, and
	// their processes of one seed draw alike. Measured on msgpack/v5's
	// StringSlice: a head whose test file declared wirebenchSpin took
	// the tag wirebench2 and the base wirebench, and their pairs of one
	// seed came out 1.1% apart (sync.Map's trie, HashTrieMap.Load), where
	// one tag keeps them 0.001% apart.
	Peers []string
	// Broken, when set, says why the package cannot be built: go list's
	// error, or a test file that does not parse (its benchmarks are then
	// unknown). Build does not build it; it is the package's row, not
	// the whole run's.
	Broken string
	// TestMain is the test file that declares the package's TestMain, ""
	// when none does: the worker, one of its tests, runs only if it calls
	// m.Run.
	TestMain string
	// Cgo says its test binary is built with cgo (CGO_ENABLED=1): the
	// environment's CGO_ENABLED=1, or, where the environment sets none,
	// NeedsCgo (cgo.go).
	Cgo bool
	// NeedsCgo are the packages outside the standard library that use
	// cgo and that its test binary links, the package itself among them
	// when it does: what makes it need cgo. Empty when the environment's
	// CGO_ENABLED decided.
	NeedsCgo []string
	// UsesCgo says the package's own files use cgo in its build: the go
	// command then gives its .s files to the C compiler, so the worker's
	// client request cannot be Go assembly in the package (Build puts it
	// in the testing package of its build).
	UsesCgo bool
}

// Benchmarks is every benchmark function of p, sorted.
func (p Package) Benchmarks() []string {
	all := append(append([]string(nil), p.Internal...), p.External...)
	sort.Strings(all)
	return all
}

// Tree is a module's source tree and how to build its tests.
type Tree struct {
	// Dir is the module's directory (or a directory within it).
	Dir string
	// BuildFlags are passed to go list and go test -c, e.g.
	// -tags=integration.
	BuildFlags []string
	// Env is the environment of the go command; nil means the process's.
	Env []string
	// Sandbox runs the go command (it builds code from a pull request) as
	// its unprivileged user; nil runs it as is.
	Sandbox *sandbox.Sandbox
	// TimerHooks builds the test binaries with the toolchain's testing
	// package patched to call the worker on its benchmark timer's events
	// (PatchTesting), so a counted block counts what testing times, the
	// benchmark's setup left out, and its runtime seeded (the patch set
	// of its release: Patches). Where a patch does not apply, the
	// binaries are built without it and say so in their handshake.
	TimerHooks bool
	// Toolchain is the toolchain the go command builds with, as
	// UseToolchain found it; nil until then (Build finds it).
	Toolchain *Toolchain
	// ToolchainCache is where copies of toolchains the go command
	// fetched are kept (UseToolchain); "" is the sandbox's cache, or the
	// default sandbox's.
	ToolchainCache string
	// Peer, when set, is another checkout of the module (the other side
	// of a same-runner A/B): the worker's names in a package avoid the
	// names of the peer's package of the same path too, so that both
	// builds' workers are named alike (Package.Peers).
	Peer string
}

// goEnv is the go command's environment for t: t.Env, with GOWORK set to
// the tree's own go.work when it has one and off otherwise, so that a
// checkout of the base inside the head's workspace never builds with the
// head's workspace.
func (t Tree) goEnv() []string {
	env := t.env()
	work := "off"
	if root, err := ModuleRoot(t.Dir); err == nil {
		if _, err := os.Stat(filepath.Join(root, "go.work")); err == nil {
			work = filepath.Join(root, "go.work")
		}
	}
	return append(append([]string(nil), env...), "GOWORK="+work, "GOFLAGS="+goflags(env))
}

// goflags keeps GOFLAGS from env, adding -buildvcs=false: a checkout of
// another user (the container's workspace) cannot be stamped.
func goflags(env []string) string {
	flags := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			flags = v
		}
	}
	if !strings.Contains(flags, "-buildvcs") {
		flags = strings.TrimSpace(flags + " -buildvcs=false")
	}
	return flags
}

// ModuleRoot is the directory of the go.mod governing dir.
func ModuleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%s is not in a Go module (no go.mod in it or above it)", dir)
		}
		d = parent
	}
}

// listed is what go list says of a package.
type listed struct {
	ImportPath, Dir, Name             string
	TestGoFiles, XTestGoFiles         []string
	CgoFiles, SwigFiles, SwigCXXFiles []string
	Error                             *struct{ Err string }
}

// listFields are the fields of listed, for go list -json.
const listFields = "ImportPath,Dir,Name,TestGoFiles,XTestGoFiles,CgoFiles,SwigFiles,SwigCXXFiles,Error"

// usesCgo reports whether a package with these files is built by cgo:
// Go files that import "C", or SWIG interface files.
func usesCgo(cgoFiles, swigFiles, swigCXXFiles []string) bool {
	return len(cgoFiles)+len(swigFiles)+len(swigCXXFiles) > 0
}

// ErrNoBenchmarks is wrapped when the packages selected have no benchmark
// function.
var ErrNoBenchmarks = errors.New("no benchmark functions")

// Discover lists the packages patterns select in t (go list) and finds
// the benchmark functions in their test files: the functions
// BenchmarkXxx(b *testing.B) the go command would run. It also decides
// which packages' test binaries are built with cgo (cgo.go): a package is
// listed as it is built, with cgo or without.
func Discover(ctx context.Context, t Tree, patterns []string) ([]Package, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	on, explicit, err := explicitCgo(t.env())
	if err != nil {
		return nil, err
	}
	var chosen []listed
	var needs map[string][]string
	if explicit {
		chosen, err = list(ctx, t, patterns)
	} else {
		chosen, needs, err = listByCgo(ctx, t, patterns)
	}
	if err != nil {
		return nil, err
	}
	var pkgs []Package
	for _, l := range chosen {
		p := Package{ImportPath: l.ImportPath, Dir: l.Dir, Name: l.Name, NeedsCgo: needs[l.ImportPath]}
		p.Cgo = on || len(p.NeedsCgo) > 0
		p.UsesCgo = p.Cgo && usesCgo(l.CgoFiles, l.SwigFiles, l.SwigCXXFiles)
		if l.Error != nil {
			if len(l.TestGoFiles)+len(l.XTestGoFiles) == 0 {
				// No test file: no benchmark to lose. go test -bench
				// would fail on it, but that is not a benchmark's row.
				continue
			}
			p.Broken = "go list: " + l.Error.Err
		}
		if err := p.findBenchmarks(l); err != nil {
			var broken *BrokenError
			if !errors.As(err, &broken) {
				return nil, err
			}
			p.Broken, p.Internal, p.External, p.Parallel = err.Error(), nil, nil, nil
		}
		if len(p.Internal)+len(p.External) > 0 || p.Broken != "" {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%w in the test files of %s in %s", ErrNoBenchmarks, strings.Join(patterns, " "), t.Dir)
	}
	if broken := brokenOnly(pkgs); broken != nil {
		return nil, broken // nothing to measure but what does not build
	}
	return pkgs, nil
}

// listByCgo lists the packages of patterns as they are built when the
// environment leaves cgo to wirebench: those whose test binaries need
// cgo (cgoNeeds, asked of the packages with benchmark functions as go
// list sees them with cgo on) as listed with cgo, every other as listed
// without. It returns the listing, in go list's order, and the packages
// that need cgo with what they need.
func listByCgo(ctx context.Context, t Tree, patterns []string) ([]listed, map[string][]string, error) {
	withCgo, err := list(ctx, t.withCgo(true), patterns)
	if err != nil {
		return nil, nil, err
	}
	var benched []string
	byPath := map[string]listed{}
	for _, l := range withCgo {
		if l.Error == nil && hasBenchmarks(l) {
			benched = append(benched, l.ImportPath)
			byPath[l.ImportPath] = l
		}
	}
	needs, err := cgoNeeds(ctx, t, benched)
	if err != nil {
		return nil, nil, err
	}
	chosen, err := list(ctx, t.withCgo(false), patterns)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for i, l := range chosen {
		if _, ok := needs[l.ImportPath]; ok {
			chosen[i], seen[l.ImportPath] = byPath[l.ImportPath], true
		}
	}
	// A package whose files all need cgo may be no package at all
	// without it (./... leaves it out).
	for _, path := range benched {
		if _, ok := needs[path]; ok && !seen[path] {
			chosen = append(chosen, byPath[path])
		}
	}
	return chosen, needs, nil
}

// hasBenchmarks reports whether the test files of l declare a benchmark
// function (a file that does not parse: no, here; Discover says why).
func hasBenchmarks(l listed) bool {
	var p Package
	return p.findBenchmarks(l) == nil && len(p.Internal)+len(p.External) > 0
}

// list is go list -e of patterns in t: every package they select, each
// with its error, if any.
func list(ctx context.Context, t Tree, patterns []string) ([]listed, error) {
	args := append([]string{"list", "-e", "-json=" + listFields}, t.BuildFlags...)
	args = append(args, patterns...)
	out, err := goCommand(ctx, t, args...)
	if err != nil {
		return nil, fmt.Errorf("go list %s in %s: %w", strings.Join(patterns, " "), t.Dir, err)
	}
	var all []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			return all, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		all = append(all, l)
	}
}

// findBenchmarks fills p's benchmark functions, and the file of its
// TestMain, from the test files go list named; a file that does not
// parse is a *BrokenError.
func (p *Package) findBenchmarks(l listed) error {
	for _, files := range []struct {
		names []string
		into  *[]string
	}{{l.TestGoFiles, &p.Internal}, {l.XTestGoFiles, &p.External}} {
		found, err := testFuncs(l.Dir, files.names)
		if err != nil {
			return err
		}
		*files.into = found.benchmarks
		p.Parallel = append(p.Parallel, found.parallel...)
		p.TestMain = cmp.Or(p.TestMain, found.testMain)
	}
	sort.Strings(p.Parallel)
	return nil
}

// brokenOnly is the error of packages none of which can be built: the
// first one's, as a *BrokenError; nil when one can.
func brokenOnly(pkgs []Package) error {
	for _, p := range pkgs {
		if p.Broken == "" {
			return nil
		}
	}
	return &BrokenError{fmt.Errorf("package %s: %s", pkgs[0].ImportPath, pkgs[0].Broken)}
}

// errNoGo is goCommand's error when there is no go command to run.
var errNoGo = errors.New("the go command is not in PATH: it builds the benchmarks")

// goCommand runs the go command in t.Dir and returns its standard output;
// an error carries the last lines of its standard error.
func goCommand(ctx context.Context, t Tree, args ...string) ([]byte, error) {
	return goCommandEnv(ctx, t, nil, args...)
}

// goCommandEnv is goCommand with the variables of set ("NAME=value")
// set in its environment, or removed where the value is empty. The go
// command is the one in PATH, which picks the toolchain as GOTOOLCHAIN
// says, or the copy of a fetched toolchain (t.Toolchain.Copy: see
// UseToolchain), run with GOROOT set to it and GOTOOLCHAIN=local.
func goCommandEnv(ctx context.Context, t Tree, set []string, args ...string) ([]byte, error) {
	env := t.goEnv()
	gobin := ""
	if tc := t.Toolchain; tc != nil && tc.Copy != "" {
		gobin = filepath.Join(tc.Copy, "bin", "go")
		set = append([]string{"GOROOT=" + tc.Copy, "GOTOOLCHAIN=local"}, set...)
	} else {
		var err error
		if gobin, err = exec.LookPath("go"); err != nil {
			return nil, errNoGo
		}
	}
	for _, kv := range set {
		name, value, _ := strings.Cut(kv, "=")
		env = setEnv(env, name, value)
	}
	path, args, env := t.Sandbox.Wrap(gobin, args, t.Sandbox.GoEnv(env))
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = t.Dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%v\n%s", err, lastLines(stderr.String(), 20))
	}
	return out, nil
}

// setEnv is env with name set to value, or removed when value is "".
func setEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	if value != "" {
		out = append(out, name+"="+value)
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// testFiles is what testFuncs finds in test files: the benchmark
// functions, those of them that call RunParallel, and the file that
// declares TestMain ("" none).
type testFiles struct {
	benchmarks, parallel []string
	testMain             string
}

// testFuncs finds the benchmark functions and TestMain declared in files
// of dir.
func testFuncs(dir string, files []string) (testFiles, error) {
	var found testFiles
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			return testFiles{}, &BrokenError{fmt.Errorf("parse %s: %w", filepath.Join(dir, f), err)}
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			switch {
			case !ok:
			case isBenchmark(fd):
				found.benchmarks = append(found.benchmarks, fd.Name.Name)
				if callsRunParallel(fd) {
					found.parallel = append(found.parallel, fd.Name.Name)
				}
			case fd.Recv == nil && fd.Name.Name == "TestMain":
				found.testMain = f
			}
		}
	}
	sort.Strings(found.benchmarks)
	sort.Strings(found.parallel)
	return found, nil
}

// callsRunParallel reports whether fd's body calls a method named
// RunParallel (b.RunParallel, or a sub-benchmark's in a closure of it).
func callsRunParallel(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "RunParallel" {
				found = true
			}
		}
		return !found
	})
	return found
}

// isBenchmark reports whether fd is a benchmark the go command runs:
// named Benchmark followed by nothing or by a non-lower-case letter, no
// receiver, and one parameter of type *testing.B.
func isBenchmark(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if fd.Recv != nil || !strings.HasPrefix(name, "Benchmark") {
		return false
	}
	if rest := name[len("Benchmark"):]; rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(r) {
			return false
		}
	}
	params := fd.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 || fd.Type.Results != nil {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "B"
}
