package githubapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

const contentsPath = "/repos/o/r/contents/"

func TestRetries(t *testing.T) {
	getFile := func(c *Client) error {
		_, _, err := c.GetFile(context.Background(), "o", "r", "f", "main")
		return err
	}
	putFile := func(c *Client) error {
		_, err := c.UpdateFile(context.Background(), "o", "r", "f", "main", "m",
			func(old []byte, _ bool) ([]byte, error) { return append(old, '!'), nil })
		return err
	}
	comment := func(c *Client) error {
		_, err := c.UpsertComment(context.Background(), "o", "r", 1, marker, marker+" report")
		return err
	}
	tests := []struct {
		name      string
		method    string // faults apply to this method on the call's endpoint
		prefix    string
		faults    []fakegithub.Fault
		call      func(*Client) error
		wantErr   bool
		wantCount int           // requests of method to prefix
		minSleep  time.Duration // the first sleep must be within [minSleep, minSleep+maxJitter]
		sleeps    int
	}{
		{name: "GET 500 then 200", method: "GET", prefix: contentsPath, call: getFile,
			faults: []fakegithub.Fault{fakegithub.ServerError(500)}, wantCount: 2, sleeps: 1},
		{name: "GET 502 503 504 then 200", method: "GET", prefix: contentsPath, call: getFile,
			faults:    []fakegithub.Fault{fakegithub.ServerError(502), fakegithub.ServerError(503), fakegithub.ServerError(504)},
			wantCount: 4, sleeps: 3},
		{name: "GET 5xx past MaxRetries", method: "GET", prefix: contentsPath, call: getFile, wantErr: true,
			faults: []fakegithub.Fault{fakegithub.ServerError(503), fakegithub.ServerError(503), fakegithub.ServerError(503),
				fakegithub.ServerError(503), fakegithub.ServerError(503)},
			wantCount: 5, sleeps: 4},
		{name: "GET 501 is final", method: "GET", prefix: contentsPath, call: getFile, wantErr: true,
			faults: []fakegithub.Fault{fakegithub.ServerError(501)}, wantCount: 1},
		{name: "PUT 502 re-sends the body", method: "PUT", prefix: contentsPath, call: putFile,
			faults: []fakegithub.Fault{fakegithub.ServerError(502)}, wantCount: 2, sleeps: 1},
		{name: "POST 500 is not retried", method: "POST", prefix: "/repos/o/r/issues/1/comments", call: comment, wantErr: true,
			faults: []fakegithub.Fault{fakegithub.ServerError(500)}, wantCount: 1},
		{name: "POST 429 is retried", method: "POST", prefix: "/repos/o/r/issues/1/comments", call: comment,
			faults:    []fakegithub.Fault{fakegithub.TooManyRequests(2 * time.Second)},
			wantCount: 2, minSleep: 2 * time.Second, sleeps: 1},
		{name: "GET 429 Retry-After 2", method: "GET", prefix: "/repos/o/r/issues/1/comments", call: comment,
			faults:    []fakegithub.Fault{fakegithub.TooManyRequests(2 * time.Second)},
			wantCount: 2, minSleep: 2 * time.Second, sleeps: 1},
		{name: "403 secondary limit with Retry-After", method: "PATCH", prefix: "/repos/o/r/issues/comments/", call: comment,
			faults:    []fakegithub.Fault{fakegithub.SecondaryRateLimit(3 * time.Second)},
			wantCount: 2, minSleep: 3 * time.Second, sleeps: 1},
		{name: "403 secondary limit without Retry-After waits a minute", method: "POST", prefix: "/repos/o/r/issues/1/comments", call: comment,
			faults:    []fakegithub.Fault{fakegithub.SecondaryRateLimit(0)},
			wantCount: 2, minSleep: time.Minute, sleeps: 1},
		{name: "primary limit resetting soon", method: "GET", prefix: contentsPath, call: getFile,
			faults:    []fakegithub.Fault{fakegithub.PrimaryRateLimit(time.Now().Add(3 * time.Second))},
			wantCount: 2, minSleep: 2 * time.Second, sleeps: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, sl := setup(t)
			srv.SetFile("o", "r", "main", "f", []byte("data"))
			if tt.method == "PATCH" {
				srv.AddComment("o", "r", 1, "github-actions[bot]", "Bot", marker)
			}
			srv.Inject(tt.method, tt.prefix, tt.faults...)
			err := tt.call(c)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if n := srv.CountRequests(tt.method, tt.prefix); n != tt.wantCount {
				t.Errorf("%d %s requests, want %d", n, tt.method, tt.wantCount)
			}
			got := sl.all()
			const maxJitter = 2 * time.Second
			if len(got) != tt.sleeps || (tt.sleeps > 0 && (got[0] < tt.minSleep || got[0] > tt.minSleep+maxJitter)) {
				t.Errorf("sleeps = %v, want %d, the first in [%v, %v]", got, tt.sleeps, tt.minSleep, tt.minSleep+maxJitter)
			}
			if tt.method == "PUT" {
				var bodies [][]byte
				for _, r := range srv.Requests() {
					if r.Method == "PUT" {
						bodies = append(bodies, r.Body)
					}
				}
				if len(bodies[0]) == 0 || !bytes.Equal(bodies[0], bodies[1]) {
					t.Errorf("retried PUT body %q differs from the first %q", bodies[1], bodies[0])
				}
			}
			if tt.method == "POST" && !tt.wantErr && len(srv.Comments("o", "r", 1)) != 1 {
				t.Errorf("%d comments, want exactly 1", len(srv.Comments("o", "r", 1)))
			}
		})
	}
}

