package gotest

import (
	"bytes"
	"context"
	_ "embed" // the worker's source, added to each package at build time
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"text/template"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// The worker's source: a test function that serves the package's
// benchmarks over the worker protocol through testing.RunBenchmarks,
// inside the package's own TestMain, and the external test package's
// registration of its benchmarks. They are added to a package only in
// wirebench's build (go test -c -overlay): the user's tree is not touched.
var (
	//go:embed worker.go.tmpl
	workerSource string
	//go:embed register.go.tmpl
	registerSource string
	//go:embed request.go.tmpl
	requestSource string
	//go:embed norequest.go.tmpl
	noRequestSource string
	//go:embed cpuid.go.tmpl
	cpuidSource string
	//go:embed nocpuid.go.tmpl
	noCPUIDSource string

	workerTmpl    = template.Must(template.New("worker").Parse(workerSource))
	registerTmpl  = template.Must(template.New("register").Parse(registerSource))
	requestTmpl   = template.Must(template.New("request").Parse(requestSource))
	noRequestTmpl = template.Must(template.New("norequest").Parse(noRequestSource))
	cpuidTmpl     = template.Must(template.New("cpuid").Parse(cpuidSource))
	noCPUIDTmpl   = template.Must(template.New("nocpuid").Parse(noCPUIDSource))
)

// requestFunc is the worker's Valgrind client request, whose assembly is
// internal/callgrind's (callgrind.RequestAssembly).
const requestFunc = "wirebenchClientRequest"

// File names the worker's files get in a package's directory.
const (
	workerFile    = "zz_wirebench_worker_test.go"
	registerFile  = "zz_wirebench_register_test.go"
	requestFile   = "zz_wirebench_request_test.go"
	noRequestFile = "zz_wirebench_norequest_test.go"
	cpuidFile     = "zz_wirebench_cpuid_amd64_test.go"
	noCPUIDFile   = "zz_wirebench_nocpuid_test.go"
)

// requestAssembly names the assembly file of the worker's client request
// on each architecture that has one: a file of the package itself (a
// test file cannot hold assembly), built only into wirebench's test
// binary.
var requestAssembly = map[string]string{
	"amd64": "zz_wirebench_request_amd64.s",
	"arm64": "zz_wirebench_request_arm64.s",
}

// WorkerTest is the test function that is the worker.
const WorkerTest = "TestWirebenchWorker"

// Binary is one package's test binary with the worker in it.
type Binary struct {
	Package Package
	Path    string
	// Built is how long the build took.
	Built time.Duration
	// Hash is the identity of what the binary runs (see Hash).
	Hash string
}

// BrokenError is the failure of a package's code to build: a test file
// that does not parse, or the compiler's errors. It is the code's doing
// (a pull request's, say), not the tree's layout nor wirebench's.
type BrokenError struct{ Err error }

func (e *BrokenError) Error() string { return e.Err.Error() }
func (e *BrokenError) Unwrap() error { return e.Err }

// ErrNoWorker is wrapped when a package's benchmarks cannot be served by
// a worker built into its test binary (the external test package of a
// main package cannot import it).
var ErrNoWorker = errors.New("the worker cannot be built into this package's test binary")

// Build compiles every package's test binary into dir, with the worker
// added by an overlay and the benchmarks' memory statistics on (as
// -benchmem). A package that does not build (Package.Broken, or the
// compiler's errors) is a trouble of its own (results.TroubleNotBuilt,
// with the compiler's last lines), and the others are built; when none
// builds, the error is the first one's *BrokenError, naming the package.
func Build(ctx context.Context, t Tree, pkgs []Package, dir string) ([]Binary, []results.Trouble, error) {
	var buildable []Package
	var troubles []results.Trouble
	for _, p := range pkgs {
		if p.Broken != "" {
			troubles = append(troubles, results.NewTrouble(p.ImportPath, results.TroubleNotBuilt, p.Broken))
			continue
		}
		buildable = append(buildable, p)
	}
	if len(buildable) == 0 {
		return nil, nil, brokenOnly(pkgs)
	}
	bins, broken, err := build(ctx, t, buildable, dir)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range broken {
		troubles = append(troubles, results.NewTrouble(b.pkg, results.TroubleNotBuilt, lastLines(b.err.Error(), 12)))
	}
	if len(bins) == 0 {
		return nil, nil, &BrokenError{broken[0].err}
	}
	return bins, troubles, nil
}

// unbuilt is a package whose test binary did not build, and the go
// command's error.
type unbuilt struct {
	pkg string
	err error
}

// build is Build of packages that can be tried: the binaries that built,
// and the packages whose build failed; the error is not one package's
// (the toolchain, the overlay, the file system).
func build(ctx context.Context, t Tree, pkgs []Package, dir string) ([]Binary, []unbuilt, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	extra := map[string]string{}
	hooks, seeded := false, false
	if t.TimerHooks {
		if err := os.MkdirAll(filepath.Join(dir, "overlay"), 0o755); err != nil {
			return nil, nil, err
		}
		root, err := goroot(ctx, t)
		if err != nil {
			return nil, nil, err
		}
		target, src, ok, err := patchOverlay(root, "testing/benchmark.go", filepath.Join(dir, "overlay"), "testing-benchmark.go", PatchTesting)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			extra[target], hooks = src, true
		}
		// The runtime seeded per process (SeedVar), so that two builds'
		// processes of one seed pair; a toolchain whose runtime does
		// not take the patch is counted unseeded.
		target, src, ok, err = runtimeOverlay(root, filepath.Join(dir, "overlay"))
		if err != nil {
			return nil, nil, err
		}
		if ok {
			extra[target], seeded = src, true
			// And, in a seeded process, the monitor holds off its
			// clock-driven preemption and retaking (QuietSchedNS),
			// and its type assertions' caches draw from a state of their
			// own (PatchRuntimeCode): seededPatches.
			for _, sp := range seededPatches {
				target, src, ok, err = patchOverlay(root, sp.rel, filepath.Join(dir, "overlay"), sp.name, sp.patch)
				if err != nil {
					return nil, nil, err
				}
				if ok {
					extra[target] = src
				}
			}
		}
	}
	overlay, err := writeOverlay(pkgs, filepath.Join(dir, "overlay"), extra, hooks, seeded)
	if err != nil {
		return nil, nil, err
	}
	// The go command may run as the sandbox's user: the binaries are its
	// to write.
	if err := t.Sandbox.Own(dir); err != nil {
		return nil, nil, err
	}
	toolchain, err := goCommand(ctx, t, "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "CGO_ENABLED")
	if err != nil {
		return nil, nil, fmt.Errorf("go env: %w", err)
	}
	var out []Binary
	var broken []unbuilt
	for i, p := range pkgs {
		start := time.Now()
		bin, err := filepath.Abs(filepath.Join(dir, fmt.Sprintf("%d-%s.test", i, p.Name)))
		if err != nil {
			return nil, nil, err
		}
		// -trimpath first, so that the flags given may turn it off:
		// with it, two checkouts of one package build one binary (Hash),
		// and the go command's cache serves the second.
		args := append([]string{"test", "-c", "-trimpath", "-o", bin, "-overlay", overlay}, t.BuildFlags...)
		args = append(args, p.ImportPath)
		if _, err := goCommand(ctx, t, args...); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			broken = append(broken, unbuilt{p.ImportPath, fmt.Errorf("build the tests of %s: %w", p.ImportPath, err)})
			continue
		}
		hash, err := Hash(bin, p.Dir, strings.Join(strings.Fields(string(toolchain)), " "), t.BuildFlags)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, Binary{Package: p, Path: bin, Built: time.Since(start), Hash: hash})
	}
	return out, broken, nil
}

