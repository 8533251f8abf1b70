package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/logsafe"
	"github.com/wirebench/wirebench/internal/results"
)

// DefaultTimeout bounds one request: the slowest single block of the
// default suite takes a fraction of a second, the slowest opt-in one a few
// seconds.
const DefaultTimeout = 5 * time.Minute

// Client is the orchestrator's end of one worker.
type Client struct {
	// Label names the worker in errors and progress ("base", "head").
	Label string
	// Hello is the worker's handshake, and Version the negotiated
	// protocol version.
	Hello   Hello
	Version int
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration

	w      io.Writer
	lines  chan lineOrErr
	done   chan struct{} // closed when the client is closed: stops the reader
	nextID int64

	// Set by Start for a worker process.
	cmd     *exec.Cmd
	stdin   io.Closer
	stderr  *tailBuffer
	waitErr chan error
	closed  bool
	mu      sync.Mutex
}

type lineOrErr struct {
	line []byte
	err  error
}

// NewClient reads the handshake from r, checks the versions (see
// Negotiate) and returns a client that sends requests to w. label names
// the worker in errors.
func NewClient(ctx context.Context, label string, r io.Reader, w io.Writer) (*Client, error) {
	c := &Client{Label: label, w: w, lines: make(chan lineOrErr, 1), done: make(chan struct{})}
	go readLines(r, c.lines, c.done)
	line, err := c.next(ctx, DefaultTimeout)
	if errors.Is(err, ErrProtocol) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: the %s build's worker sent no handshake: %v", ErrIncompatible, label, err)
	}
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil || h.Protocol == "" {
		return nil, fmt.Errorf("%w: the %s build's worker did not start with a handshake (got %q): it is not a wirebench A/B worker", ErrIncompatible, label, abbreviate(line))
	}
	v, err := Negotiate(label, h)
	if err != nil {
		return nil, err
	}
	if err := checkHello(label, h); err != nil {
		return nil, err
	}
	c.Hello, c.Version = h, v
	return c, nil
}

// MaxReplyBytes bounds one line from a worker, the handshake included (a
// handshake of the default suite is a few KiB): a worker built from a pull
// request must not be able to exhaust the orchestrator's memory with a
// line that never ends.
const MaxReplyBytes = 1 << 20

// errLineTooLong is what readLines reports for a line over MaxReplyBytes.
var errLineTooLong = fmt.Errorf("a line longer than %d bytes", MaxReplyBytes)

// readLines feeds r's lines to ch until r ends (the last value carries the
// error, io.EOF at a clean end), a line is longer than MaxReplyBytes (then
// errLineTooLong, and nothing more is read), or done is closed.
func readLines(r io.Reader, ch chan<- lineOrErr, done <-chan struct{}) {
	defer close(ch)
	br := bufio.NewReaderSize(r, 64<<10)
	send := func(l lineOrErr) bool {
		select {
		case ch <- l:
			return true
		case <-done:
			return false
		}
	}
	for {
		line, err := readBoundedLine(br, MaxReplyBytes)
		if len(bytes.TrimSpace(line)) > 0 && !send(lineOrErr{line: bytes.TrimRight(line, "\r\n")}) {
			return
		}
		if err != nil {
			send(lineOrErr{err: err})
			return
		}
	}
}

// readBoundedLine reads one line, its newline included, of at most limit
// bytes besides the line ending; past that it stops reading at once and
// returns errLineTooLong.
func readBoundedLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(bytes.TrimRight(chunk, "\r\n")) > limit {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

func (c *Client) next(ctx context.Context, timeout time.Duration) ([]byte, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case l, ok := <-c.lines:
		if !ok {
			return nil, io.EOF
		}
		if l.err != nil {
			if errors.Is(l.err, errLineTooLong) {
				return nil, fmt.Errorf("%w: the %s worker sent %v", ErrProtocol, c.Label, l.err)
			}
			if errors.Is(l.err, io.EOF) {
				return nil, c.exitError(io.ErrUnexpectedEOF)
			}
			return nil, c.exitError(l.err)
		}
		return l.line, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, fmt.Errorf("%w within %s", ErrNoReply, timeout)
	}
}

// ErrExited is wrapped when a worker process stopped talking because it
// exited (a crash, a signal, os.Exit), and ErrNoReply when it did not
// answer a request in time: either way the process cannot go on, while
// an error reply (ReplyError) leaves it alive.
var (
	ErrExited  = errors.New("the worker exited")
	ErrNoReply = errors.New("no reply")
)

