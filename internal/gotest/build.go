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
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// The worker's source: a package of its own that serves the package's
// benchmarks over the worker protocol through testing.RunBenchmarks, a
// test function of the package, run inside its own TestMain, that calls
// it, and the external test package's registration of its benchmarks.
// They are added to a package only in wirebench's build (go test -c
// -overlay): the user's tree is not touched.
var (
	//go:embed worker.go.tmpl
	workerSource string
	//go:embed cloexec.go.tmpl
	cloexecSource string
	//go:embed nocloexec.go.tmpl
	noCloexecSource string
	//go:embed test.go.tmpl
	testSource string
	//go:embed register.go.tmpl
	registerSource string
	//go:embed request.go.tmpl
	requestSource string
	//go:embed testingrequest.go.tmpl
	testingRequestSource string
	//go:embed testingcpuid.go.tmpl
	testingCPUIDSource string

	workerTmpl    = template.Must(template.New("worker").Parse(workerSource))
	cloexecTmpl   = template.Must(template.New("cloexec").Parse(cloexecSource))
	noCloexecTmpl = template.Must(template.New("nocloexec").Parse(noCloexecSource))
	testTmpl      = template.Must(template.New("test").Parse(testSource))
	registerTmpl  = template.Must(template.New("register").Parse(registerSource))
	requestTmpl   = template.Must(template.New("request").Parse(requestSource))

	testingRequestTmpl = template.Must(template.New("testingrequest").Parse(testingRequestSource))
	testingCPUIDTmpl   = template.Must(template.New("testingcpuid").Parse(testingCPUIDSource))
)

// helperFiles are the files of the worker's own package, by name in its
// directory (workerNames.HelperDir).
var helperFiles = []struct {
	name string
	tmpl *template.Template
}{
	{"worker.go", workerTmpl},
	{"cloexec.go", cloexecTmpl},
	{"nocloexec.go", noCloexecTmpl},
}

// requestArchs are the architectures wirebench has the client request's
// assembly for (callgrind.RequestAssembly).
var requestArchs = []string{"amd64", "arm64"}

// testingRequest is the client request's name in the testing package of
// the build of a package that uses cgo (Package.UsesCgo), whose own .s
// files the go command gives to the C compiler: there the worker's
// request file registers it (testingRequestFiles).
const testingRequest = "WirebenchClientRequest"

// Binary is one package's test binary with the worker in it.
type Binary struct {
	Package Package
	Path    string
	// Test is the worker's test function: its name is the package's
	// own (workerNames), so the binary is started with it (WorkerArgs).
	Test string
	// Built is how long the build took.
	Built time.Duration
	// Hash is the identity of what the binary runs (see Hash).
	Hash string
	// Go is the toolchain that built it, and Patches, in a counted build
	// (Tree.TimerHooks), what was patched in it; nil otherwise.
	Go      Toolchain
	Patches *Patches
}

// BuiltWith says which Go built b and what wirebench patched in it:
// "go1.27.3 (fetched by the go command; patches for go1.27: testing,
// runtime seed, sched, code)".
func (b Binary) BuiltWith() string {
	s := b.Go.String()
	if b.Patches != nil {
		s = strings.TrimSuffix(s, ")") + "; " + b.Patches.String() + ")"
	}
	return s
}

// NoHandshake is the likely cause of b's worker ending or staying
// silent before its handshake, "" when there is none to name: the worker
// is one of the package's tests, which only m.Run runs, so a TestMain
// that returns without calling it, or exits (or waits) before, never
// starts it.
func (b Binary) NoHandshake() string {
	if b.Package.TestMain == "" {
		return ""
	}
	return fmt.Sprintf("its TestMain (%s) ended the test binary, or waited, before m.Run ran its tests: wirebench's worker is one of them, so TestMain must call m.Run, before any os.Exit",
		b.Package.TestMain)
}

