package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
)

// Benchmark is one benchmark a worker can run.
type Benchmark struct {
	Name string
	// Size is the encoded message size in bytes.
	Size int
	// Loop runs the operation n times, untimed; an error means the
	// benchmark failed (e.g. a wrong decode).
	Loop func(n int) error
}

// Suite is what a worker serves.
type Suite struct {
	Name       string
	Benchmarks []Benchmark
	Env        results.Env
}

// Options tune a worker; the zero value is the default.
type Options struct {
	// Version and MinVersion override what the handshake announces, for
	// tests of version negotiation. 0 means Version and MinVersion.
	Version, MinVersion int
	// MaxGarbage is the safety net of the garbage policy: a worker whose
	// garbage since its last collection passes it collects before the
	// next block on its own. Default 1 GiB. The orchestrator normally
	// collects far earlier, and identically in every worker.
	MaxGarbage uint64
}

// DefaultMaxGarbage is the default Options.MaxGarbage.
const DefaultMaxGarbage = 1 << 30

// maxLine bounds a request line; longer lines get an error reply.
const maxLine = 1 << 20

// Limits on requests, so a bad request cannot make a worker run for hours.
const (
	maxN      = 1_000_000_000
	maxWarmup = time.Minute
)

// Serve runs the worker loop: it writes the handshake to w, then answers
// requests read from r until quit or the end of r. It keeps the garbage
// collector off until it returns (see the package doc) and restores the
// settings then. Only a failure to write (the orchestrator went away) or to
// read ends it with an error; bad requests get error replies.
func Serve(ctx context.Context, r io.Reader, w io.Writer, s Suite, opts Options) error {
	if opts.Version == 0 {
		opts.Version = Version
	}
	if opts.MinVersion == 0 {
		opts.MinVersion = MinVersion
	}
	if opts.MaxGarbage == 0 {
		opts.MaxGarbage = DefaultMaxGarbage
	}
	srv := &server{suite: s, opts: opts, byName: make(map[string]*Benchmark, len(s.Benchmarks)), out: bufio.NewWriter(w)}
	hello := Hello{Protocol: Protocol, Version: opts.Version, MinVersion: opts.MinVersion, Suite: s.Name, Env: s.Env, Benchmarks: []string{},
		Counting: callgrind.OnValgrind()}
	if id := callgrind.ReadCPUID(); id != (callgrind.CPUID{}) {
		hello.CPUID = &id
	}
	if hello.Counting {
		srv.counting = true
		dirtyHeap()
		hello.CountHeap = DirtyHeap
		hello.CountThreads = AllThreads
	}
	for i := range s.Benchmarks {
		b := &s.Benchmarks[i]
		srv.byName[b.Name] = b
		hello.Benchmarks = append(hello.Benchmarks, b.Name)
	}

	oldPercent := debug.SetGCPercent(-1)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}()
	srv.collect()

	if err := srv.write(hello); err != nil {
		return err
	}
	in := bufio.NewReaderSize(r, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, tooLong, err := readLine(in)
		if errors.Is(err, io.EOF) && len(line) == 0 && !tooLong {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("worker: read request: %w", err)
		}
		if len(bytes.TrimSpace(line)) == 0 && !tooLong {
			if errors.Is(err, io.EOF) {
				return nil
			}
			continue
		}
		reply, quit := srv.handle(line, tooLong)
		if werr := srv.write(reply); werr != nil {
			return werr
		}
		if quit || errors.Is(err, io.EOF) {
			return nil
		}
	}
}

// readLine reads one line without its newline. A line longer than maxLine
// is consumed to its end and reported as tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

type server struct {
	suite  Suite
	opts   Options
	byName map[string]*Benchmark
	out    *bufio.Writer
	// sinceGC is TotalAlloc at the last collection.
	sinceGC  uint64
	counting bool
}

func (s *server) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("worker: encode reply: %w", err)
	}
	data = append(data, '\n')
	if _, err := s.out.Write(data); err != nil {
		return fmt.Errorf("worker: write reply: %w", err)
	}
	if err := s.out.Flush(); err != nil {
		return fmt.Errorf("worker: write reply: %w", err)
	}
	return nil
}

