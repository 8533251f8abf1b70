package program

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/worker"
)

// StartOptions say how to start a program's worker processes.
type StartOptions struct {
	// Stderr receives the workers' diagnostics, prefixed; nil discards
	// them (their last lines still go into errors).
	Stderr io.Writer
	// Sandbox runs the workers (code built from a pull request) as its
	// unprivileged user; nil runs them as is, the environment cleaned.
	Sandbox *sandbox.Sandbox
	// CPUs, when set, is where every worker runs (worker.OneCPU gives
	// one); nil leaves the workers to the scheduler.
	CPUs []int
	// EveryCPU runs every part timed as go test would, on every CPU this
	// process may use: not on CPUs, and without the GOMAXPROCS its
	// command sets (a test binary's worker runs with GOMAXPROCS=1). A
	// part with Parallel benchmarks always runs so, since a single CPU
	// would serialize them. Counting runs GOMAXPROCS=1 whatever it says.
	EveryCPU bool
	// Counter, when set, runs every worker process counted.
	Counter Counter
}

// Counter runs worker processes counted (internal/count: under
// callgrind).
type Counter interface {
	// Wrap returns the command that runs cmd counted, and the file its
	// callgrind dumps go to, in a directory the process can write. label
	// names the process. The error wraps ErrSetup.
	Wrap(cmd worker.Command, label string) (worker.Command, string, error)
}

