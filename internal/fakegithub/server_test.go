package fakegithub

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v93/github"
)

// newClient returns a go-github client for s authenticated with token; the
// fake's answers must decode with the real client library.
func newClient(t *testing.T, s *Server, token string) *github.Client {
	t.Helper()
	opts := []github.ClientOptionsFunc{github.WithURLs(new(s.URL+"/"), new(s.URL+"/")), github.WithDisableRateLimitCheck()}
	if token != "" {
		opts = append(opts, github.WithAuthToken(token))
	}
	c, err := github.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func status(resp *github.Response) int {
	if resp == nil {
		return 0
	}
	return resp.StatusCode
}

func TestCommentsRoundTrip(t *testing.T) {
	s := New()
	defer s.Close()
	gh := newClient(t, s, "tkn")
	ctx := context.Background()

	c, resp, err := gh.Issues.CreateComment(ctx, "o", "r", 7, github.IssueCommentRequest{Body: "hello"})
	if err != nil || status(resp) != http.StatusCreated {
		t.Fatalf("create: %v (status %d)", err, status(resp))
	}
	if c.GetUser().GetLogin() != "github-actions[bot]" || c.GetUser().GetType() != "Bot" || c.GetID() == 0 ||
		!strings.Contains(c.GetHTMLURL(), "#issuecomment-") || c.GetCreatedAt().IsZero() {
		t.Errorf("created comment has wrong shape: %+v", c)
	}

	u, _, err := gh.Issues.UpdateComment(ctx, "o", "r", c.GetID(), github.IssueCommentRequest{Body: "edited"})
	if err != nil || u.GetBody() != "edited" || u.GetID() != c.GetID() {
		t.Fatalf("update: %v, %+v", err, u)
	}
	got := s.Comments("o", "r", 7)
	if len(got) != 1 || got[0].Body != "edited" {
		t.Errorf("stored comments = %+v, want one edited", got)
	}
	if _, resp, err := gh.Issues.UpdateComment(ctx, "o", "r", 1, github.IssueCommentRequest{Body: "x"}); status(resp) != 404 {
		t.Errorf("update of unknown comment: status %d, err %v; want 404", status(resp), err)
	}
}

func TestCommentsPagination(t *testing.T) {
	s := New()
	defer s.Close()
	for i := range 250 {
		s.AddComment("o", "r", 1, "someone", "User", strings.Repeat("x", i+1))
	}
	s.AddComment("o", "r", 2, "someone", "User", "other PR")
	gh := newClient(t, s, "tkn")

	tests := []struct {
		perPage, page, wantLen, wantNext, wantLast int
	}{
		{100, 1, 100, 2, 3},
		{100, 3, 50, 0, 0},
		{0, 1, 30, 2, 9},    // GitHub's default page size
		{500, 1, 100, 2, 3}, // capped at 100
	}
	for _, tt := range tests {
		cs, resp, err := gh.Issues.ListComments(context.Background(), "o", "r", 1,
			&github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: tt.perPage, Page: tt.page}})
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != tt.wantLen || resp.NextPage != tt.wantNext || resp.LastPage != tt.wantLast {
			t.Errorf("per_page=%d page=%d: len %d next %d last %d, want %d %d %d",
				tt.perPage, tt.page, len(cs), resp.NextPage, resp.LastPage, tt.wantLen, tt.wantNext, tt.wantLast)
		}
	}

	n := 0
	for c, err := range gh.Issues.ListCommentsIter(context.Background(), "o", "r", 1,
		&github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if len(c.GetBody()) != n {
			t.Fatalf("comment %d out of order: body length %d", n, len(c.GetBody()))
		}
	}
	if n != 250 {
		t.Errorf("iterator saw %d comments, want 250", n)
	}
}

func TestCommentValidationAndAuth(t *testing.T) {
	s := New()
	defer s.Close()
	s.AddToken("rw", ActionsBot)
	s.AddToken("fork", Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
	ctx := context.Background()

	tests := []struct {
		name, token, body string
		wantStatus        int
		wantMsg           string
	}{
		{"ok", "rw", "hi", 201, ""},
		{"exactly the limit", "rw", strings.Repeat("é", MaxCommentChars), 201, ""},
		{"too long", "rw", strings.Repeat("a", MaxCommentChars+1), 422, "Validation Failed"},
		{"empty", "rw", "", 422, "Validation Failed"},
		{"fork token", "fork", "hi", 403, "Resource not accessible by integration"},
		{"unknown token", "nope", "hi", 401, "Bad credentials"},
		{"no token", "", "hi", 401, "Requires authentication"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, err := newClient(t, s, tt.token).Issues.CreateComment(ctx, "o", "r", 1, github.IssueCommentRequest{Body: tt.body})
			if status(resp) != tt.wantStatus {
				t.Fatalf("status %d (%v), want %d", status(resp), err, tt.wantStatus)
			}
			if tt.wantMsg == "" {
				return
			}
			var er *github.ErrorResponse
			if !errors.As(err, &er) || er.Message != tt.wantMsg || er.DocumentationURL == "" {
				t.Fatalf("error = %#v, want message %q with documentation_url", err, tt.wantMsg)
			}
			if tt.name == "too long" && (len(er.Errors) != 1 || er.Errors[0].Field != "body" ||
				er.Errors[0].Message != "body is too long (maximum is 65536 characters)") {
				t.Errorf("errors = %+v", er.Errors)
			}
		})
	}
}