// WorkerArgs are the arguments that start b as a worker: its worker's
// test alone, no benchmark run by the testing package itself, no time
// limit (the worker's requests have their own).
func (b Binary) WorkerArgs() []string {
	return []string{"-test.run=^" + b.Test + "$", "-test.bench=^$", "-test.timeout=0"}
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
// -benchmem), with cgo or without as Discover decided (Package.Cgo). A
// package that does not build (Package.Broken, or the compiler's errors)
// is a trouble of its own (results.TroubleNotBuilt, with the compiler's
// last lines), and the others are built; when none builds, the error is
// the first one's *BrokenError, naming the package. A package to be built
// with cgo on a machine without a C compiler fails the whole build before
// it starts, with CheckCompiler's error: the machine's, not the code's.
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
	if err := CheckCompiler(ctx, t, buildable); err != nil {
		return nil, nil, err
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
	if err := os.MkdirAll(filepath.Join(dir, "overlay"), 0o755); err != nil {
		return nil, nil, err
	}
	if t.Toolchain == nil {
		var err error
		if t, _, err = UseToolchain(ctx, t); err != nil {
			return nil, nil, err
		}
	}
	pkgs = withPeer(t, pkgs)
	extra := map[string]string{}
	var patches *Patches
	if t.TimerHooks {
		// The testing package's timer hooks, and the runtime seeded per
		// process (SeedVar), so that two builds' processes of one seed
		// pair, with the monitor holding off its clock-driven preemption
		// and retaking (QuietSchedNS), and type assertions' caches
		// drawing from a state of their own (PatchRuntimeCode): the
		// patch set of the toolchain's release, each patch where its
		// file has the release's text. A toolchain of a release without
		// a set is counted unseeded, and says so.
		p, entries, err := applyPatches(t.Toolchain.Root(), t.Toolchain.Version, filepath.Join(dir, "overlay"))
		if err != nil {
			return nil, nil, err
		}
		patches, extra = &p, entries
	}
	overlays, names, err := writeOverlays(pkgs, t.Toolchain.Root(), filepath.Join(dir, "overlay"), extra, patches)
	if err != nil {
		return nil, nil, err
	}
	// The go command may run as the sandbox's user: the binaries are its
	// to write.
	if err := t.Sandbox.Own(dir); err != nil {
		return nil, nil, err
	}
	toolchains := map[bool]string{}
	var out []Binary
	var broken []unbuilt
	for i, p := range pkgs {
		start := time.Now()
		pt := t.withCgo(p.Cgo)
		toolchain, ok := toolchains[p.Cgo]
		if !ok {
			if toolchain, err = toolchainOf(ctx, pt); err != nil {
				return nil, nil, err
			}
			toolchains[p.Cgo] = toolchain
		}
		bin, err := filepath.Abs(filepath.Join(dir, fmt.Sprintf("%d-%s.test", i, p.Name)))
		if err != nil {
			return nil, nil, err
		}
		// -trimpath first, so that the flags given may turn it off:
		// with it, two checkouts of one package build one binary (Hash),
		// and the go command's cache serves the second. -vet=off: go
		// test -c vets the package, and its dependencies for their facts,
		// the worker's package among them, whose directory exists only
		// in the overlay, where the go command cannot start vet; a
		// measurement has no use for vet's findings (the build flags
		// cannot turn it back on: go list takes them too).
		args := append([]string{"test", "-c", "-trimpath", "-vet=off", "-o", bin, "-overlay", overlays.of(p)}, t.BuildFlags...)
		args = append(args, p.ImportPath)
		if _, err := goCommand(ctx, pt, args...); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			broken = append(broken, unbuilt{p.ImportPath, fmt.Errorf("build the tests of %s: %w", p.ImportPath, err)})
			continue
		}
		hash, err := Hash(bin, p.Dir, toolchain, t.BuildFlags)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, Binary{Package: p, Path: bin, Test: names[i].Test, Built: time.Since(start), Hash: hash, Go: *t.Toolchain, Patches: patches})
	}
	return out, broken, nil
}

// toolchainOf is what decides a binary of t's go command but might not
// show in it, for Hash: go env's version, GOOS, GOARCH, GOAMD64, GOARM64
// and CGO_ENABLED, the empty ones left out.
func toolchainOf(ctx context.Context, t Tree) (string, error) {
	out, err := goCommand(ctx, t, "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM64", cgoVar)
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	return strings.Join(strings.Fields(string(out)), " "), nil
}

