package githubapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// scripted is a base RoundTripper that records each body it is sent and
// answers from a script: an error, or a status code.
type scripted struct {
	script []any // error or int
	bodies []string
}

func (s *scripted) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	s.bodies = append(s.bodies, string(body))
	step := s.script[min(len(s.bodies), len(s.script))-1]
	if err, ok := step.(error); ok {
		return nil, err
	}
	return &http.Response{StatusCode: step.(int), Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
}

// TestRetryTransportBodies checks the write-safety rules directly, below
// net/http, so nothing else can re-send a body on the transport's behalf.
func TestRetryTransportBodies(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	tests := []struct {
		name       string
		method     string
		rewindable bool
		script     []any
		wantSent   int
		wantStatus int // 0: want an error
	}{
		{"PUT 502 re-sends the same body", "PUT", true, []any{502, 200}, 2, 200},
		{"PUT without GetBody is not re-sent", "PUT", false, []any{502, 200}, 1, 502},
		{"POST 502 is not repeated", "POST", true, []any{502, 201}, 1, 502},
		{"POST 429 is repeated", "POST", true, []any{429, 201}, 2, 201},
		{"POST dial error is repeated: nothing was sent", "POST", true, []any{dial, 201}, 2, 201},
		{"POST broken connection is not repeated", "POST", true, []any{reset, 201}, 1, 0},
		{"PATCH broken connection is repeated", "PATCH", true, []any{reset, 200}, 2, 200},
		{"GET 403 without rate limit is final", "GET", true, []any{403, 200}, 1, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := &scripted{script: tt.script}
			sl := &sleeps{}
			rt := &retryTransport{base: base, maxRetries: 3, sleep: sl.sleep}
			req, _ := http.NewRequestWithContext(context.Background(), tt.method, "http://x/y", bytes.NewReader([]byte(`{"body":"payload"}`)))
			if !tt.rewindable {
				req.GetBody = nil
			}
			resp, err := rt.RoundTrip(req)
			if len(base.bodies) != tt.wantSent {
				t.Fatalf("sent %d times, want %d", len(base.bodies), tt.wantSent)
			}
			for i, b := range base.bodies {
				if b != `{"body":"payload"}` {
					t.Errorf("attempt %d sent body %q", i+1, b)
				}
			}
			switch {
			case tt.wantStatus == 0 && err == nil:
				t.Errorf("got status %d, want an error", resp.StatusCode)
			case tt.wantStatus != 0 && (err != nil || resp.StatusCode != tt.wantStatus):
				t.Errorf("got %v %v, want status %d", resp, err, tt.wantStatus)
			}
		})
	}
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	for attempt, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second} {
		for range 50 {
			if d := backoff(attempt); d < want/2 || d >= want {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v)", attempt, d, want/2, want)
			}
		}
	}
}
