package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/results"
)

var sink []byte

// testSuite has a benchmark that allocates one 64-byte object per
// iteration, one that fails, and one that panics.
func testSuite() Suite {
	return Suite{
		Name: "test",
		Env:  results.Env{GoVersion: runtime.Version(), GOOS: runtime.GOOS},
		Benchmarks: []Benchmark{
			{Name: "BenchmarkAlloc", Size: 64, Loop: func(n int) error {
				for range n {
					sink = make([]byte, 64)
				}
				return nil
			}},
			{Name: "BenchmarkFails", Size: 1, Loop: func(int) error { return errors.New("checksum mismatch") }},
			{Name: "BenchmarkPanics", Size: 1, Loop: func(int) error { panic("codec bug") }},
		},
	}
}

// pipeWorker runs Serve on in-process pipes and returns the orchestrator's
// ends: a line reader for replies and a writer for requests. The worker
// stops when the test ends.
type pipeWorker struct {
	t    *testing.T
	r    *bufio.Reader
	w    io.WriteCloser
	done chan error
}

func startPipeWorker(t *testing.T, s Suite, opts Options) *pipeWorker {
	t.Helper()
	reqR, reqW := io.Pipe()
	repR, repW := io.Pipe()
	p := &pipeWorker{t: t, r: bufio.NewReader(repR), w: reqW, done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), reqR, repW, s, opts)
		repW.Close()
		p.done <- err
	}()
	t.Cleanup(func() {
		reqW.Close()
		go io.Copy(io.Discard, repR)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("worker did not stop after its input closed")
		}
	})
	return p
}

func (p *pipeWorker) line() string {
	p.t.Helper()
	l, err := p.r.ReadString('\n')
	if err != nil {
		p.t.Fatalf("read reply: %v", err)
	}
	return strings.TrimSuffix(l, "\n")
}

func (p *pipeWorker) send(line string) Reply {
	p.t.Helper()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		p.t.Fatalf("send: %v", err)
	}
	var r Reply
	l := p.line()
	if err := json.Unmarshal([]byte(l), &r); err != nil {
		p.t.Fatalf("reply %q is not JSON: %v", l, err)
	}
	return r
}

func TestHandshake(t *testing.T) {
	p := startPipeWorker(t, testSuite(), Options{})
	var h Hello
	if err := json.Unmarshal([]byte(p.line()), &h); err != nil {
		t.Fatal(err)
	}
	if h.Protocol != Protocol || h.Version != Version || h.MinVersion != MinVersion {
		t.Errorf("handshake %s v%d (min %d), want %s v%d (min %d)", h.Protocol, h.Version, h.MinVersion, Protocol, Version, MinVersion)
	}
	if h.Suite != "test" || strings.Join(h.Benchmarks, ",") != "BenchmarkAlloc,BenchmarkFails,BenchmarkPanics" {
		t.Errorf("suite %q benchmarks %v", h.Suite, h.Benchmarks)
	}
	if h.Env.GoVersion != runtime.Version() {
		t.Errorf("env go version %q, want %q", h.Env.GoVersion, runtime.Version())
	}
}

func TestRequests(t *testing.T) {
	p := startPipeWorker(t, testSuite(), Options{})
	p.line() // handshake

	r := p.send(`{"id":1,"op":"warmup","name":"BenchmarkAlloc","warmup_ns":2000000}`)
	if !r.OK || r.ID != 1 || r.Iterations < 1 || r.ElapsedNs <= 0 {
		t.Errorf("warmup reply %+v", r)
	}
	r = p.send(`{"id":2,"op":"run","name":"BenchmarkAlloc","n":1000,"pre":100}`)
	if !r.OK || r.ID != 2 || r.Iterations != 1000 || r.ElapsedNs <= 0 {
		t.Fatalf("run reply %+v", r)
	}
	// One 64-byte object per iteration; the pre-block is not counted.
	if r.Allocs < 1000 || r.Allocs > 1010 || r.Bytes < 64000 || r.Bytes > 64000+4096 {
		t.Errorf("run counted %d allocs, %d bytes for 1000 iterations of one 64-byte object", r.Allocs, r.Bytes)
	}
	r = p.send(`{"id":3,"op":"size","name":"BenchmarkAlloc"}`)
	if !r.OK || r.Size != 64 {
		t.Errorf("size reply %+v, want 64", r)
	}
	r = p.send(`{"id":4,"op":"gc"}`)
	if !r.OK || r.ID != 4 || r.ElapsedNs <= 0 {
		t.Errorf("gc reply %+v", r)
	}
	r = p.send(`{"id":5,"op":"quit"}`)
	if !r.OK || r.ID != 5 {
		t.Errorf("quit reply %+v", r)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("Serve after quit: %v", err)
		}
		p.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("worker did not stop after quit")
	}
}

