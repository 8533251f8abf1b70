package worker

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrProtocol marks a worker that broke the protocol: a line over
// MaxReplyBytes, a malformed reply, a reply out of step, or numbers no
// measurement can give. Unlike ErrIncompatible it is not a build that
// predates the protocol; it is a worker that misbehaves.
var ErrProtocol = errors.New("A/B worker protocol error")

// Bounds of a handshake's benchmark list.
const (
	maxBenchmarks = 100_000
	maxNameBytes  = 1024
)

// checkHello checks the benchmark names of a handshake, which reports and
// the job log show: at most maxBenchmarks, each non-empty, unique, valid
// UTF-8 without control characters and at most maxNameBytes long. Errors
// wrap ErrProtocol and name the worker.
func checkHello(label string, h Hello) error {
	if len(h.Benchmarks) > maxBenchmarks {
		return fmt.Errorf("%w: the %s worker announced %d benchmarks, more than %d", ErrProtocol, label, len(h.Benchmarks), maxBenchmarks)
	}
	seen := make(map[string]bool, len(h.Benchmarks))
	for i, name := range h.Benchmarks {
		var problem string
		switch {
		case name == "":
			problem = "is empty"
		case len(name) > maxNameBytes:
			problem = fmt.Sprintf("is longer than %d bytes", maxNameBytes)
		case !utf8.ValidString(name):
			problem = "is not valid UTF-8"
		case strings.IndexFunc(name, unicode.IsControl) >= 0:
			problem = "holds a control character"
		case seen[name]:
			problem = "appears twice"
		}
		if problem != "" {
			return fmt.Errorf("%w: the %s worker's benchmark name %d (%q) %s", ErrProtocol, label, i+1, abbreviate([]byte(name)), problem)
		}
		seen[name] = true
	}
	return nil
}

// Bounds of what a measured block can hold. An allocation takes more
// than a nanosecond, so a block cannot allocate more objects than it took
// nanoseconds (plus slack for the shortest blocks); no benchmark
// allocates a tebibyte per operation or encodes a message that large.
const (
	allocSlack    = 1024
	maxBytesPerOp = 1 << 40
	maxSize       = 1 << 40
)

// check validates a successful reply to req: no negative time or size,
// the iterations asked for (run) or at least one (warmup), and allocation
// counts a measurement can give.
func (r Reply) check(req Request) error {
	if r.ElapsedNs < 0 {
		return fmt.Errorf("elapsed_ns is %d, a negative time", r.ElapsedNs)
	}
	switch req.Op {
	case OpRun:
		if r.Iterations != req.N {
			return fmt.Errorf("%d iterations done, %d asked", r.Iterations, req.N)
		}
	case OpWarmup:
		if r.Iterations < 1 {
			return fmt.Errorf("a warm-up batch of %d iterations", r.Iterations)
		}
	case OpSize:
		if r.Size < 0 || r.Size > maxSize {
			return fmt.Errorf("an encoded size of %d bytes", r.Size)
		}
		return nil
	default:
		return nil
	}
	if r.Allocs > uint64(r.ElapsedNs)+allocSlack {
		return fmt.Errorf("%d allocations in %d ns, more than one a nanosecond", r.Allocs, r.ElapsedNs)
	}
	if r.Iterations > 0 && r.Bytes/uint64(r.Iterations) > maxBytesPerOp {
		return fmt.Errorf("%d bytes allocated in %d iterations, more than %d an iteration", r.Bytes, r.Iterations, uint64(maxBytesPerOp))
	}
	return nil
}