// overlayData is what the worker's templates are rendered with for one
// package: Arch is the architecture of a request file.
type overlayData struct {
	Package, ImportPath               string
	Internal, External                []string
	Tag, Test, HelperPath, Arch       string
	Version                           int
	TimerHooks                        bool
	TimerHook, NetBytes, NoRunGC      string
	TimerStop, TimerStart, TimerReset int
	TimerEnd                          int
	DirtyHeap                         string
	DirtyHeapBytes                    int
	AllThreads                        string
	MonitorZero, MonitorDump          string
	RuntimeSeed                       bool
	RuntimeSeedVar, SeededRandom      string
	// CgoRequest: the package uses cgo, so its request file registers
	// the testing package's client request, TestingRequest.
	CgoRequest     bool
	TestingRequest string
}

// overlayFiles are the go command's overlay files of a build: plain for
// every package, cgo (plain and the client request in the testing
// package, testingRequestFiles) for those that use cgo.
type overlayFiles struct{ plain, cgo string }

// of is the overlay file p is built with.
func (o overlayFiles) of(p Package) string {
	if p.UsesCgo {
		return o.cgo
	}
	return o.plain
}

// writeOverlays writes the overlay files of a build into dir: the
// worker's files for every package (writeOverlay) and, when a package
// uses cgo, a second file that also adds the client request to the
// testing package of the toolchain at root. It returns them and the
// worker's names in each package.
func writeOverlays(pkgs []Package, root, dir string, extra map[string]string, patches *Patches) (overlayFiles, []workerNames, error) {
	replace, names, err := writeOverlay(pkgs, dir, extra, patches)
	if err != nil {
		return overlayFiles{}, nil, err
	}
	var o overlayFiles
	if o.plain, err = writeReplace(filepath.Join(dir, "overlay.json"), replace); err != nil {
		return overlayFiles{}, nil, err
	}
	if !slices.ContainsFunc(pkgs, func(p Package) bool { return p.UsesCgo }) {
		return o, names, nil
	}
	testing, err := testingRequestFiles(root, dir)
	if err != nil {
		return overlayFiles{}, nil, err
	}
	maps.Copy(replace, testing)
	o.cgo, err = writeReplace(filepath.Join(dir, "overlay-cgo.json"), replace)
	return o, names, err
}

// writeReplace writes the go command's overlay file at path, replacing
// the files of replace's keys with those of its values.
func writeReplace(path string, replace map[string]string) (string, error) {
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, data, 0o644)
}

// testingRequestFiles renders into dir the client request
// (testingRequest and, on amd64, its CPUID reads) as files of the testing
// package of the toolchain at root, and returns the overlay entries that
// add them: the requests of a worker in a package that uses cgo, whose
// own .s files the go command gives to the C compiler. The testing
// package is in every test binary, and its directory is on disk, where
// the assembler runs.
func testingRequestFiles(root, dir string) (map[string]string, error) {
	pkg := filepath.Join(root, "src", "testing")
	data := struct{ TestingRequest string }{testingRequest}
	replace := map[string]string{}
	for _, f := range []struct {
		name string
		tmpl *template.Template
	}{{"zz_wirebench_request.go", testingRequestTmpl}, {"zz_wirebench_cpuid_amd64.go", testingCPUIDTmpl}} {
		var b bytes.Buffer
		if err := f.tmpl.Execute(&b, data); err != nil {
			return nil, fmt.Errorf("render %s for the testing package: %w", f.name, err)
		}
		src := filepath.Join(dir, "testing-"+f.name)
		if err := os.WriteFile(src, b.Bytes(), 0o644); err != nil {
			return nil, err
		}
		replace[filepath.Join(pkg, f.name)] = src
	}
	for _, arch := range requestArchs {
		name := "zz_wirebench_request_" + arch + ".s"
		src := filepath.Join(dir, "testing-"+name)
		if err := os.WriteFile(src, []byte(callgrind.RequestAssembly(arch, testingRequest)), 0o644); err != nil {
			return nil, err
		}
		replace[filepath.Join(pkg, name)] = src
	}
	return replace, nil
}