func TestBadRequestsGetErrorReplies(t *testing.T) {
	p := startPipeWorker(t, testSuite(), Options{})
	p.line()
	for _, tc := range []struct {
		line   string
		id     int64
		errHas string
	}{
		{`not json`, 0, "malformed request"},
		{`{"id":7,"op":`, 0, "malformed request"},
		{`{"id":8,"op":"run","name":"BenchmarkAlloc","n":"many"}`, 8, "malformed request"},
		{`{"id":9}`, 9, "no op"},
		{`{"id":10,"op":"fly"}`, 10, `unknown op "fly"`},
		{`{"id":11,"op":"run","n":5}`, 11, "no benchmark name"},
		{`{"id":12,"op":"run","name":"BenchmarkNope","n":5}`, 12, `unknown benchmark "BenchmarkNope"`},
		{`{"id":13,"op":"run","name":"BenchmarkAlloc","n":0}`, 13, "n = 0"},
		{`{"id":14,"op":"run","name":"BenchmarkAlloc","n":5,"pre":-1}`, 14, "pre = -1"},
		{`{"id":15,"op":"warmup","name":"BenchmarkAlloc"}`, 15, "warmup_ns = 0"},
		{`{"id":16,"op":"run","name":"BenchmarkFails","n":5}`, 16, "checksum mismatch"},
		{`{"id":17,"op":"run","name":"BenchmarkPanics","n":5}`, 17, "panicked: codec bug"},
		{`{"id":18,"op":"size","name":"BenchmarkAlloc"} {"id":19}`, 18, "more than one JSON value"},
		{`{"id":20,"op":"run","name":"` + strings.Repeat("x", maxLine) + `","n":1}`, 0, "longer than"},
	} {
		r := p.send(tc.line)
		if r.OK || r.ID != tc.id || !strings.Contains(r.Error, tc.errHas) {
			t.Errorf("%.60s: reply %+v, want id %d and an error containing %q", tc.line, r, tc.id, tc.errHas)
		}
	}
	// The worker survived all of that.
	if r := p.send(`{"id":21,"op":"run","name":"BenchmarkAlloc","n":10}`); !r.OK || r.Iterations != 10 {
		t.Errorf("a good request after the bad ones: %+v", r)
	}
	// Unknown fields are ignored (a newer orchestrator may add some).
	if r := p.send(`{"id":22,"op":"size","name":"BenchmarkAlloc","priority":"high"}`); !r.OK || r.Size != 64 {
		t.Errorf("a request with an unknown field: %+v", r)
	}
}

func TestServeRestoresGC(t *testing.T) {
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)
	p := startPipeWorker(t, testSuite(), Options{})
	p.line()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent while serving = %d, want -1 (off)", got)
	}
	p.send(`{"id":1,"op":"quit"}`)
	<-p.done
	p.done <- nil
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GC percent after Serve = %d, want 77 restored", got)
	}
}

func TestGarbageSafetyNet(t *testing.T) {
	p := startPipeWorker(t, testSuite(), Options{MaxGarbage: 32 << 10})
	p.line()
	p.send(`{"id":0,"op":"gc"}`)
	r := p.send(`{"id":1,"op":"run","name":"BenchmarkAlloc","n":1000}`) // 64 KB of garbage
	if r.Collected {
		t.Errorf("the first block collected: %+v", r)
	}
	r = p.send(`{"id":2,"op":"run","name":"BenchmarkAlloc","n":10}`)
	if !r.OK || !r.Collected {
		t.Errorf("after 64 KB of garbage with a 32 KB bound the worker did not collect: %+v", r)
	}
	p.send(`{"id":3,"op":"gc"}`)
	if r := p.send(`{"id":4,"op":"run","name":"BenchmarkAlloc","n":10}`); r.Collected {
		t.Errorf("collected again right after a gc request: %+v", r)
	}
}