// exitError describes why a worker process stopped talking, with its exit
// status and the last lines it wrote to stderr.
func (c *Client) exitError(err error) error {
	if c.cmd == nil || c.waitErr == nil {
		return err
	}
	select {
	case werr := <-c.waitErr:
		c.waitErr = nil
		msg := ""
		if werr != nil {
			msg += " (" + werr.Error() + ")"
		}
		tail := strings.TrimSpace(c.stderr.String())
		if p := Panicked(tail); p != "" {
			msg += ": " + p + "; it printed"
		}
		if tail != "" {
			msg += ": " + tail
		}
		return fmt.Errorf("%w%s", ErrExited, msg)
	case <-time.After(2 * time.Second):
		return err
	}
}

// call sends one request and waits for its reply, for at most c.Timeout.
func (c *Client) call(ctx context.Context, req Request) (Reply, error) {
	return c.callWithin(ctx, req, c.Timeout)
}

// callWithin sends one request and waits for its reply, for at most
// timeout (0: DefaultTimeout).
func (c *Client) callWithin(ctx context.Context, req Request, timeout time.Duration) (Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return Reply{}, fmt.Errorf("%s worker: closed", c.Label)
	}
	c.nextID++
	req.ID = c.nextID
	data, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	if _, err := c.w.Write(append(data, '\n')); err != nil {
		return Reply{}, fmt.Errorf("%s worker: send %s: %w", c.Label, req.Op, c.exitError(err))
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	line, err := c.next(ctx, timeout)
	if err != nil {
		return Reply{}, fmt.Errorf("%s worker: %s: %w", c.Label, req.what(), err)
	}
	var rep Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return Reply{}, fmt.Errorf("%w: %s worker: %s: malformed reply %q: %v", ErrProtocol, c.Label, req.what(), abbreviate(line), err)
	}
	if rep.ID != req.ID {
		return Reply{}, fmt.Errorf("%w: %s worker: %s: reply to request %d, want %d (protocol out of step)", ErrProtocol, c.Label, req.what(), rep.ID, req.ID)
	}
	if !rep.OK {
		// The benchmark's own message (a skip's, a failure's) is what its
		// row says: bounded as a row's, not as a line of the protocol.
		return rep, &ReplyError{Label: c.Label, Op: req.Op, Name: req.Name, Msg: abbreviateTo([]byte(rep.Error), results.MaxTroubleWhy), Trouble: rep.Trouble}
	}
	if err := rep.check(req); err != nil {
		return Reply{}, fmt.Errorf("%w: %s worker: %s: %v", ErrProtocol, c.Label, req.what(), err)
	}
	return rep, nil
}

// what names req in an error: its op and the benchmark it is for, or the
// pattern it lists.
func (req Request) what() string {
	switch {
	case req.Name != "":
		return req.Op + " " + req.Name
	case req.Bench != "":
		return fmt.Sprintf("%s %q", req.Op, req.Bench)
	}
	return req.Op
}

// panicLine and benchFrame find, in what a Go program printed as it died,
// its panic's message and the first frame of a benchmark function
// ("pkg.BenchmarkX(...)" or a closure of it, "pkg.BenchmarkX.func1()"),
// with the file and line of that frame on the next line.
var (
	panicLine  = regexp.MustCompile(`(?m)^panic: (.*)$`)
	benchFrame = regexp.MustCompile(`(?m)^\S*\.(Benchmark[\p{L}\p{N}_]*)(?:\.func\d+)*\(.*\)\n\t(\S+:\d+)`)
)

// Panicked says which benchmark a worker's panic came from, with the
// panic's message and where the benchmark was when it did:
// "BenchmarkBroken panicked: assignment to entry in nil map (at
// /m/enc_test.go:14)"; "" when out holds no panic of a benchmark.
func Panicked(out string) string {
	p := panicLine.FindStringSubmatch(out)
	if p == nil {
		return ""
	}
	f := benchFrame.FindStringSubmatch(out[strings.Index(out, p[0]):])
	if f == nil {
		return ""
	}
	return fmt.Sprintf("%s panicked: %s (at %s)", f[1], strings.TrimSpace(p[1]), f[2])
}

// ReplyError is an error reply from a worker: the worker is still alive.
// Trouble, when set, says that the benchmark Name itself skipped or
// failed (Reply.Trouble), and Msg is its message: the worker can go on
// with the next benchmark.
type ReplyError struct {
	Label, Op, Name, Msg string
	Trouble              results.TroubleKind
}