// TestEditOnlyOwnComments: as on GitHub, a token cannot edit a comment
// another account wrote: 403 with GitHub's error body, and the comment
// stays as it was.
func TestEditOnlyOwnComments(t *testing.T) {
	s := New()
	defer s.Close()
	s.AddToken("actions", ActionsBot)
	s.AddToken("pat", Identity{Login: "octocat", Type: "User"})
	ctx := context.Background()
	tests := []struct {
		name, token, author, authorType string
		wantStatus                      int
	}{
		{"own bot comment", "actions", "github-actions[bot]", "Bot", 200},
		{"own user comment", "pat", "octocat", "User", 200},
		{"login compared without case", "pat", "OctoCat", "User", 200},
		{"another bot's comment", "actions", "quoting-app[bot]", "Bot", 403},
		{"a user's comment, bot token", "actions", "mallory", "User", 403},
		{"a bot's comment, user token", "pat", "github-actions[bot]", "Bot", 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := s.AddComment("o", "r", 3, tt.author, tt.authorType, "original")
			_, resp, err := newClient(t, s, tt.token).Issues.UpdateComment(ctx, "o", "r", c.ID, github.IssueCommentRequest{Body: "edited"})
			if status(resp) != tt.wantStatus {
				t.Fatalf("status %d (%v), want %d", status(resp), err, tt.wantStatus)
			}
			var body string
			for _, got := range s.Comments("o", "r", 3) {
				if got.ID == c.ID {
					body = got.Body
				}
			}
			if tt.wantStatus != 200 {
				var er *github.ErrorResponse
				if !errors.As(err, &er) || er.Message != "Resource not accessible by integration" || er.DocumentationURL == "" {
					t.Errorf("error = %#v, want GitHub's 403 body", err)
				}
				if body != "original" {
					t.Errorf("refused edit changed the comment to %q", body)
				}
			} else if body != "edited" {
				t.Errorf("comment reads %q after an allowed edit", body)
			}
		})
	}
}

// TestAuthenticatedUser: GET /user names a user's token's account and
// refuses an installation token as GitHub does.
func TestAuthenticatedUser(t *testing.T) {
	s := New()
	defer s.Close()
	s.AddToken("actions", ActionsBot)
	s.AddToken("pat", Identity{Login: "octocat", Type: "User"})
	ctx := context.Background()

	u, _, err := newClient(t, s, "pat").Users.Get(ctx, "")
	if err != nil || u.GetLogin() != "octocat" || u.GetType() != "User" || u.GetID() == 0 {
		t.Errorf("GET /user with a personal token: %+v, %v", u, err)
	}
	_, resp, err := newClient(t, s, "actions").Users.Get(ctx, "")
	var er *github.ErrorResponse
	if status(resp) != 403 || !errors.As(err, &er) || er.Message != "Resource not accessible by integration" ||
		!strings.HasSuffix(er.DocumentationURL, "#get-the-authenticated-user") {
		t.Errorf("GET /user with an installation token: status %d, %v; want 403 Resource not accessible by integration", status(resp), err)
	}
	if _, resp, _ := newClient(t, s, "unknown").Users.Get(ctx, ""); status(resp) != 401 {
		t.Errorf("GET /user with an unknown token: status %d, want 401", status(resp))
	}
}

