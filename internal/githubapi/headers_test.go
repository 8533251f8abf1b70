package githubapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// answer is a bare response with headers, for retryWait.
func answer(status int, header http.Header, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(strings.NewReader(body))}
}

// TestHeaderWaits: the wait a rate-limit answer asks for is clamped to
// maxWait, so no header value overflows into a negative (instant) retry.
func TestHeaderWaits(t *testing.T) {
	get, _ := http.NewRequest(http.MethodGet, "https://api.github.com/x", nil)
	farReset := strconv.FormatInt(time.Now().Add(100*365*24*time.Hour).Unix(), 10)
	tests := []struct {
		name      string
		status    int
		header    http.Header
		want      time.Duration // 0: no retry
		tolerance time.Duration
	}{
		{"Retry-After 2", 429, http.Header{"Retry-After": {"2"}}, 2 * time.Second, 0},
		{"Retry-After that overflowed Duration", 429, http.Header{"Retry-After": {"9223372037"}}, maxWait, 0},
		{"Retry-After beyond int64", 429, http.Header{"Retry-After": {"99999999999999999999"}}, secondaryWait, 0},
		{"Retry-After negative", 429, http.Header{"Retry-After": {"-5"}}, secondaryWait, 0},
		{"reset a century ahead", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {farReset}}, maxWait + time.Second, 0},
		{"reset at the end of int64", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"9223372036854775807"}}, maxWait + time.Second, 0},
		{"reset in the past", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"1"}}, time.Second, 0},
		{"reset in 10s", 403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(time.Now().Add(10*time.Second).Unix(), 10)}}, 11 * time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, retry := retryWait(get, answer(tt.status, tt.header, `{"message":"limited"}`), nil, 0)
			if !retry {
				t.Fatalf("not retried, want a wait of %s", tt.want)
			}
			if got < tt.want-tt.tolerance || got > tt.want+tt.tolerance {
				t.Errorf("wait %s, want %s (±%s)", got, tt.want, tt.tolerance)
			}
		})
	}
}

// TestAbsurdRetryAfterFailsAtOnce: a Retry-After past any budget makes the
// call fail at once with the wait named, not retry instantly.
func TestAbsurdRetryAfterFailsAtOnce(t *testing.T) {
	c, srv, sl := setup(t)
	srv.Inject("GET", "", fakegithub.Fault{Status: 429, Header: http.Header{"Retry-After": {"9223372037"}}})
	_, _, err := c.GetFile(context.Background(), "o", "r", "f", "main")
	if !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), "24h0m0s") {
		t.Fatalf("err = %v, want ErrRateLimited naming the clamped wait", err)
	}
	if n := len(sl.all()); n != 0 {
		t.Errorf("%d sleeps, want none: the wait does not fit the budget", n)
	}
	if n := srv.CountRequests("GET", ""); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