func TestPOST500ErrorSaysWhyNotRetried(t *testing.T) {
	c, srv, _ := setup(t)
	srv.Inject("POST", "", fakegithub.ServerError(500))
	_, err := c.UpsertComment(context.Background(), "o", "r", 1, marker, "x")
	if err == nil || !strings.Contains(err.Error(), "duplicate") || len(srv.Comments("o", "r", 1)) != 0 {
		t.Fatalf("err = %v", err)
	}
}

// TestNetworkErrorRetriedForReads uses a closed server: connection refused is
// retried for a GET, MaxRetries times, then reported as unreachable.
func TestNetworkErrorRetriedForReads(t *testing.T) {
	c, srv, sl := setup(t)
	srv.Close()
	_, _, err := c.GetFile(context.Background(), "o", "r", "f", "main")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the GitHub API") {
		t.Fatalf("err = %v", err)
	}
	if n := len(sl.all()); n != DefaultMaxRetries {
		t.Errorf("%d sleeps, want %d", n, DefaultMaxRetries)
	}
}

func TestTimeBudget(t *testing.T) {
	tests := []struct {
		name       string
		maxElapsed time.Duration
		realSleep  bool
		fault      fakegithub.Fault
		wantIs     error
		wantMsg    []string
	}{
		{name: "hanging server", maxElapsed: 300 * time.Millisecond, realSleep: true, fault: fakegithub.Hang(),
			wantIs: context.DeadlineExceeded, wantMsg: []string{"300ms time budget"}},
		{name: "Retry-After beyond the budget", maxElapsed: time.Second, fault: fakegithub.TooManyRequests(time.Hour),
			wantIs: ErrRateLimited, wantMsg: []string{"1h0m0s", "1s time budget"}},
		{name: "secondary limit beyond the budget", maxElapsed: time.Second, fault: fakegithub.SecondaryRateLimit(10 * time.Minute),
			wantIs: ErrRateLimited, wantMsg: []string{"10m0s", "time budget"}},
		{name: "primary limit resets after the budget", maxElapsed: time.Second, fault: fakegithub.PrimaryRateLimit(time.Now().Add(time.Hour)),
			wantIs: ErrRateLimited, wantMsg: []string{"used up until", "UTC", "time budget"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, sl := setup(t, func(o *Options) {
				o.MaxElapsed = tt.maxElapsed
				if tt.realSleep {
					o.Sleep = nil
				}
			})
			srv.Inject("GET", "", tt.fault)
			start := time.Now()
			_, err := c.UpsertComment(context.Background(), "o", "r", 1, marker, "x")
			if took := time.Since(start); took > tt.maxElapsed+time.Second {
				t.Errorf("took %v, bound is %v", took, tt.maxElapsed)
			}
			if !errors.Is(err, tt.wantIs) {
				t.Fatalf("err = %v, want %v", err, tt.wantIs)
			}
			for _, want := range tt.wantMsg {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if got := sl.all(); len(got) != 0 {
				t.Errorf("slept %v; a wait beyond the budget must fail at once", got)
			}
			if n := srv.CountRequests("POST", ""); n != 0 {
				t.Errorf("%d POSTs after the listing failed", n)
			}
		})
	}
}

// TestTokenNeverLeaks drives every failure path with a distinctive token and
// checks that no error text in the whole chain contains it. Each prep makes
// both the comment and the file call fail.
func TestTokenNeverLeaks(t *testing.T) {
	tests := []struct {
		name string
		prep func(*fakegithub.Server)
	}{
		{"401 bad credentials", func(s *fakegithub.Server) { s.AddToken("other", fakegithub.ActionsBot) }},
		{"403 read-only token", func(s *fakegithub.Server) {
			s.AddToken(testToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
		}},
		{"server echoes the token", func(s *fakegithub.Server) {
			f := fakegithub.Fault{Status: 400,
				Body: `{"message":"bad header Bearer ` + testToken + `","errors":[{"message":"` + testToken + `"}]}`}
			s.Inject("", "", f, f)
		}},
		{"network failure", func(s *fakegithub.Server) { s.Close() }},
		{"hang", func(s *fakegithub.Server) { s.Inject("", "", fakegithub.Hang(), fakegithub.Hang()) }},
		{"rate limited", func(s *fakegithub.Server) {
			s.Inject("", "", fakegithub.TooManyRequests(time.Hour), fakegithub.TooManyRequests(time.Hour))
		}},
		{"500", func(s *fakegithub.Server) { s.Inject("", "", fakegithub.ServerError(500), fakegithub.ServerError(500)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, _ := setup(t, func(o *Options) { o.MaxElapsed = 300 * time.Millisecond; o.MaxRetries = -1 })
			tt.prep(srv)
			_, cerr := c.UpsertComment(context.Background(), "o", "r", 1, marker, "x")
			_, ferr := c.UpdateFile(context.Background(), "o", "r", "f", "main", "m",
				func([]byte, bool) ([]byte, error) { return []byte("x"), nil })
			for _, err := range []error{cerr, ferr} {
				if err == nil {
					t.Fatal("want an error")
				}
				for _, text := range errorTexts(err) {
					if strings.Contains(text, testToken) {
						t.Errorf("token leaked: %s", text)
					}
				}
			}
			if tt.name != "network failure" {
				if r := srv.Requests(); len(r) == 0 || r[0].Header.Get("Authorization") != "Bearer "+testToken {
					t.Error("the token was not sent, so this test proves nothing")
				}
			}
		})
	}
}

// errorTexts is the message of err and of every error it wraps, in several
// formats.
func errorTexts(err error) []string {
	if err == nil || reflect.ValueOf(err).Kind() == reflect.Pointer && reflect.ValueOf(err).IsNil() {
		return nil
	}
	out := []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%q", err)}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, errorTexts(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, errorTexts(e)...)
		}
	}
	return out
}