// TestReplySample: a sample survives the trip through a reply line, in
// the protocol's field names.
func TestReplySample(t *testing.T) {
	tests := []struct {
		s    bench.Sample
		json string
	}{
		{bench.Sample{Iterations: 52000, Elapsed: 1234567, Allocs: 52000, Bytes: 3328000},
			`{"id":0,"ok":false,"iterations":52000,"elapsed_ns":1234567,"allocs":52000,"bytes":3328000}`},
		{bench.Sample{Iterations: 1, Elapsed: 5, Collected: true},
			`{"id":0,"ok":false,"iterations":1,"elapsed_ns":5,"collected":true}`},
		{bench.Sample{}, `{"id":0,"ok":false}`},
	}
	for _, tt := range tests {
		line, err := json.Marshal(sampleReply(tt.s))
		if err != nil {
			t.Fatal(err)
		}
		if string(line) != tt.json {
			t.Errorf("%+v: reply %s, want %s", tt.s, line, tt.json)
		}
		var r Reply
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		if got := r.sample(); !reflect.DeepEqual(got, tt.s) {
			t.Errorf("%s: sample %+v, want %+v", line, got, tt.s)
		}
	}
}

// clientOver connects a Client to Serve through pipes.
func clientOver(t *testing.T, s Suite, opts Options) (*Client, error) {
	t.Helper()
	reqR, reqW := io.Pipe()
	repR, repW := io.Pipe()
	done := make(chan struct{})
	go func() {
		Serve(context.Background(), reqR, repW, s, opts)
		repW.Close()
		close(done)
	}()
	t.Cleanup(func() {
		reqW.Close()
		go io.Copy(io.Discard, repR)
		<-done
	})
	return NewClient(context.Background(), "head", repR, reqW)
}