// Start starts every part of p, the build side ("base", "head" or "" for
// no comparison), and joins them into one worker; its errors are the
// side's. lists keeps what test binaries listed, so that later starts of
// the same program need not list again.
func Start(ctx context.Context, side, label string, p Program, env []string, o StartOptions, lists *Lists) (*Worker, error) {
	if env == nil {
		env = os.Environ()
	}
	m := &Worker{side: side, byKey: map[string]int{}}
	for _, part := range p {
		cmd := part.Command
		everyCPU := o.Counter == nil && (o.EveryCPU || len(part.Parallel) > 0)
		if everyCPU { // the part's own GOMAXPROCS goes; the environment's stays
			cmd.Env = slices.DeleteFunc(slices.Clone(cmd.Env), func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") })
		}
		cmd.Env = append(slices.Clone(env), cmd.Env...)
		partLabel := strings.TrimSpace(label + " " + part.Package) // either may be ""
		var dumps *callgrind.Dumps
		if o.Counter != nil {
			var out string
			var err error
			if cmd, out, err = o.Counter.Wrap(cmd, partLabel); err != nil {
				m.Kill()
				return nil, err
			}
			dumps = &callgrind.Dumps{OutFile: out, Profile: true}
		}
		cmd.Path, cmd.Args, cmd.Env = o.Sandbox.Wrap(cmd.Path, cmd.Args, cmd.Env)
		if !everyCPU {
			cmd.CPUs = o.CPUs
		}
		c, err := worker.Start(ctx, partLabel, cmd, o.Stderr)
		if err != nil {
			m.Kill()
			return nil, m.Fail(notStarted(ctx, part, err))
		}
		names := c.Handshake().Benchmarks
		var troubles []results.Trouble
		if part.List != "" {
			if names, troubles, err = lists.list(ctx, c, side, part); err != nil {
				c.Kill()
				m.Kill()
				return nil, m.Fail(fmt.Errorf("list the benchmarks: %w", err))
			}
		}
		m.add(c, part, names, troubles)
		m.dumps = append(m.dumps, dumps)
	}
	return m, nil
}

// notStarted adds part.NoHandshake to err, the failure to start part's
// worker, when its process sent no handshake (worker.ErrNotStarted) and
// ctx was not cancelled meanwhile.
func notStarted(ctx context.Context, part Part, err error) error {
	if part.NoHandshake == "" || ctx.Err() != nil || !errors.Is(err, worker.ErrNotStarted) {
		return err
	}
	return fmt.Errorf("%w: %s", err, part.NoHandshake)
}

// Lists keeps what the first start of a program's workers listed, by
// build side, package and pattern: a test binary lists its benchmarks by
// running each once. The side is part of the key because the base's and
// the head's package of one import path are different code: a benchmark
// the pull request adds or removes is listed by one of them only.
type Lists struct {
	mu       sync.Mutex
	names    map[string][]string
	troubles map[string][]results.Trouble
}

// NewLists returns an empty Lists.
func NewLists() *Lists {
	return &Lists{names: map[string][]string{}, troubles: map[string][]results.Trouble{}}
}

// list is what part's worker c lists (worker.Client.List): the
// benchmarks that gave a result, and those that skipped or failed, by
// their names in the part.
func (l *Lists) list(ctx context.Context, c *worker.Client, side string, part Part) ([]string, []results.Trouble, error) {
	key := side + "\x00" + part.Package + "\x00" + part.List
	l.mu.Lock()
	names, ok := l.names[key]
	troubles := l.troubles[key]
	l.mu.Unlock()
	if ok {
		return names, troubles, nil
	}
	names, troubles, err := c.List(ctx, part.List)
	if err != nil {
		return nil, nil, err
	}
	l.mu.Lock()
	l.names[key], l.troubles[key] = names, troubles
	l.mu.Unlock()
	return names, troubles, nil
}

// Worker is one build's program running: several worker processes (a
// test binary per package) that it names every benchmark of by its Key,
// sending each request to the process that has it. With one part without
// a package it is that process, names unchanged.
type Worker struct {
	// side is the build, "base" or "head": every error says so.
	side  string
	parts []*worker.Client
	pkgs  []string
	hello worker.Hello
	// byKey is the part of every benchmark; names its name in that part.
	byKey map[string]int
	names map[string]string
	// dumps are the parts' callgrind dumps when they run counted (nil
	// entries otherwise).
	dumps []*callgrind.Dumps
	// parallel is every part's Part.Parallel.
	parallel [][]string
	// troubles are the benchmarks the parts listed that skipped or
	// failed natively, by key.
	troubles []results.Trouble
}

// Troubles are the benchmarks the workers' lists selected that gave no
// result natively (skipped or failed), named by key: not served, each
// its own row.
func (m *Worker) Troubles() []results.Trouble { return m.troubles }

// Parallel reports whether the benchmark key is of a function that calls
// RunParallel (its part's Part.Parallel names it).
func (m *Worker) Parallel(key string) bool {
	i, ok := m.byKey[key]
	if !ok || i >= len(m.parallel) {
		return false
	}
	fn, _, _ := strings.Cut(m.names[key], "/")
	return slices.Contains(m.parallel[i], fn)
}

// add joins part c, whose benchmarks names belong to package pkg, and
// the troubles its list met.
func (m *Worker) add(c *worker.Client, part Part, names []string, troubles []results.Trouble) {
	pkg := part.Package
	if m.names == nil {
		m.names = map[string]string{}
	}
	if len(m.parts) == 0 {
		m.hello = c.Handshake()
		m.hello.Benchmarks = nil
	}
	i := len(m.parts)
	m.parts = append(m.parts, c)
	m.pkgs = append(m.pkgs, pkg)
	m.parallel = append(m.parallel, part.Parallel)
	for _, n := range names {
		k := results.Key(pkg, n)
		m.byKey[k], m.names[k] = i, n
		m.hello.Benchmarks = append(m.hello.Benchmarks, k)
	}
	for _, t := range troubles {
		t.Name = results.Key(pkg, t.Name)
		m.troubles = append(m.troubles, t)
	}
}

// Handshake is the first part's handshake, naming every part's
// benchmarks by key.
func (m *Worker) Handshake() worker.Hello { return m.hello }

func (m *Worker) route(key string) (*worker.Client, string, error) {
	i, ok := m.byKey[key]
	if !ok {
		return nil, "", m.Fail(fmt.Errorf("no worker serves %q", key))
	}
	return m.parts[i], m.names[key], nil
}

// Fail marks err as the build's (see Side).
func (m *Worker) Fail(err error) error {
	if err == nil || m.side == "" {
		return err
	}
	return &SideError{Side: m.side, Err: err}
}

// Warmup runs the benchmark key for about d (worker.Client.Warmup).
func (m *Worker) Warmup(ctx context.Context, key string, d time.Duration) (bench.Sample, error) {
	c, name, err := m.route(key)
	if err != nil {
		return bench.Sample{}, err
	}
	s, err := c.Warmup(ctx, name, d)
	return s, m.Fail(err)
}

// Run times one block of the benchmark key (worker.Client.Run).
func (m *Worker) Run(ctx context.Context, key string, n, pre int) (bench.Sample, error) {
	c, name, err := m.route(key)
	if err != nil {
		return bench.Sample{}, err
	}
	s, err := c.Run(ctx, name, n, pre)
	return s, m.Fail(err)
}

// Countable checks that every part counts its blocks: runs under
// callgrind and speaks a protocol with counted blocks. The error is the
// build's.
func (m *Worker) Countable() error {
	for i, c := range m.parts {
		if m.dumps[i] == nil || c.Version < worker.CountingVersion || !c.Handshake().Counting {
			return m.Fail(fmt.Errorf("%w: the %s worker cannot count its blocks (protocol version %d, under callgrind: %t; counting needs version %d and valgrind)",
				worker.ErrIncompatible, c.Label, c.Version, c.Handshake().Counting, worker.CountingVersion))
		}
	}
	return nil
}

// CountWay is the worker.CountWay of m's workers: each field theirs when
// they all say the same, "" otherwise.
func (m *Worker) CountWay() worker.CountWay {
	var way worker.CountWay
	for i, c := range m.parts {
		if i == 0 {
			way = c.Handshake().CountWay()
			continue
		}
		way = way.Agree(c.Handshake().CountWay())
	}
	return way
}

// Count runs one counted block of the benchmark key (worker.Client.Count)
// and reads its counts, and where its work went (callgrind.Block), from
// the dumps of the part that ran it: the sum of those the worker says
// hold it. With into set, those dumps' files are moved into that
// directory rather than removed (callgrind.Dumps.NextInto), and those of
// the collection the worker counted after it, when it did, into the
// directory named into with CollectionSuffix.
func (m *Worker) Count(ctx context.Context, key string, b worker.CountRequest, into string) (Counted, error) {
	i, ok := m.byKey[key]
	if !ok {
		return Counted{}, m.Fail(fmt.Errorf("no worker serves %q", key))
	}
	r, err := m.parts[i].Count(ctx, m.names[key], b)
	if err != nil {
		return Counted{}, m.Fail(err)
	}
	out := Counted{Sample: r.Sample}
	for k, role := range r.Roles {
		last := role == worker.DumpCollection && k == len(r.Roles)-1
		dir := ""
		switch {
		case into != "" && role == worker.DumpWork:
			dir = into
		case into != "" && last:
			dir = into + CollectionSuffix
		}
		b, err := m.dumps[i].NextInto(dir)
		if err != nil {
			return Counted{}, m.Fail(fmt.Errorf("%s worker: %s: read its counts: %w", m.parts[i].Label, key, err))
		}
		switch {
		case role == worker.DumpWork:
			out.Block.Add(b)
		case last:
			out.Collection = &CollectionCount{Counts: b.Counts, HeapRoom: r.HeapRoom}
		}
	}
	if out.Block.Ir == 0 {
		return Counted{}, m.Fail(fmt.Errorf("%w: %s worker: %s: the block counted no instruction", worker.ErrProtocol, m.parts[i].Label, key))
	}
	return out, nil
}

// CollectionSuffix ends the name of the directory a kept block's
// collection goes to, beside the block's own (Worker.Count).
const CollectionSuffix = "-gc"

// Counted is one counted block: the worker's sample of it, its counts
// and where its work went, and the collection counted after it (nil
// when the worker counted none).
type Counted struct {
	Sample     bench.Sample
	Block      callgrind.Block
	Collection *CollectionCount
}

// CollectionCount is one collection counted after a block: its counts,
// and the bytes the heap could grow by after it before the collector's
// goal (0 when the collector is off).
type CollectionCount struct {
	callgrind.Counts
	HeapRoom uint64
}

// Size is the encoded size of the benchmark key's message, 0 for none.
func (m *Worker) Size(ctx context.Context, key string) (int, error) {
	c, name, err := m.route(key)
	if err != nil {
		return 0, err
	}
	n, err := c.Size(ctx, name)
	return n, m.Fail(err)
}

// GC collects in every process: the orchestrator's collections treat the
// builds alike.
func (m *Worker) GC(ctx context.Context) error {
	var errs []error
	for _, c := range m.parts {
		errs = append(errs, c.GC(ctx))
	}
	return m.Fail(errors.Join(errs...))
}

// Close ends every process and waits for it.
func (m *Worker) Close() error {
	var errs []error
	for _, c := range m.parts {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Kill ends every process at once.
func (m *Worker) Kill() {
	for _, c := range m.parts {
		c.Kill()
	}
}
