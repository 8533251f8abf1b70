package githubapi

import (
	"net/http"
	"testing"
	"time"
)

// FuzzRetryWait feeds the headers the client acts on arbitrary values: a
// retry never waits less than nothing nor more than maxWait (plus the
// second added after a reset), and nothing panics. Run with:
// go test -fuzz FuzzRetryWait ./internal/githubapi
func FuzzRetryWait(f *testing.F) {
	f.Add(429, "2", "", "", "")
	f.Add(429, "9223372037", "", "", "")
	f.Add(403, "", "0", "9223372036854775807", "")
	f.Add(403, "", "0", "-9223372036854775808", "")
	f.Add(403, "", "5", "1", `{"message":"You have exceeded a secondary rate limit"}`)
	f.Add(503, "18446744073709551616", "", "", "")
	f.Fuzz(func(t *testing.T, status int, retryAfterHeader, remaining, reset, body string) {
		h := http.Header{}
		h.Set("Retry-After", retryAfterHeader)
		h.Set("X-RateLimit-Remaining", remaining)
		h.Set("X-RateLimit-Reset", reset)
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			req, _ := http.NewRequest(method, "https://api.github.com/x", nil)
			wait, retry := retryWait(req, answer(status, h, body), nil, 3)
			if retry && (wait < 0 || wait > maxWait+time.Second) {
				t.Fatalf("status %d, Retry-After %q, remaining %q, reset %q: wait %s outside [0, %s]", status, retryAfterHeader, remaining, reset, wait, maxWait+time.Second)
			}
		}
	})
}