// writeOverlay renders the worker's files for every package into dir and
// writes the go command's overlay file mapping them into the packages,
// with the extra entries (the patched testing package and runtime); hooks
// says whether the testing package calls TimerHook, seeded whether the
// runtime takes its seed from SeedVar.
func writeOverlay(pkgs []Package, dir string, extra map[string]string, hooks, seeded bool) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	replace := maps.Clone(extra)
	for i, p := range pkgs {
		if p.Name == "main" && len(p.External) > 0 {
			return "", fmt.Errorf("%s: %w: its benchmarks %s are in package main_test, which cannot import package main", p.ImportPath, ErrNoWorker, strings.Join(p.External, ", "))
		}
		data := struct {
			Package, ImportPath               string
			Internal, External                []string
			Version                           int
			TimerHooks                        bool
			TimerHook                         string
			TimerStop, TimerStart, TimerReset int
			TimerEnd                          int
			DirtyHeap                         string
			DirtyHeapBytes                    int
			AllThreads                        string
			MonitorZero, MonitorDump          string
			RuntimeSeed                       bool
			RuntimeSeedVar, SeededRandom      string
		}{p.Name, p.ImportPath, p.Internal, p.External, worker.Version, hooks, TimerHook, TimerStop, TimerStart, TimerReset, TimerEnd,
			worker.DirtyHeap, worker.DirtyHeapBytes, worker.AllThreads, callgrind.MonitorZero, callgrind.MonitorDump,
			seeded, worker.RuntimeSeedVar, worker.SeededRandom}
		files := []struct {
			name string
			tmpl *template.Template
		}{{workerFile, workerTmpl}, {requestFile, requestTmpl}, {noRequestFile, noRequestTmpl}, {cpuidFile, cpuidTmpl}, {noCPUIDFile, noCPUIDTmpl}}
		if len(p.External) > 0 {
			files = append(files, struct {
				name string
				tmpl *template.Template
			}{registerFile, registerTmpl})
		}
		for _, f := range files {
			var b bytes.Buffer
			if err := f.tmpl.Execute(&b, data); err != nil {
				return "", fmt.Errorf("render %s for %s: %w", f.name, p.ImportPath, err)
			}
			src := filepath.Join(dir, fmt.Sprintf("%d-%s", i, f.name))
			if err := os.WriteFile(src, b.Bytes(), 0o644); err != nil {
				return "", err
			}
			replace[filepath.Join(p.Dir, f.name)] = src
		}
		for goarch, name := range requestAssembly {
			src := filepath.Join(dir, fmt.Sprintf("%d-%s", i, name))
			if err := os.WriteFile(src, []byte(callgrind.RequestAssembly(goarch, requestFunc)), 0o644); err != nil {
				return "", err
			}
			replace[filepath.Join(p.Dir, name)] = src
		}
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, data, 0o644)
}
