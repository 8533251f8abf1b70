package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/results"
)

// helloLine is a valid handshake line announcing names.
func helloLine(t testing.TB, names ...string) string {
	data, err := json.Marshal(Hello{Protocol: Protocol, Version: Version, MinVersion: MinVersion, Suite: "test", Benchmarks: names})
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

// scripted is a client whose worker says stream (handshake first).
func scripted(t *testing.T, stream string) (*Client, error) {
	t.Helper()
	c, err := NewClient(context.Background(), "head", strings.NewReader(stream), io.Discard)
	if c != nil {
		t.Cleanup(c.Kill)
	}
	return c, err
}

// TestBadReplies: replies no honest worker sends are protocol errors that
// name the worker, never measurements.
func TestBadReplies(t *testing.T) {
	const name = "BenchmarkX"
	run := func(c *Client) error { _, err := c.Run(context.Background(), name, 100, 0); return err }
	warmup := func(c *Client) error { _, err := c.Warmup(context.Background(), name, time.Millisecond); return err }
	size := func(c *Client) error { _, err := c.Size(context.Background(), name); return err }
	gc := func(c *Client) error { return c.GC(context.Background()) }
	tests := []struct {
		name  string
		reply string
		call  func(*Client) error
		want  string // "" for a good reply
	}{
		{"good run", `{"id":1,"ok":true,"iterations":100,"elapsed_ns":5000,"allocs":100,"bytes":6400}`, run, ""},
		{"negative time", `{"id":1,"ok":true,"iterations":100,"elapsed_ns":-1}`, run, "elapsed_ns is -1"},
		{"fewer iterations", `{"id":1,"ok":true,"iterations":99,"elapsed_ns":5000}`, run, "99 iterations done, 100 asked"},
		{"more allocations than nanoseconds", `{"id":1,"ok":true,"iterations":100,"elapsed_ns":5000,"allocs":1000000}`, run, "more than one a nanosecond"},
		{"a tebibyte an iteration", `{"id":1,"ok":true,"iterations":100,"elapsed_ns":5000,"bytes":18446744073709551615}`, run, "more than 1099511627776 an iteration"},
		{"warm-up of no iterations", `{"id":1,"ok":true,"iterations":0,"elapsed_ns":5000}`, warmup, "warm-up batch of 0"},
		{"negative size", `{"id":1,"ok":true,"size":-3}`, size, "encoded size of -3"},
		{"gc of negative time", `{"id":1,"ok":true,"elapsed_ns":-9}`, gc, "elapsed_ns is -9"},
		{"malformed", `{"id":1,"ok":tru`, run, "malformed reply"},
		{"out of step", `{"id":7,"ok":true,"iterations":100,"elapsed_ns":5000}`, run, "out of step"},
		{"endless line", `{"id":1,"ok":true,"error":"` + strings.Repeat("x", MaxReplyBytes) + `"}`, run, "longer than 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := scripted(t, helloLine(t, name)+tt.reply+"\n")
			if err != nil {
				t.Fatal(err)
			}
			err = tt.call(c)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("good reply refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "head worker") {
				t.Fatalf("err = %v, want ErrProtocol naming the head worker and saying %q", err, tt.want)
			}
		})
	}
}

// TestBadHandshakes: a handshake over the bound or with names a report
// cannot show is a protocol error, not an old build (ErrIncompatible,
// which would fall back to the stored baseline).
func TestBadHandshakes(t *testing.T) {
	tests := []struct {
		name, stream, want string
	}{
		{"endless handshake", `{"protocol":"wirebench-ab","suite":"` + strings.Repeat("s", MaxReplyBytes) + "\"}\n", "longer than 1048576 bytes"},
		{"empty name", helloLine(t, "BenchmarkA", ""), "(\"\") is empty"},
		{"twice", helloLine(t, "BenchmarkA", "BenchmarkA"), "appears twice"},
		{"control character", helloLine(t, "BenchmarkA\r::error::pwned"), "control character"},
		{"too long", helloLine(t, "Benchmark"+strings.Repeat("x", maxNameBytes)), "longer than 1024 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scripted(t, tt.stream)
			if !errors.Is(err, ErrProtocol) || errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "head worker") {
				t.Fatalf("err = %v, want ErrProtocol (not ErrIncompatible) naming the head worker and saying %q", err, tt.want)
			}
		})
	}
}

// TestReplyErrorAbbreviated: a worker's error message is cut before it
// reaches errors and reports, to what a trouble's row may say.
func TestReplyErrorAbbreviated(t *testing.T) {
	c, err := scripted(t, helloLine(t, "BenchmarkX")+`{"id":1,"ok":false,"error":"`+strings.Repeat("e", 10000)+`"}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Run(context.Background(), "BenchmarkX", 1, 0)
	var re *ReplyError
	if max := results.MaxTroubleWhy + len("…"); !errors.As(err, &re) || len(re.Msg) > max {
		t.Fatalf("err = %.300v, want a ReplyError of at most %d bytes", err, max)
	}
}

// TestStderrNeutralised: what a worker prints on stderr reaches the job
// log prefixed with its label, and none of it can act as a workflow
// command, not even after a carriage return.
func TestStderrNeutralised(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	script := filepath.Join(t.TempDir(), "worker")
	body := "#!/bin/sh\nprintf 'starting\\r::error::pwned\\n##[add-mask]x\\n::stop-commands::tok' >&2\necho not-a-handshake\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	_, err := Start(context.Background(), "head", Command{Path: script}, &log)
	if err == nil {
		t.Fatal("a worker without a handshake started")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "stop-commands") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the last line is flushed when the process has exited
	}
	out := log.String()
	for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if !strings.HasPrefix(l, "[head worker] ") || strings.Contains(l, "##[") {
			t.Errorf("log line %q: want the worker's prefix and no workflow command", l)
		}
	}
	if !strings.Contains(out, "pwned") || !strings.Contains(out, "stop-commands::tok") {
		t.Errorf("the worker's text is lost: %q", out)
	}
}

// syncBuffer is a bytes.Buffer safe for the worker's stderr copier and the
// test reading it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStartNoHandshake: a worker process that ends without a handshake
// fails to start with an error wrapping ErrNotStarted that says so; one
// that says something else first is incompatible, not that.
func TestStartNoHandshake(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, tt := range []struct {
		name, body string
		notStarted bool
		says       string
	}{
		{"exits", "echo skipped >&2\nexit 0\n", true, "did not start: the worker exited: skipped"},
		{"fails", "exit 3\n", true, "did not start: the worker exited (exit status 3)"},
		{"not a worker", "echo not-a-handshake\n", false, "did not start with a handshake"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			script := filepath.Join(t.TempDir(), "worker")
			if err := os.WriteFile(script, []byte("#!/bin/sh\n"+tt.body), 0o755); err != nil {
				t.Fatal(err)
			}
			_, err := Start(context.Background(), "head", Command{Path: script}, nil)
			if err == nil || errors.Is(err, ErrNotStarted) != tt.notStarted || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("%v: want ErrNotStarted %v, saying %q", err, tt.notStarted, tt.says)
			}
		})
	}
}