func TestContentsCreateUpdateConflict(t *testing.T) {
	s := New()
	defer s.Close()
	gh := newClient(t, s, "tkn")
	ctx := context.Background()
	get := &github.RepositoryContentGetOptions{Ref: "main"}

	_, _, resp, err := gh.Repositories.GetContents(ctx, "o", "r", "b/base.json", get)
	var er *github.ErrorResponse
	if status(resp) != 404 || !errors.As(err, &er) || er.Message != "Not Found" {
		t.Fatalf("absent file: status %d err %v", status(resp), err)
	}

	first := []byte("hello world\n")
	cr, resp, err := gh.Repositories.CreateFile(ctx, "o", "r", "b/base.json",
		&github.RepositoryContentFileOptions{Message: new("create"), Content: first, Branch: new("main")})
	if err != nil || status(resp) != 201 {
		t.Fatalf("create: %v", err)
	}
	// The sha git itself computes for "hello world\n".
	const helloSHA = "3b18e512dba79e4c8300dd08aeb37f8e728b8dad"
	if cr.Content.GetSHA() != helloSHA || cr.Content.GetName() != "base.json" || cr.Content.GetPath() != "b/base.json" ||
		cr.GetSHA() == "" || len(cr.Parents) != 0 {
		t.Errorf("create response: content %+v commit %+v", cr.Content, cr.Commit)
	}

	fc, _, _, err := gh.Repositories.GetContents(ctx, "o", "r", "b/base.json", get)
	if err != nil {
		t.Fatal(err)
	}
	text, err := fc.GetContent()
	if err != nil || text != string(first) || fc.GetSHA() != helloSHA || fc.GetEncoding() != "base64" || fc.GetSize() != len(first) {
		t.Errorf("get: %q %v %+v", text, err, fc)
	}

	put := func(sha *string, content string) (*github.RepositoryContentResponse, *github.Response, error) {
		return gh.Repositories.UpdateFile(ctx, "o", "r", "b/base.json",
			&github.RepositoryContentFileOptions{Message: new("update"), Content: []byte(content), SHA: sha, Branch: new("main")})
	}
	if _, resp, err := put(nil, "x"); status(resp) != 422 || !strings.Contains(err.Error(), `"sha" wasn't supplied`) {
		t.Errorf("missing sha: status %d err %v", status(resp), err)
	}
	if _, resp, err := put(new("0000000000000000000000000000000000000000"), "x"); status(resp) != 409 ||
		!strings.Contains(err.Error(), "b/base.json does not match 0000000000000000000000000000000000000000") {
		t.Errorf("stale sha: status %d err %v", status(resp), err)
	}
	ur, resp, err := put(new(helloSHA), "second\n")
	if err != nil || status(resp) != 200 || len(ur.Parents) != 1 || ur.Parents[0].GetSHA() != cr.GetSHA() {
		t.Fatalf("update: status %d err %v", status(resp), err)
	}
	if content, sha, _ := s.File("o", "r", "main", "b/base.json"); string(content) != "second\n" || sha != ur.Content.GetSHA() {
		t.Errorf("stored %q %s", content, sha)
	}
	if cs := s.Commits(); len(cs) != 2 || cs[1].SHA != ur.GetSHA() || cs[1].Message != "update" {
		t.Errorf("commits = %+v", cs)
	}

	if _, resp, _ := gh.Repositories.CreateFile(ctx, "o", "r", "x", &github.RepositoryContentFileOptions{
		Message: new("m"), Content: []byte("x"), Branch: new("nope")}); status(resp) != 404 {
		t.Errorf("write to missing branch: status %d, want 404", status(resp))
	}
	if _, _, resp, _ := gh.Repositories.GetContents(ctx, "o", "r", "b/base.json", &github.RepositoryContentGetOptions{Ref: "nope"}); status(resp) != 404 {
		t.Errorf("read at missing ref: status %d, want 404", status(resp))
	}
}

