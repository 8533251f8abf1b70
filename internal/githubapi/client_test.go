package githubapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// testToken is distinctive so a leak into any error text is easy to spot.
const testToken = "ghs_WIREBENCHtestTOKEN0123456789abcdef"

const marker = "<!-- wirebench:default -->"

// sleeps is a fake Options.Sleep that records the waits instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// setup starts a fake GitHub and a Client for it with a fake sleep.
func setup(t *testing.T, edit ...func(*Options)) (*Client, *fakegithub.Server, *sleeps) {
	t.Helper()
	srv := fakegithub.New()
	t.Cleanup(srv.Close)
	sl := &sleeps{}
	opts := Options{BaseURL: srv.URL, Token: testToken, Sleep: sl.sleep}
	for _, e := range edit {
		e(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv, sl
}

func TestNewValidates(t *testing.T) {
	for _, opts := range []Options{
		{Token: ""},
		{Token: "t", BaseURL: "api.github.com"},
		{Token: "t", BaseURL: "ftp://x"},
	} {
		if _, err := New(opts); err == nil {
			t.Errorf("New(%+v) succeeded, want an error", opts)
		}
	}
}

func TestUpsertComment(t *testing.T) {
	tests := []struct {
		name         string
		seed         func(s *fakegithub.Server) (wantID int64) // 0: a new comment is expected
		commentLogin string
		// identity, when set, is who the fake says the token is; the fake
		// refuses edits of comments by anyone else.
		identity     *fakegithub.Identity
		wantComments int
	}{
		{name: "no comments: create", seed: func(*fakegithub.Server) int64 { return 0 }, wantComments: 1},
		{
			name: "bot comment with marker: edit",
			seed: func(s *fakegithub.Server) int64 {
				s.AddComment("o", "r", 7, "alice", "User", "looks good")
				return s.AddComment("o", "r", 7, "github-actions[bot]", "Bot", marker+"\nold report").ID
			},
			wantComments: 2,
		},
		{
			name: "marker in a human's comment is not hijacked",
			seed: func(s *fakegithub.Server) int64 {
				s.AddComment("o", "r", 7, "mallory", "User", "quoting "+marker)
				return 0
			},
			wantComments: 2,
		},
		{
			name: "marker in another bot's comment is not hijacked",
			seed: func(s *fakegithub.Server) int64 {
				s.AddComment("o", "r", 7, "quoting-app[bot]", "Bot", "see "+marker)
				return 0
			},
			wantComments: 2,
		},
		{
			name: "bot comment without marker is not ours",
			seed: func(s *fakegithub.Server) int64 {
				s.AddComment("o", "r", 7, "github-actions[bot]", "Bot", "<!-- other-tool -->")
				return 0
			},
			wantComments: 2,
		},
		{
			name: "marked comment on page 3 of 250",
			seed: func(s *fakegithub.Server) int64 {
				var id int64
				for i := range 250 {
					c := s.AddComment("o", "r", 7, "bob", "User", fmt.Sprintf("comment %d %s", i, marker))
					if i == 230 {
						c = s.AddComment("o", "r", 7, "github-actions[bot]", "Bot", marker+" stale")
						id = c.ID
					}
				}
				return id
			},
			wantComments: 251,
		},
		{
			name:         "personal token: configured login",
			commentLogin: "Octocat",
			identity:     &fakegithub.Identity{Login: "octocat", Type: "User"},
			seed: func(s *fakegithub.Server) int64 {
				return s.AddComment("o", "r", 7, "octocat", "User", marker+" old").ID
			},
			wantComments: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, _ := setup(t, func(o *Options) { o.CommentLogin = tt.commentLogin })
			if tt.identity != nil {
				srv.AddToken(testToken, *tt.identity)
			}
			wantID := tt.seed(srv)
			got, err := c.UpsertComment(context.Background(), "o", "r", 7, marker, marker+"\nnew report")
			if err != nil {
				t.Fatal(err)
			}
			if got.Created != (wantID == 0) || (wantID != 0 && got.ID != wantID) {
				t.Errorf("got %+v, want id %d (0 = created)", got, wantID)
			}
			if !strings.Contains(got.URL, fmt.Sprintf("#issuecomment-%d", got.ID)) {
				t.Errorf("URL %q does not point at the comment", got.URL)
			}
			comments := srv.Comments("o", "r", 7)
			if len(comments) != tt.wantComments {
				t.Errorf("%d comments, want %d", len(comments), tt.wantComments)
			}
			for _, cm := range comments {
				if (cm.ID == got.ID) != strings.Contains(cm.Body, "new report") {
					t.Errorf("comment %d by %s has body %q", cm.ID, cm.Login, cm.Body)
				}
			}
			for _, r := range srv.Requests() {
				if r.Method == "GET" && r.Query.Get("per_page") != "100" {
					t.Errorf("listing with per_page=%q, want 100", r.Query.Get("per_page"))
				}
			}
		})
	}
}

func TestUpsertCommentTwiceKeepsOne(t *testing.T) {
	c, srv, _ := setup(t)
	ctx := context.Background()
	first, err := c.UpsertComment(ctx, "o", "r", 3, marker, "run 1") // marker is prepended
	if err != nil || !first.Created {
		t.Fatalf("first: %+v %v", first, err)
	}
	second, err := c.UpsertComment(ctx, "o", "r", 3, marker, "run 2")
	if err != nil || second.Created || second.ID != first.ID {
		t.Fatalf("second: %+v %v, want an edit of %d", second, err, first.ID)
	}
	cs := srv.Comments("o", "r", 3)
	if len(cs) != 1 || cs[0].Body != marker+"\nrun 2" {
		t.Errorf("comments = %+v, want exactly one with the second body", cs)
	}
	third, err := c.UpsertComment(ctx, "o", "r", 3, marker, "run 2")
	if err != nil || third.ID != first.ID || third.Created {
		t.Fatalf("third: %+v %v", third, err)
	}
	if posts, patches := srv.CountRequests("POST", ""), srv.CountRequests("PATCH", ""); posts != 1 || patches != 1 {
		t.Errorf("%d POSTs and %d PATCHes, want 1 and 1 (an unchanged body is not re-sent)", posts, patches)
	}
}

func TestUpsertCommentForkToken(t *testing.T) {
	c, srv, sl := setup(t)
	srv.AddToken(testToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
	_, err := c.UpsertComment(context.Background(), "o", "r", 1, marker, "report")
	if !errors.Is(err, ErrForbidden) {
		t.Fatalf("err = %v, want ErrForbidden", err)
	}
	for _, want := range []string{"403 Resource not accessible by integration", "forks", "Fork pull requests", "pull-requests: write"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if n := srv.CountRequests("POST", ""); n != 1 || len(sl.all()) != 0 {
		t.Errorf("%d POSTs and %d sleeps: a plain 403 must not be retried", n, len(sl.all()))
	}
}

func TestUpsertCommentTooLarge(t *testing.T) {
	huge := strings.Repeat("x", fakegithub.MaxCommentChars+1)
	for _, existing := range []bool{false, true} {
		t.Run(fmt.Sprintf("existing=%v", existing), func(t *testing.T) {
			c, srv, _ := setup(t)
			if existing {
				srv.AddComment("o", "r", 1, "github-actions[bot]", "Bot", marker)
			}
			_, err := c.UpsertComment(context.Background(), "o", "r", 1, marker, marker+huge)
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "65,536") {
				t.Fatalf("err = %v, want ErrTooLarge naming the limit", err)
			}
		})
	}
}

func TestUnauthorized(t *testing.T) {
	c, srv, _ := setup(t)
	srv.AddToken("some-other-token", fakegithub.ActionsBot)
	_, _, err := c.GetFile(context.Background(), "o", "r", "f", "main")
	if !errors.Is(err, ErrUnauthorized) || !strings.Contains(err.Error(), "check the github-token input") {
		t.Fatalf("err = %v, want ErrUnauthorized with a fix", err)
	}
}

func TestGetFile(t *testing.T) {
	c, srv, _ := setup(t)
	ctx := context.Background()
	if _, _, err := c.GetFile(ctx, "o", "r", "baseline.json", "main"); !errors.Is(err, ErrNotFound) {
		t.Errorf("absent file: err = %v, want ErrNotFound", err)
	}
	for _, size := range []int{0, 10, fakegithub.MaxInlineContentSize + 10} {
		want := bytes.Repeat([]byte("z"), size)
		wantSHA := srv.SetFile("o", "r", "main", "baseline.json", want)
		got, sha, err := c.GetFile(ctx, "o", "r", "baseline.json", "main")
		if err != nil || !bytes.Equal(got, want) || sha != wantSHA {
			t.Errorf("size %d: got %d bytes sha %s err %v, want sha %s", size, len(got), sha, err, wantSHA)
		}
	}
}

// appendLine is a merge that adds one line, so lost writes are visible.
func appendLine(line string, calls *[]string) func([]byte, bool) ([]byte, error) {
	return func(old []byte, exists bool) ([]byte, error) {
		*calls = append(*calls, fmt.Sprintf("%v:%q", exists, old))
		return append(bytes.Clone(old), line+"\n"...), nil
	}
}

func TestUpdateFile(t *testing.T) {
	tests := []struct {
		name      string
		seed      string // "" = absent
		other     int    // concurrent writes to lose the race against
		wantFile  string
		wantCalls []string
		wantErr   error
		wantPUTs  int
	}{
		{name: "create", wantFile: "mine\n", wantCalls: []string{`false:""`}, wantPUTs: 1},
		{name: "update", seed: "base\n", wantFile: "base\nmine\n", wantCalls: []string{`true:"base\n"`}, wantPUTs: 1},
		{
			name: "409: re-read and merge again", seed: "base\n", other: 1,
			wantFile:  "base\nother\nmine\n",
			wantCalls: []string{`true:"base\n"`, `true:"base\nother\n"`}, wantPUTs: 2,
		},
		{
			name: "422 sha missing: someone created it meanwhile", other: 1,
			wantFile:  "other\nmine\n",
			wantCalls: []string{`false:""`, `true:"other\n"`}, wantPUTs: 2,
		},
		{
			name: "bounded attempts", seed: "base\n", other: 100,
			wantErr: ErrConflict, wantPUTs: MaxWriteAttempts,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, _ := setup(t)
			if tt.seed != "" {
				srv.SetFile("o", "r", "main", "b.txt", []byte(tt.seed))
			}
			srv.ConcurrentWriter("o", "r", "main", "b.txt", tt.other, func(old []byte) []byte {
				return append(bytes.Clone(old), "other\n"...)
			})
			var calls []string
			sha, err := c.UpdateFile(context.Background(), "o", "r", "b.txt", "main", "bench: update baseline", appendLine("mine", &calls))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if n := srv.CountRequests("PUT", ""); n != tt.wantPUTs {
				t.Errorf("%d PUTs, want %d", n, tt.wantPUTs)
			}
			content, _, _ := srv.File("o", "r", "main", "b.txt")
			if tt.wantErr != nil {
				if strings.Contains(string(content), "mine") || !strings.Contains(err.Error(), "attempts") {
					t.Errorf("after giving up: file %q, err %q", content, err)
				}
				return
			}
			if string(content) != tt.wantFile {
				t.Errorf("file = %q, want %q", content, tt.wantFile)
			}
			if fmt.Sprint(calls) != fmt.Sprint(tt.wantCalls) {
				t.Errorf("merge calls = %v, want %v", calls, tt.wantCalls)
			}
			commits := srv.Commits()
			if last := commits[len(commits)-1]; sha != last.SHA || last.Message != "bench: update baseline" {
				t.Errorf("returned commit %s, last commit %+v", sha, last)
			}
		})
	}
}

func TestUpdateFileNoChangeWritesNothing(t *testing.T) {
	c, srv, _ := setup(t)
	srv.SetFile("o", "r", "main", "b.txt", []byte("same"))
	sha, err := c.UpdateFile(context.Background(), "o", "r", "b.txt", "main", "m",
		func(old []byte, _ bool) ([]byte, error) { return old, nil })
	if err != nil || sha != "" || srv.CountRequests("PUT", "") != 0 {
		t.Errorf("sha %q err %v, %d PUTs; want no write", sha, err, srv.CountRequests("PUT", ""))
	}
}

func TestUpdateFileForkToken(t *testing.T) {
	c, srv, _ := setup(t)
	srv.AddToken(testToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
	_, err := c.UpdateFile(context.Background(), "o", "r", "b.txt", "main", "m",
		func([]byte, bool) ([]byte, error) { return []byte("x"), nil })
	if !errors.Is(err, ErrForbidden) || !strings.Contains(err.Error(), "contents: write") {
		t.Fatalf("err = %v, want ErrForbidden naming contents: write", err)
	}
}

func TestUpdateCommentOnlyWhenPresent(t *testing.T) {
	c, srv, _ := setup(t)
	ctx := context.Background()
	got, err := c.UpdateComment(ctx, "o", "r", 7, "<!-- m -->", "nothing changed")
	if err != nil || got.ID != 0 {
		t.Fatalf("UpdateComment without a comment: %+v, %v; want no comment and no error", got, err)
	}
	if n := len(srv.Comments("o", "r", 7)); n != 0 {
		t.Fatalf("%d comments created, want 0", n)
	}
	if _, err := c.UpsertComment(ctx, "o", "r", 7, "<!-- m -->", "regression!"); err != nil {
		t.Fatal(err)
	}
	got, err = c.UpdateComment(ctx, "o", "r", 7, "<!-- m -->", "all clear")
	if err != nil || got.ID == 0 {
		t.Fatalf("UpdateComment with a comment: %+v, %v", got, err)
	}
	cs := srv.Comments("o", "r", 7)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "all clear") {
		t.Errorf("comments %+v, want one saying all clear", cs)
	}
}