func (e *ReplyError) Error() string { return fmt.Sprintf("%s worker: %s: %s", e.Label, e.Op, e.Msg) }

// Handshake returns the worker's handshake.
func (c *Client) Handshake() Hello { return c.Hello }

// Warmup runs the named benchmark for about d and returns its last batch.
func (c *Client) Warmup(ctx context.Context, name string, d time.Duration) (bench.Sample, error) {
	r, err := c.call(ctx, Request{Op: OpWarmup, Name: name, WarmupNs: d.Nanoseconds()})
	if err != nil {
		return bench.Sample{}, err
	}
	return r.sample(), nil
}

// Run runs pre untimed iterations of the named benchmark, then n
// iterations as one timed block.
func (c *Client) Run(ctx context.Context, name string, n, pre int) (bench.Sample, error) {
	r, err := c.call(ctx, Request{Op: OpRun, Name: name, N: n, Pre: pre})
	if err != nil {
		return bench.Sample{}, err
	}
	return r.sample(), nil
}

// CountRequest is one counted block to run (Client.Count): N counted
// iterations after Pre uncounted ones, its reply awaited for at most
// Timeout (a counted block runs tens of times slower than natively);
// Keep and NoCollection are Request's.
type CountRequest struct {
	N, Pre             int
	Timeout            time.Duration
	Keep, NoCollection bool
}

// Count runs one counted block of the named benchmark (Request.Count),
// as b says. The block's counts are in the worker's next callgrind
// dumps, as Counted says. A worker that did not count it (one older than
// counting, or not under Valgrind) is an error wrapping ErrIncompatible.
func (c *Client) Count(ctx context.Context, name string, b CountRequest) (Counted, error) {
	if c.Version < CountingVersion || !c.Hello.Counting {
		return Counted{}, fmt.Errorf("%w: the %s worker cannot count its blocks (protocol version %d, under callgrind: %t; counting needs version %d under callgrind)",
			ErrIncompatible, c.Label, c.Version, c.Hello.Counting, CountingVersion)
	}
	r, err := c.callWithin(ctx, Request{Op: OpRun, Name: name, N: b.N, Pre: b.Pre, Count: true, Keep: b.Keep, NoCollection: b.NoCollection}, b.Timeout)
	if err != nil {
		return Counted{}, err
	}
	out, ok := dumpRoles(r)
	if !ok {
		return Counted{}, fmt.Errorf("%w: %s worker: run %s: the block was not counted (counted %t, %d dumps, %d summed, collections at %v)", ErrProtocol, c.Label, name, r.Counted, r.Dumps, r.Summed, r.GCDumps)
	}
	return out, nil
}

// Size returns the encoded message size of the named benchmark.
func (c *Client) Size(ctx context.Context, name string) (int, error) {
	r, err := c.call(ctx, Request{Op: OpSize, Name: name})
	if err != nil {
		return 0, err
	}
	return r.Size, nil
}

// GC makes the worker collect its heap now.
func (c *Client) GC(ctx context.Context) error {
	_, err := c.call(ctx, Request{Op: OpGC})
	return err
}

// Close asks the worker to quit and, for a process, waits for it (killing
// it after a few seconds). It is safe to call more than once.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_, qerr := c.call(ctx, Request{Op: OpQuit})
	cancel()
	c.markClosed()
	if c.cmd == nil {
		return qerr
	}
	c.stdin.Close()
	if c.waitErr == nil {
		return nil
	}
	select {
	case err := <-c.waitErr:
		if qerr != nil {
			return qerr
		}
		return err
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-c.waitErr
		return fmt.Errorf("%s worker: did not quit; killed", c.Label)
	}
}

func (c *Client) markClosed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.done)
	}
}

// Kill ends a worker process at once.
func (c *Client) Kill() {
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Kill()
	}
	c.markClosed()
}

// Command is how to start one worker process.
type Command struct {
	// Path is the executable and Args its arguments (which make it a
	// worker, e.g. "worker").
	Path string
	Args []string
	// Env is its environment; Dir its working directory ("" the
	// current one).
	Env []string
	Dir string
	// FDs puts the protocol on file descriptors 3 (requests) and 4
	// (replies) instead of stdin and stdout, which a test binary's
	// benchmarks may print to: its stdout then goes where stderr goes.
	FDs bool
	// CPUs restricts the worker process, every thread of it, to these
	// CPUs (Linux; see OneCPU); nil leaves it where the caller may run.
	CPUs []int
}

// ErrNotStarted is wrapped when a worker process started but sent no
// handshake: it exited, closed its replies or said nothing in time.
var ErrNotStarted = errors.New("did not start")

// Start runs c as a worker process and returns its client once the
// handshake checked out. The worker's stderr (and, with c.FDs, its
// stdout) goes to stderr (when not nil) and its last lines into errors. A
// binary without a worker, or with an incompatible protocol, gives an
// error wrapping ErrIncompatible; one that sends no handshake, an error
// wrapping ErrNotStarted.
func Start(ctx context.Context, label string, c Command, stderr io.Writer) (*Client, error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	tail := &tailBuffer{max: 1024}
	// The worker's stderr (and, with FDs, its stdout) reaches the job log:
	// it may come from a pull request's build, so no line of it may act as
	// a workflow command.
	var diag io.Writer = tail
	var progress *logsafe.Writer
	if stderr != nil {
		progress = logsafe.NewWriter(stderr, "["+label+" worker] ")
		diag = io.MultiWriter(tail, progress)
	}
	cmd.Stderr = diag
	// Both pipes are made here, not with cmd.StdinPipe/StdoutPipe: Wait,
	// which a goroutine below calls at once, closes those, and a reply
	// the worker wrote just before it exited could be lost to that close.
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	if c.FDs {
		cmd.ExtraFiles = []*os.File{reqR, repW}
		cmd.Stdout = diag
	} else {
		cmd.Stdin, cmd.Stdout = reqR, repW
	}
	var requests io.WriteCloser = reqW
	afterStart := []io.Closer{reqR, repW}
	err = startOn(cmd, c.CPUs)
	for _, f := range afterStart {
		f.Close() // the child's ends
	}
	if err != nil {
		reqW.Close()
		repR.Close()
		return nil, fmt.Errorf("start the %s worker %s: %w", label, c.Path, err)
	}
	waitErr := make(chan error, 1)
	go func() {
		err := cmd.Wait() // returns once stderr is copied
		if progress != nil {
			progress.Flush()
		}
		waitErr <- err
	}()
	cl := &Client{Label: label, w: requests, lines: make(chan lineOrErr, 1), done: make(chan struct{}), cmd: cmd, stdin: requests, stderr: tail, waitErr: waitErr}
	go func() {
		readLines(repR, cl.lines, cl.done)
		repR.Close()
	}()
	line, err := cl.next(ctx, DefaultTimeout)
	if errors.Is(err, ErrProtocol) {
		cmd.Process.Kill()
		return nil, err
	}
	if err != nil {
		cmd.Process.Kill()
		if strings.Contains(tail.String(), "unknown command") {
			return nil, fmt.Errorf("%w: the %s build has no A/B worker (`%s %s`: %v): the %s build is older than the A/B protocol: fall back to the stored baseline",
				ErrIncompatible, label, c.Path, strings.Join(c.Args, " "), err, label)
		}
		return nil, fmt.Errorf("the %s (%s) %w: %w", strings.TrimSpace(label+" worker"), c.Path, ErrNotStarted, err)
	}
	var h Hello
	if err := json.Unmarshal(line, &h); err != nil || h.Protocol == "" {
		cmd.Process.Kill()
		return nil, fmt.Errorf("%w: the %s build's worker did not start with a handshake (got %q): the %s build is older than the A/B protocol: fall back to the stored baseline",
			ErrIncompatible, label, abbreviate(line), label)
	}
	v, err := Negotiate(label, h)
	if err == nil {
		err = checkHello(label, h)
	}
	if err != nil {
		cmd.Process.Kill()
		return nil, err
	}
	cl.Hello, cl.Version = h, v
	return cl, nil
}

// List asks a test binary's worker for the benchmarks the go test -bench
// pattern bench selects; it runs each once. Those that gave no result
// (skipped or failed: Reply.Troubles) are troubles, not names.
func (c *Client) List(ctx context.Context, bench string) ([]string, []results.Trouble, error) {
	r, err := c.call(ctx, Request{Op: OpList, Bench: bench})
	if err != nil {
		return nil, nil, err
	}
	return r.Names, r.Troubles, nil
}

// tailBuffer keeps the first and the last max bytes written to it: what
// a worker wrote last says why it stopped, what it wrote first (a panic's
// message, before the goroutines' stacks) often says what went wrong.
type tailBuffer struct {
	mu         sync.Mutex
	head, buf  []byte
	max        int
	overflowed bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
		t.overflowed = true
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.overflowed {
		return string(t.head) + "\n…\n" + string(t.buf)
	}
	return string(t.head) + string(t.buf)
}
