package githubapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	baseBackoff = time.Second
	maxBackoff  = 30 * time.Second
	// secondaryWait is how long to wait after a rate-limit answer that says
	// neither Retry-After nor X-RateLimit-Reset: "at least one minute"
	// (GitHub docs, "Rate limits for the REST API").
	secondaryWait = time.Minute
	// maxWait bounds any wait a header asks for. A longer one never fits a
	// call's budget anyway (the call then fails at once, saying how long
	// GitHub asked to wait), and the bound keeps an absurd value — a
	// Retry-After of 9223372037 seconds, a reset in the year 3000 — from
	// overflowing time.Duration into a negative wait, an instant retry.
	maxWait = 24 * time.Hour
)

// retryTransport retries requests that failed transiently. It sits below
// go-github, so go-github only ever sees the final answer (and its own rate
// limit bookkeeping is disabled; see New).
//
// It retries network errors and 5xx answers (except 501) with exponential
// backoff and jitter, and 429 and 403 rate-limit answers after the wait GitHub
// asks for (Retry-After, else X-RateLimit-Reset when X-RateLimit-Remaining is
// 0, else a minute). It never re-sends a body it cannot re-obtain
// (req.GetBody == nil), and never repeats a POST that may have reached the
// server (network error after dialing, or 5xx): for comment creation a
// duplicate is worse than a failure. A POST rejected by a rate limit was not
// processed and is retried.
//
// When the wait would run past the request context's deadline (the
// Client's MaxElapsed budget), it gives up at once and returns the last
// answer, which the Client turns into a clear error.
type retryTransport struct {
	base       http.RoundTripper
	maxRetries int
	sleep      func(context.Context, time.Duration) error
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		try := req
		if attempt > 0 && req.Body != nil && req.Body != http.NoBody {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			try = req.Clone(ctx)
			try.Body = body
		}
		resp, err := t.base.RoundTrip(try)
		wait, retry := retryWait(req, resp, err, attempt)
		if !retry || attempt >= t.maxRetries || !fits(ctx, wait) {
			return resp, err
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
		}
		if err := t.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// retryWait decides whether the answer (resp, err) to req is worth another
// try, and after how long.
func retryWait(req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return 0, false // the body is gone; re-sending would send nothing
	}
	post := req.Method == http.MethodPost
	if err != nil {
		if req.Context().Err() != nil || (post && !isDialError(err)) {
			return 0, false
		}
		return backoff(attempt), true
	}
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests || code == http.StatusForbidden:
		return rateLimitWait(resp)
	case code >= 500 && code != http.StatusNotImplemented && !post:
		if d, ok := retryAfter(resp); ok {
			return d, true
		}
		return backoff(attempt), true
	}
	return 0, false
}

// rateLimitWait reports whether a 403 or 429 is a rate limit and how long
// GitHub asks to wait. A 403 that is not a rate limit (e.g. "Resource not
// accessible by integration") is final.
func rateLimitWait(resp *http.Response) (time.Duration, bool) {
	if d, ok := retryAfter(resp); ok {
		return d, true
	}
	if reset, ok := primaryReset(resp); ok {
		return untilReset(reset) + time.Second, true // the reset second itself may still be limited
	}
	if resp.StatusCode == http.StatusTooManyRequests || isSecondaryLimit(resp) {
		return secondaryWait, true
	}
	return 0, false
}

// retryAfter parses a Retry-After header given in seconds, as GitHub sends
// it, clamped to maxWait.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	s, err := strconv.ParseInt(strings.TrimSpace(resp.Header.Get("Retry-After")), 10, 64)
	if err != nil || s < 0 {
		return 0, false
	}
	if s > int64(maxWait/time.Second) {
		return maxWait, true
	}
	return time.Duration(s) * time.Second, true
}

// untilReset is the time from now to a rate limit's reset, within
// [0, maxWait]: a reset in the past is now, one far in the future no
// further than maxWait.
func untilReset(reset time.Time) time.Duration {
	return min(max(0, time.Until(reset)), maxWait)
}

// primaryReset is when an exhausted primary rate limit resets.
func primaryReset(resp *http.Response) (time.Time, bool) {
	if resp.Header.Get("X-RateLimit-Remaining") != "0" {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	// Beyond maxWait from now is as good as never, and time.Unix of a
	// second near the end of int64 wraps around into the past.
	sec = min(max(sec, 0), time.Now().Add(maxWait).Unix()+1)
	return time.Unix(sec, 0), true
}

// isSecondaryLimit peeks at a 403 body for GitHub's secondary rate limit
// message, leaving the body readable for go-github.
func isSecondaryLimit(resp *http.Response) bool {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	s := strings.ToLower(string(data))
	return strings.Contains(s, "secondary rate limit") || strings.Contains(s, "abuse")
}

// backoff is exponential (1s, 2s, 4s, ... capped at 30s) with jitter in the
// upper half, so parallel jobs do not retry in lockstep.
func backoff(attempt int) time.Duration {
	d := min(maxBackoff, baseBackoff<<min(attempt, 10))
	return d/2 + rand.N(d/2)
}

// fits reports whether waiting d still leaves time before ctx's deadline.
func fits(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) > d
}

// isDialError reports whether err happened while connecting, so the request
// cannot have reached the server.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
