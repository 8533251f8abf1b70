package fakegithub

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultBranch is the branch every fake repository has and that reads and
// writes without an explicit ref or branch use.
const DefaultBranch = "main"

// Identity is who a token authenticates as.
type Identity struct {
	Login string // e.g. "github-actions[bot]"
	Type  string // "Bot" or "User"
	// ReadOnly makes every write answer 403 "Resource not accessible by
	// integration", as the GITHUB_TOKEN of a pull request from a fork does.
	ReadOnly bool
	// NoPullRequests makes the pull request endpoints answer 403, as for
	// a token whose permissions leave out pull-requests and contents.
	NoPullRequests bool
}

// ActionsBot is the identity of the GITHUB_TOKEN of a workflow run.
var ActionsBot = Identity{Login: "github-actions[bot]", Type: "Bot"}

// actionsBotID is github-actions[bot]'s real user id.
const actionsBotID = 41898282

// Request is one recorded HTTP request.
type Request struct {
	Method string
	Path   string // URL path, e.g. /repos/o/r/issues/7/comments
	Query  url.Values
	Header http.Header
	Body   []byte
}

// Server is a running fake GitHub API. The embedded httptest.Server gives its
// URL (use it as GITHUB_API_URL) and Client.
type Server struct {
	*httptest.Server

	mux       *http.ServeMux
	done      chan struct{} // closed by Close; releases hung requests
	closeOnce sync.Once

	mu       sync.Mutex
	tokens   map[string]Identity // empty: any non-empty token is ActionsBot
	requests []Request
	faults   []queuedFault
	used     int // requests served, for X-RateLimit-Used

	nextID   int64
	comments []*Comment

	branches map[string]map[string]string // "owner/repo" -> branch -> head commit sha
	files    map[fileKey][]byte
	blobs    map[string][]byte // blob sha -> content, for /git/blobs
	commits  []Commit
	writers  []*concurrentWriter
	pulls    map[string]map[int]PullRequest // "owner/repo" -> number -> pull request
	lines    map[string][]string            // "owner/repo" -> the default branch's commits, oldest first
	releases map[string][][2]string         // "owner/repo" -> releases (tag, sha), the latest last
}

// New starts a fake on a random loopback port.
func New() *Server {
	s := newServer()
	s.Server = httptest.NewUnstartedServer(s)
	s.Server.Start()
	return s
}

// NewOn starts a fake listening on addr, e.g. "127.0.0.1:0" or
// "0.0.0.0:8080" so that a container with host networking can reach it.
func NewOn(addr string) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("fakegithub: listen on %s: %w", addr, err)
	}
	s := newServer()
	s.Server = httptest.NewUnstartedServer(s)
	s.Server.Listener.Close()
	s.Server.Listener = l
	s.Server.Start()
	return s, nil
}

func newServer() *Server {
	s := &Server{
		mux:      http.NewServeMux(),
		done:     make(chan struct{}),
		tokens:   map[string]Identity{},
		nextID:   1000,
		branches: map[string]map[string]string{},
		files:    map[fileKey][]byte{},
		blobs:    map[string][]byte{},
	}
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/issues/{number}/comments", s.listComments)
	s.mux.HandleFunc("POST /repos/{owner}/{repo}/issues/{number}/comments", s.createComment)
	s.mux.HandleFunc("PATCH /repos/{owner}/{repo}/issues/comments/{id}", s.updateComment)
	s.mux.HandleFunc("GET /user", s.getUser)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/contents/{path...}", s.getContents)
	s.mux.HandleFunc("PUT /repos/{owner}/{repo}/contents/{path...}", s.putContents)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/git/blobs/{sha}", s.getBlob)
	s.mux.HandleFunc("GET /raw/{owner}/{repo}/{ref}/{path...}", s.getRaw)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/pulls", s.listPulls)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}/commits", s.listPullCommits)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/commits/{sha}/pulls", s.listCommitPulls)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/releases/latest", s.latestRelease)
	s.mux.HandleFunc("GET /repos/{owner}/{repo}/compare/{basehead}", s.compare)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest", nil)
	})
	return s
}

// Close releases hung requests and shuts the server down.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.done) })
	s.Server.Close()
}

// AddToken registers a token and who it authenticates as. Until the first
// call, any non-empty token is accepted as ActionsBot with write access;
// after it, unknown tokens get 401 "Bad credentials".
func (s *Server) AddToken(token string, id Identity) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = id
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// CountRequests counts recorded requests with the given method ("" for any)
// whose path starts with pathPrefix.
func (s *Server) CountRequests(method, pathPrefix string) int {
	n := 0
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && strings.HasPrefix(r.Path, pathPrefix) {
			n++
		}
	}
	return n
}

// ServeHTTP records the request, then plays a scripted fault if one matches,
// then authenticates, then routes to the endpoint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))

	s.mu.Lock()
	s.requests = append(s.requests, Request{
		Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
		Header: r.Header.Clone(), Body: body,
	})
	s.used++
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(max(0, 5000-s.used)))
	w.Header().Set("X-RateLimit-Used", strconv.Itoa(s.used))
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	w.Header().Set("X-RateLimit-Resource", "core")
	w.Header().Set("X-GitHub-Request-Id", fmt.Sprintf("FAKE:%04d", s.used))
	f, faulted := s.takeFault(r)
	s.mu.Unlock()

	if faulted {
		f.serve(w, r, s.done)
		return
	}
	id, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	s.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, id)))
}

type identityKey struct{}

// authenticate checks the Authorization header ("Bearer <t>" or "token <t>")
// and returns who the token belongs to, or answers 401.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (Identity, bool) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token == "" || !(strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "token")) {
		writeError(w, http.StatusUnauthorized, "Requires authentication", "https://docs.github.com/rest", nil)
		return Identity{}, false
	}
	s.mu.Lock()
	id, ok := s.tokens[token]
	if len(s.tokens) == 0 {
		id, ok = ActionsBot, true
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusUnauthorized, "Bad credentials", "https://docs.github.com/rest", nil)
	}
	return id, ok
}

// identity is the authenticated caller of a routed request.
func identity(r *http.Request) Identity {
	id, _ := r.Context().Value(identityKey{}).(Identity)
	return id
}

// canWrite answers 403 as GitHub does for a read-only (fork PR) token.
func canWrite(w http.ResponseWriter, r *http.Request, docURL string) bool {
	if identity(r).ReadOnly {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration", docURL, nil)
		return false
	}
	return true
}

// writeJSON writes v with GitHub's content type.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-GitHub-Media-Type", "github.v3; format=json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// validationError is one entry of the "errors" array of a 422 response.
type validationError struct {
	Resource string `json:"resource"`
	Code     string `json:"code"`
	Field    string `json:"field"`
	Message  string `json:"message,omitempty"`
}

// writeError writes GitHub's error body: message, optional errors,
// documentation_url and status (a string, as GitHub sends it).
func writeError(w http.ResponseWriter, status int, message, docURL string, errs []validationError) {
	body := map[string]any{"message": message, "documentation_url": docURL, "status": strconv.Itoa(status)}
	if errs != nil {
		body["errors"] = errs
	}
	writeJSON(w, status, body)
}

// gitSHA returns the git object id of an object of the given type, e.g. the
// blob sha GitHub reports for a file's content.
func gitSHA(kind string, content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// BlobSHA is the git blob sha1 of content, which the Contents API reports as
// a file's "sha" and expects back when updating it.
func BlobSHA(content []byte) string { return gitSHA("blob", content) }