// writeOverlay renders the worker's files for every package into dir and
// returns the overlay's entries mapping them into the packages, with the
// extra entries (the patched testing package and runtime); patches says
// what was patched (nil: nothing, an uncounted build), and so what the
// worker's handshake says: whether the testing package calls TimerHook,
// whether the runtime takes its seed from SeedVar. It returns them and
// the worker's names in each package.
func writeOverlay(pkgs []Package, dir string, extra map[string]string, patches *Patches) (map[string]string, []workerNames, error) {
	hooks, seeded := false, false
	if patches != nil {
		hooks, seeded = patches.Hooks(), patches.Seeded()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	replace := maps.Clone(extra)
	var all []workerNames
	for i, p := range pkgs {
		if p.Name == "main" && len(p.External) > 0 {
			return nil, nil, fmt.Errorf("%s: %w: its benchmarks %s are in package main_test, which cannot import package main", p.ImportPath, ErrNoWorker, strings.Join(p.External, ", "))
		}
		names, err := chooseNames(p)
		if err != nil {
			return nil, nil, err
		}
		files, err := workerFiles(p, names, hooks, seeded)
		if err != nil {
			return nil, nil, err
		}
		for target, content := range files {
			src := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(target)))
			if err := os.WriteFile(src, content, 0o644); err != nil {
				return nil, nil, fmt.Errorf("write the worker's %s for %s: %w", filepath.Base(target), p.ImportPath, err)
			}
			replace[target] = src
		}
		all = append(all, names)
	}
	return replace, all, nil
}

// workerFiles renders the worker's files for p, by the path each takes:
// in p's directory, its test function, the external test package's
// registration (when it has benchmarks), and the client request's Go
// declarations and assembly for each of requestArchs (for a package that
// uses cgo, no assembly: its request files register the testing
// package's, testingRequestFiles); in the worker's package's directory
// beside them, the worker. No two have one name (writeOverlay names its
// copies by it).
func workerFiles(p Package, names workerNames, hooks, seeded bool) (map[string][]byte, error) {
	data := overlayData{p.Name, p.ImportPath, p.Internal, p.External, names.Tag, names.Test, names.HelperPath, "",
		worker.Version, hooks, TimerHook, NetBytes, NoRunGC, TimerStop, TimerStart, TimerReset, TimerEnd,
		worker.DirtyHeap, worker.DirtyHeapBytes, worker.AllThreads, callgrind.MonitorZero, callgrind.MonitorDump,
		seeded, worker.RuntimeSeedVar, worker.SeededRandom, p.UsesCgo, testingRequest}
	out := map[string][]byte{}
	render := func(target string, tmpl *template.Template, data overlayData) error {
		var b bytes.Buffer
		if err := tmpl.Execute(&b, data); err != nil {
			return fmt.Errorf("render %s for %s: %w", filepath.Base(target), p.ImportPath, err)
		}
		out[target] = b.Bytes()
		return nil
	}
	if err := render(filepath.Join(p.Dir, names.TestFile), testTmpl, data); err != nil {
		return nil, err
	}
	if len(p.External) > 0 {
		if err := render(filepath.Join(p.Dir, names.RegisterFile), registerTmpl, data); err != nil {
			return nil, err
		}
	}
	for _, arch := range requestArchs {
		archData := data
		archData.Arch = arch
		if err := render(filepath.Join(p.Dir, names.RequestFile(arch)), requestTmpl, archData); err != nil {
			return nil, err
		}
		if !p.UsesCgo {
			out[filepath.Join(p.Dir, names.AssemblyFile(arch))] = []byte(callgrind.RequestAssembly(arch, names.Tag+"ClientRequest"))
		}
	}
	for _, f := range helperFiles {
		if err := render(filepath.Join(names.HelperDir, f.name), f.tmpl, data); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// withPeer is pkgs with, for each, its directory in t.Peer's checkout
// among its Peers (the same path from the module's root): the worker's
// names avoid both sides' (Package.Peers). Without a peer, pkgs.
func withPeer(t Tree, pkgs []Package) []Package {
	if t.Peer == "" {
		return pkgs
	}
	root, err := ModuleRoot(t.Dir)
	if err != nil {
		return pkgs
	}
	peer, err := ModuleRoot(t.Peer)
	if err != nil {
		return pkgs
	}
	out := slices.Clone(pkgs)
	for i, p := range out {
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out[i].Peers = append(slices.Clone(p.Peers), filepath.Join(peer, rel))
	}
	return out
}
