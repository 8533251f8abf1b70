package ab

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// multi is one build's worker made of several worker processes (a test
// binary per package): it names every benchmark by its Key and sends each
// request to the process that has it. With one part without a package it
// is that process, names unchanged.
type multi struct {
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
}

// add joins part c, whose benchmarks names belong to package pkg.
func (m *multi) add(c *worker.Client, pkg string, names []string) {
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
	for _, n := range names {
		k := results.Key(pkg, n)
		m.byKey[k], m.names[k] = i, n
		m.hello.Benchmarks = append(m.hello.Benchmarks, k)
	}
}

func (m *multi) Handshake() worker.Hello { return m.hello }

func (m *multi) route(key string) (*worker.Client, string, error) {
	i, ok := m.byKey[key]
	if !ok {
		return nil, "", m.fail(fmt.Errorf("no worker serves %q", key))
	}
	return m.parts[i], m.names[key], nil
}

// fail marks err as the build's.
func (m *multi) fail(err error) error {
	if err == nil || m.side == "" {
		return err
	}
	return &SideError{Side: m.side, Err: err}
}

func (m *multi) Warmup(ctx context.Context, key string, d time.Duration) (bench.Sample, error) {
	c, name, err := m.route(key)
	if err != nil {
		return bench.Sample{}, err
	}
	s, err := c.Warmup(ctx, name, d)
	return s, m.fail(err)
}

func (m *multi) Run(ctx context.Context, key string, n, pre int) (bench.Sample, error) {
	c, name, err := m.route(key)
	if err != nil {
		return bench.Sample{}, err
	}
	s, err := c.Run(ctx, name, n, pre)
	return s, m.fail(err)
}

// countable checks that every part counts its blocks: runs under
// callgrind and speaks a protocol with counted blocks.
func (m *multi) countable() error {
	for i, c := range m.parts {
		if m.dumps[i] == nil || c.Version < worker.CountingVersion || !c.Handshake().Counting {
			return fmt.Errorf("%w: the %s worker cannot count its blocks (protocol version %d, under callgrind: %t; counting needs version %d and valgrind)",
				worker.ErrIncompatible, c.Label, c.Version, c.Handshake().Counting, worker.CountingVersion)
		}
	}
	return nil
}

// countHeap is the worker.Hello.CountHeap of m's workers: theirs when
// they all say the same, "" otherwise.
func (m *multi) countHeap() string {
	heap := ""
	for i, c := range m.parts {
		h := c.Handshake().CountHeap
		if i > 0 && h != heap {
			return ""
		}
		heap = h
	}
	return heap
}

// Count runs one counted block of the benchmark key (worker.Client.Count)
// and reads its counts from the dumps of the part that ran it: the sum of
// those the worker says hold it.
func (m *multi) Count(ctx context.Context, key string, n, pre int, timeout time.Duration, keep bool) (bench.Sample, callgrind.Counts, error) {
	i, ok := m.byKey[key]
	if !ok {
		return bench.Sample{}, callgrind.Counts{}, m.fail(fmt.Errorf("no worker serves %q", key))
	}
	s, written, summed, err := m.parts[i].Count(ctx, m.names[key], n, pre, timeout, keep)
	if err != nil {
		return bench.Sample{}, callgrind.Counts{}, m.fail(err)
	}
	var sum callgrind.Counts
	for k := range written {
		c, err := m.dumps[i].Next()
		if err != nil {
			return bench.Sample{}, callgrind.Counts{}, m.fail(fmt.Errorf("%s worker: %s: read its counts: %w", m.parts[i].Label, key, err))
		}
		if k >= written-summed {
			sum = sum.Add(c)
		}
	}
	if sum.Ir == 0 {
		return bench.Sample{}, callgrind.Counts{}, m.fail(fmt.Errorf("%w: %s worker: %s: the block counted no instruction", worker.ErrProtocol, m.parts[i].Label, key))
	}
	return s, sum, nil
}

func (m *multi) Size(ctx context.Context, key string) (int, error) {
	c, name, err := m.route(key)
	if err != nil {
		return 0, err
	}
	n, err := c.Size(ctx, name)
	return n, m.fail(err)
}

// GC collects in every process: the orchestrator's collections treat the
// builds alike.
func (m *multi) GC(ctx context.Context) error {
	var errs []error
	for _, c := range m.parts {
		errs = append(errs, c.GC(ctx))
	}
	return m.fail(errors.Join(errs...))
}

func (m *multi) close() error {
	var errs []error
	for _, c := range m.parts {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

func (m *multi) kill() {
	for _, c := range m.parts {
		c.Kill()
	}
}