func TestClient(t *testing.T) {
	c, err := clientOver(t, testSuite(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if c.Version != Version || c.Handshake().Suite != "test" {
		t.Errorf("negotiated v%d, suite %q", c.Version, c.Handshake().Suite)
	}
	if s, err := c.Warmup(ctx, "BenchmarkAlloc", time.Millisecond); err != nil || s.Iterations < 1 {
		t.Errorf("Warmup: %+v, %v", s, err)
	}
	s, err := c.Run(ctx, "BenchmarkAlloc", 500, 50)
	if err != nil || s.Iterations != 500 || s.Elapsed <= 0 || s.NsPerOp() <= 0 {
		t.Errorf("Run: %+v, %v", s, err)
	}
	if n, err := c.Size(ctx, "BenchmarkAlloc"); err != nil || n != 64 {
		t.Errorf("Size: %d, %v", n, err)
	}
	if err := c.GC(ctx); err != nil {
		t.Errorf("GC: %v", err)
	}
	_, err = c.Run(ctx, "BenchmarkFails", 1, 0)
	var re *ReplyError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("Run of a failing benchmark: %v, want a ReplyError naming the failure", err)
	}
	if _, err := c.Size(ctx, "BenchmarkAlloc"); err != nil {
		t.Errorf("the client is unusable after an error reply: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := c.Size(ctx, "BenchmarkAlloc"); err == nil {
		t.Error("Size after Close succeeded")
	}
}

func TestVersionNegotiation(t *testing.T) {
	for _, tc := range []struct {
		name                string
		version, minVersion int
		wantErr             []string
	}{
		{"same", Version, MinVersion, nil},
		{"newer but accepts ours", Version + 1, MinVersion, nil},
		{"too new", Version + 2, Version + 1, []string{fmt.Sprintf("needs A/B protocol version %d or newer", Version+1), fmt.Sprintf("speaks version %d", Version), "newer than this wirebench"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := clientOver(t, testSuite(), Options{Version: tc.version, MinVersion: tc.minVersion})
			if tc.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if c.Version != min(tc.version, Version) {
					t.Errorf("negotiated %d, want %d", c.Version, min(tc.version, Version))
				}
				c.Close()
				return
			}
			if !errors.Is(err, ErrIncompatible) {
				t.Fatalf("err = %v, want ErrIncompatible", err)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// A worker older than this build's minimum: Serve cannot announce version
// 0, so a fake writes the handshake.
func TestVersionTooOld(t *testing.T) {
	old := Hello{Protocol: Protocol, Version: MinVersion - 1, MinVersion: MinVersion - 1, Suite: "default"}
	line, _ := json.Marshal(old)
	_, err := NewClient(context.Background(), "base", strings.NewReader(string(line)+"\n"), io.Discard)
	if !errors.Is(err, ErrIncompatible) {
		t.Fatalf("err = %v, want ErrIncompatible", err)
	}
	for _, w := range []string{
		fmt.Sprintf("speaks A/B protocol version %d", MinVersion-1),
		fmt.Sprintf("needs version %d or newer", MinVersion),
		"the base build is older than the A/B protocol: fall back to the stored baseline",
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	for _, tc := range []struct{ name, stream, want string }{
		{"not a worker", "BenchmarkX 100 5 ns/op\n", "did not start with a handshake"},
		{"another protocol", `{"protocol":"other","version":1}` + "\n", `announced protocol "other"`},
		{"silent", "", "sent no handshake"},
	} {
		_, err := NewClient(context.Background(), "base", strings.NewReader(tc.stream), io.Discard)
		if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrIncompatible saying %q", tc.name, err, tc.want)
		}
	}
}

// TestProcess builds the real binary and talks to `action worker` as the
// orchestrator does; it also starts a stand-in for a build that predates
// the worker command.
func TestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "action")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/wirebench")
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx := context.Background()
	c, err := Start(ctx, "head", Command{Path: bin, Args: []string{"worker", "--filter", "codec=raw/dataset=small"}, Env: os.Environ()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Kill()
	h := c.Handshake()
	if h.Suite != "default" || len(h.Benchmarks) != 2 || h.Env.GoVersion == "" {
		t.Errorf("handshake %+v", h)
	}
	name := "BenchmarkSerialize/codec=raw/dataset=small"
	if _, err := c.Warmup(ctx, name, 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	s, err := c.Run(ctx, name, 2000, 100)
	if err != nil || s.Iterations != 2000 || s.Elapsed <= 0 {
		t.Fatalf("run: %+v, %v", s, err)
	}
	if n, err := c.Size(ctx, name); err != nil || n <= 0 {
		t.Errorf("size: %d, %v", n, err)
	}
	if _, err := c.Run(ctx, "BenchmarkNope", 1, 0); err == nil {
		t.Error("an unknown benchmark did not fail")
	}
	if err := c.GC(ctx); err != nil {
		t.Errorf("the worker did not survive a bad request: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}

	// A build from before the A/B mode: `action worker` is an unknown
	// command there.
	if _, err := exec.LookPath("sh"); err != nil {
		return
	}
	old := filepath.Join(t.TempDir(), "old-action")
	script := "#!/bin/sh\necho 'wirebench: unknown command \"worker\": want run, compare, check or update (see `action help`)' >&2\nexit 2\n"
	if err := os.WriteFile(old, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Start(ctx, "base", Command{Path: old, Args: []string{"worker"}, Env: os.Environ()}, nil)
	if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "the base build is older than the A/B protocol: fall back to the stored baseline") {
		t.Errorf("an old build: %v, want ErrIncompatible with the fallback advice", err)
	}
}

// TestPanicked names the benchmark a worker's panic came from, with the
// message and the line, in what Go prints as a program dies; nothing
// when no benchmark's frame is under the panic.
func TestPanicked(t *testing.T) {
	const trace = "panic: assignment to entry in nil map\n\ngoroutine 10 [running]:\n" +
		"example.com/m.helper(...)\n\t/m/enc.go:7\n" +
		"example.com/m.BenchmarkBroken(0x92fa897c308)\n\t/m/enc_test.go:14 +0x3b\n" +
		"testing.(*B).runN(0x92fa897c308, 0x1)\n\t/usr/local/go/src/testing/benchmark.go:219 +0x190\n"
	tests := []struct{ name, out, want string }{
		{"a benchmark", trace, "BenchmarkBroken panicked: assignment to entry in nil map (at /m/enc_test.go:14)"},
		{"a closure of one", "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 7 [running]:\n" +
			"example.com/m_test.BenchmarkDecode.func1(0xc000)\n\t/m/dec_test.go:30 +0x1d\n",
			"BenchmarkDecode panicked: runtime error: index out of range [3] with length 3 (at /m/dec_test.go:30)"},
		{"after other output", "some log line\n" + trace, "BenchmarkBroken panicked: assignment to entry in nil map (at /m/enc_test.go:14)"},
		{"not under a benchmark", "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/m/main.go:3 +0x1\n", ""},
		{"no panic", "exit status 1\nFAIL\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Panicked(tt.out); got != tt.want {
				t.Errorf("Panicked = %q, want %q", got, tt.want)
			}
		})
	}
}