// collect runs a full collection and notes where the garbage count
// starts; a counting worker also returns every free page to the kernel
// (see DirtyHeap).
func (s *server) collect() time.Duration {
	start := time.Now()
	if s.counting {
		debug.FreeOSMemory()
	} else {
		runtime.GC()
	}
	d := time.Since(start)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.sinceGC = m.TotalAlloc
	return d
}

// dirtySink holds dirtyHeap's allocation until it is dropped.
var dirtySink []byte

// dirtyHeap allocates DirtyHeapBytes and drops them (see DirtyHeap):
// memory fresh from the kernel, which the allocation does not touch, so
// it costs address space, not resident memory; the runtime marks it used,
// and Serve's first collection frees it for the blocks to reuse.
func dirtyHeap() {
	dirtySink = make([]byte, DirtyHeapBytes)
	dirtySink = nil
}

// handle answers one request line; quit is set for a quit request.
func (s *server) handle(line []byte, tooLong bool) (rep Reply, quit bool) {
	if tooLong {
		return Reply{Error: fmt.Sprintf("malformed request: line longer than %d bytes", maxLine)}, false
	}
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&req); err != nil {
		// Echo the id when the line has one, so the client can match it.
		var idOnly struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal(line, &idOnly)
		return Reply{ID: idOnly.ID, Error: fmt.Sprintf("malformed request %q: %v", abbreviate(line), err)}, false
	}
	if dec.More() {
		return Reply{ID: req.ID, Error: fmt.Sprintf("malformed request %q: more than one JSON value on the line", abbreviate(line))}, false
	}
	rep, err := s.do(req)
	if err != nil {
		return Reply{ID: req.ID, Error: err.Error()}, false
	}
	rep.ID, rep.OK = req.ID, true
	return rep, req.Op == OpQuit
}

func abbreviate(line []byte) string { return abbreviateTo(line, 120) }

// abbreviateTo is line cut to n bytes (at a rune's start) and "…".
func abbreviateTo(line []byte, n int) string {
	if len(line) > n {
		for n > 0 && line[n]&0xC0 == 0x80 {
			n--
		}
		return string(line[:n]) + "…"
	}
	return string(line)
}

func (s *server) do(req Request) (Reply, error) {
	switch req.Op {
	case OpQuit:
		return Reply{}, nil
	case OpGC:
		return Reply{ElapsedNs: s.collect().Nanoseconds()}, nil
	case OpSize:
		b, err := s.lookup(req.Name)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Size: b.Size}, nil
	case OpRun:
		b, err := s.lookup(req.Name)
		if err != nil {
			return Reply{}, err
		}
		if req.N < 1 || req.N > maxN {
			return Reply{}, fmt.Errorf("run %s: n = %d, want 1 to %d iterations", req.Name, req.N, maxN)
		}
		if req.Pre < 0 || req.Pre > maxN {
			return Reply{}, fmt.Errorf("run %s: pre = %d, want 0 to %d iterations", req.Name, req.Pre, maxN)
		}
		var smp bench.Sample
		if req.Count {
			smp, err = s.countedBlock(b, req.N, req.Pre, req.Keep)
		} else {
			smp, err = s.block(b, req.N, req.Pre)
		}
		if err != nil {
			return Reply{}, err
		}
		return sampleReply(smp), nil
	case OpWarmup:
		b, err := s.lookup(req.Name)
		if err != nil {
			return Reply{}, err
		}
		d := time.Duration(req.WarmupNs)
		if d <= 0 || d > maxWarmup {
			return Reply{}, fmt.Errorf("warmup %s: warmup_ns = %d, want 1 to %d", req.Name, req.WarmupNs, maxWarmup.Nanoseconds())
		}
		smp, err := s.warmup(b, d)
		if err != nil {
			return Reply{}, err
		}
		return sampleReply(smp), nil
	case "":
		return Reply{}, fmt.Errorf("malformed request: no op (want %s)", opList)
	}
	return Reply{}, fmt.Errorf("unknown op %q: want %s", req.Op, opList)
}

var opList = strings.Join([]string{OpWarmup, OpRun, OpSize, OpGC, OpQuit}, ", ")

func (s *server) lookup(name string) (*Benchmark, error) {
	if name == "" {
		return nil, errors.New("malformed request: no benchmark name")
	}
	b, ok := s.byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown benchmark %q (this worker has %d; names look like %s)", name, len(s.byName), s.example())
	}
	return b, nil
}

func (s *server) example() string {
	if len(s.suite.Benchmarks) == 0 {
		return "none"
	}
	return s.suite.Benchmarks[0].Name
}

// block runs pre untimed iterations of b, then n iterations as one timed
// block (bench.TimeLoop, which reads the memory statistics after the
// untimed iterations), with the collector off (it is off for the worker's
// life). It collects first only when the garbage since the last collection
// passed MaxGarbage, and says so in the sample.
func (s *server) block(b *Benchmark, n, pre int) (bench.Sample, error) {
	collected := s.collectPastMax()
	if pre > 0 {
		if err := b.safeLoop(pre); err != nil {
			return bench.Sample{}, err
		}
	}
	smp, err := bench.TimeLoop(b.safeLoop, n)
	if err != nil {
		return bench.Sample{}, err
	}
	smp.Collected = collected
	return smp, nil
}

// countedBlock is a block counted by callgrind (instrumentation left on
// after it with keep): pre uncounted iterations (which warm the
// benchmark and use the memory the block will reuse), the heap collected
// and its free pages returned to the kernel (see DirtyHeap; the buffers
// codecs keep in a sync.Pool survive one collection in its victim cache),
// then the n iterations between callgrind.Begin and callgrind.End, under
// bench.TimeLoop, whose clock and memory statistics are read outside the
// counted part. The collector is off, as for every block, so none of its
// work is counted; the one collection keeps garbage from piling up
// between counted blocks.
func (s *server) countedBlock(b *Benchmark, n, pre int, keep bool) (bench.Sample, error) {
	if !callgrind.OnValgrind() {
		return bench.Sample{}, errors.New("a counted block needs the worker to run under valgrind --tool=callgrind")
	}
	if pre > 0 {
		if err := b.safeLoop(pre); err != nil {
			return bench.Sample{}, err
		}
	}
	s.collect()
	smp, err := bench.TimeLoop(func(n int) error {
		callgrind.Begin()
		defer callgrind.End(!keep)
		return b.safeLoop(n)
	}, n)
	if err != nil {
		return bench.Sample{}, err
	}
	smp.Counted = true
	return smp, nil
}

// collectPastMax is the safety net of the garbage policy: it collects when
// the garbage since the last collection passed MaxGarbage, and reports
// whether it did. It reads the memory statistics itself, before any
// untimed iterations; the block's own reads are bench.TimeLoop's.
func (s *server) collectPastMax() bool {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.TotalAlloc-s.sinceGC <= s.opts.MaxGarbage {
		return false
	}
	s.collect()
	return true
}

// safeLoop runs b.Loop, turning a panic into an error: a broken codec is
// reported to the orchestrator, not a dead worker.
func (b *Benchmark) safeLoop(n int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked: %v", b.Name, p)
		}
	}()
	if err := b.Loop(n); err != nil {
		return fmt.Errorf("%s: %w", b.Name, err)
	}
	return nil
}

// warmup warms b up the way bench.Runner does (bench.WarmupBatches:
// doubling batches for about d) and returns the last batch, whose time per
// operation sizes the blocks. Every batch is a block without untimed
// iterations on a fresh collection (bench's Measure also runs one untimed
// operation first; the worker's blocks never did), and the worker collects
// once more at the end, so the blocks start on a clean heap and a fresh
// garbage count.
func (s *server) warmup(b *Benchmark, d time.Duration) (bench.Sample, error) {
	last, err := bench.WarmupBatches(d, maxN, func(n int) (bench.Sample, error) {
		s.collect()
		return s.block(b, n, 0)
	})
	if err != nil {
		return bench.Sample{}, err
	}
	s.collect()
	return last, nil
}