func TestContentsEncoding(t *testing.T) {
	s := New()
	defer s.Close()
	gh := newClient(t, s, "tkn")
	ctx := context.Background()

	medium := bytes.Repeat([]byte("0123456789"), 100)
	s.SetFile("o", "r", "main", "m.txt", medium)
	fc, _, _, err := gh.Repositories.GetContents(ctx, "o", "r", "m.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(rawContent(fc), "\n"), "\n")
	for i, l := range lines[:len(lines)-1] {
		if len(l) != 60 {
			t.Fatalf("base64 line %d has %d chars, want 60 as GitHub sends", i, len(l))
		}
	}

	big := bytes.Repeat([]byte("a"), MaxInlineContentSize+1)
	sha := s.SetFile("o", "r", "main", "big.bin", big)
	fc, _, _, err = gh.Repositories.GetContents(ctx, "o", "r", "big.bin", nil)
	if err != nil || fc.GetEncoding() != "none" || rawContent(fc) != "" || fc.GetSHA() != sha || fc.GetSize() != len(big) {
		t.Fatalf("large file metadata: %v %+v", err, fc)
	}
	raw, _, err := gh.Git.GetBlobRaw(ctx, "o", "r", sha)
	if err != nil || !bytes.Equal(raw, big) {
		t.Errorf("GetBlobRaw: %v, %d bytes", err, len(raw))
	}
	rc, _, err := gh.Repositories.DownloadContents(ctx, "o", "r", "big.bin", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if got, _ := io.ReadAll(rc); !bytes.Equal(got, big) {
		t.Errorf("DownloadContents returned %d bytes, want %d", len(got), len(big))
	}
}

func TestFaults(t *testing.T) {
	s := New()
	defer s.Close()
	gh := newClient(t, s, "tkn")
	ctx := context.Background()
	list := func() (*github.Response, error) {
		_, resp, err := gh.Issues.ListComments(ctx, "o", "r", 1, nil)
		return resp, err
	}

	s.Inject("GET", "/repos/o/r/issues/", ServerError(502), TooManyRequests(2*time.Second))
	s.Inject("POST", "", ServerError(500)) // must not affect GETs
	if resp, _ := list(); status(resp) != 502 {
		t.Errorf("first fault: %d, want 502", status(resp))
	}
	if resp, _ := list(); status(resp) != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("second fault: %d %q, want 429 with Retry-After 2", status(resp), resp.Header.Get("Retry-After"))
	}
	if resp, err := list(); err != nil || status(resp) != 200 {
		t.Errorf("after faults: %d %v", status(resp), err)
	}
	if s.PendingFaults() != 1 {
		t.Errorf("pending faults = %d, want the POST one left", s.PendingFaults())
	}

	s.Inject("", "", SecondaryRateLimit(3*time.Second))
	_, err := list()
	var abuse *github.AbuseRateLimitError
	if !errors.As(err, &abuse) || abuse.GetRetryAfter() != 3*time.Second {
		t.Errorf("secondary limit decoded as %#v, want AbuseRateLimitError with RetryAfter 3s", err)
	}

	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	s.Inject("", "", PrimaryRateLimit(reset))
	_, err = list()
	var rl *github.RateLimitError
	if !errors.As(err, &rl) || !rl.Rate.Reset.Time.Equal(reset) || rl.Rate.Remaining != 0 {
		t.Errorf("primary limit decoded as %#v, want RateLimitError resetting at %v", err, reset)
	}

	s.Inject("", "", Hang())
	hctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = gh.Issues.ListComments(hctx, "o", "r", 1, nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("hang: err %v after %v", err, time.Since(start))
	}

	if got := s.CountRequests("GET", "/repos/o/r/issues/1/comments"); got != 6 {
		t.Errorf("recorded %d GETs, want 6", got)
	}
	if r := s.Requests()[0]; r.Header.Get("Authorization") != "Bearer tkn" {
		t.Errorf("recorded Authorization = %q", r.Header.Get("Authorization"))
	}
}

func TestConcurrentWriterForcesConflict(t *testing.T) {
	s := New()
	defer s.Close()
	gh := newClient(t, s, "tkn")
	ctx := context.Background()
	sha := s.SetFile("o", "r", "main", "f", []byte("a\n"))
	s.ConcurrentWriter("o", "r", "main", "f", 1, func(old []byte) []byte { return append(old, "other\n"...) })

	_, resp, err := gh.Repositories.UpdateFile(ctx, "o", "r", "f",
		&github.RepositoryContentFileOptions{Message: new("m"), Content: []byte("a\nmine\n"), SHA: new(sha)})
	if status(resp) != 409 {
		t.Fatalf("status %d (%v), want 409", status(resp), err)
	}
	content, newSHA, _ := s.File("o", "r", "main", "f")
	if string(content) != "a\nother\n" {
		t.Fatalf("file = %q, want the other writer's content", content)
	}
	if _, _, err := gh.Repositories.UpdateFile(ctx, "o", "r", "f",
		&github.RepositoryContentFileOptions{Message: new("m"), Content: []byte("a\nother\nmine\n"), SHA: new(newSHA)}); err != nil {
		t.Fatalf("second attempt with fresh sha: %v", err)
	}
	if cs := s.Commits(); len(cs) != 3 || cs[1].Author != "concurrent-writer" {
		t.Errorf("commits = %+v", cs)
	}
}

// TestConcurrentUse runs many clients at once; with -race it checks locking.
func TestConcurrentUse(t *testing.T) {
	s := New()
	defer s.Close()
	gh := newClient(t, s, "tkn")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			ctx := context.Background()
			if _, _, err := gh.Issues.CreateComment(ctx, "o", "r", 1, github.IssueCommentRequest{Body: "c"}); err != nil {
				t.Error(err)
			}
			if _, _, err := gh.Issues.ListComments(ctx, "o", "r", 1, nil); err != nil {
				t.Error(err)
			}
			s.SetFile("o", "r", "main", "f", []byte{byte(i)})
			_ = s.Requests()
		})
	}
	wg.Wait()
	if got := len(s.Comments("o", "r", 1)); got != 20 {
		t.Errorf("%d comments, want 20", got)
	}
}

func TestNewOn(t *testing.T) {
	s, err := NewOn("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := newClient(t, s, "tkn").Issues.ListComments(context.Background(), "o", "r", 1, nil); err != nil {
		t.Fatal(err)
	}
}

// rawContent is the "content" field as sent, before base64 decoding.
func rawContent(fc *github.RepositoryContent) string {
	if fc == nil || fc.Content == nil {
		return ""
	}
	return *fc.Content
}
