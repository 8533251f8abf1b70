package fakegithub

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault is a scripted response that replaces the normal handling of one
// request. It is played before authentication, like a failure at GitHub's
// edge would be.
type Fault struct {
	Status int
	Header http.Header // extra headers, e.g. Retry-After
	Body   string      // JSON body; empty means {"message": <status text>}
	// Hang blocks the request until the client gives up or the server is
	// closed, to test that the client bounds its total time.
	Hang bool
}

type queuedFault struct {
	method, pathPrefix string
	fault              Fault
}

// Inject queues faults for requests whose method equals method ("" for any)
// and whose URL path starts with pathPrefix ("" for any). Each matching
// request consumes the first queued fault that matches it, so
// Inject("GET", "/repos/o/r/contents/", ServerError(500)) fails one read and
// Inject("", "", f, f, f) fails the next three requests of any kind.
func (s *Server) Inject(method, pathPrefix string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range faults {
		s.faults = append(s.faults, queuedFault{method, pathPrefix, f})
	}
}

// PendingFaults is how many injected faults have not been played yet.
func (s *Server) PendingFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.faults)
}

// takeFault removes and returns the first fault matching r. s.mu is held.
func (s *Server) takeFault(r *http.Request) (Fault, bool) {
	for i, q := range s.faults {
		if (q.method == "" || q.method == r.Method) && strings.HasPrefix(r.URL.Path, q.pathPrefix) {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			return q.fault, true
		}
	}
	return Fault{}, false
}

func (f Fault) serve(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
	if f.Hang {
		select {
		case <-r.Context().Done():
		case <-done:
		}
		return
	}
	for k, vs := range f.Header {
		for _, v := range vs {
			w.Header().Set(k, v)
		}
	}
	if f.Body == "" {
		writeError(w, f.Status, http.StatusText(f.Status), "https://docs.github.com/rest", nil)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(f.Status)
	_, _ = w.Write([]byte(f.Body))
}

// ServerError is a bare 5xx (500, 502, 503, ...) as GitHub's front end sends.
func ServerError(status int) Fault { return Fault{Status: status} }

// Hang never answers; see Fault.Hang.
func Hang() Fault { return Fault{Hang: true} }

// TooManyRequests is a 429 with Retry-After in whole seconds.
func TooManyRequests(retryAfter time.Duration) Fault {
	return Fault{
		Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {seconds(retryAfter)}},
		Body:   `{"message":"Too Many Requests","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api","status":"429"}`,
	}
}

// SecondaryRateLimit is the 403 GitHub sends when a secondary (abuse) rate
// limit is hit; retryAfter <= 0 omits the Retry-After header.
func SecondaryRateLimit(retryAfter time.Duration) Fault {
	f := Fault{
		Status: http.StatusForbidden,
		Header: http.Header{},
		Body: `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again. ` +
			`If you reach out to GitHub Support for help, please include the request ID FAKE:0000.",` +
			`"documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits","status":"403"}`,
	}
	if retryAfter > 0 {
		f.Header.Set("Retry-After", seconds(retryAfter))
	}
	return f
}

// PrimaryRateLimit is the 403 GitHub sends when the hourly quota is used up
// until reset.
func PrimaryRateLimit(reset time.Time) Fault {
	return Fault{
		Status: http.StatusForbidden,
		Header: http.Header{
			"X-Ratelimit-Limit":     {"1000"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Used":      {"1000"},
			"X-Ratelimit-Reset":     {strconv.FormatInt(reset.Unix(), 10)},
			"X-Ratelimit-Resource":  {"core"},
		},
		Body: `{"message":"API rate limit exceeded for installation ID 1. If you reach out to GitHub Support for help, please include the request ID FAKE:0000.",` +
			`"documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits","status":"403"}`,
	}
}

func seconds(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }
