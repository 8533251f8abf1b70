package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

func TestPullRequestCommits(t *testing.T) {
	c, srv, _ := setup(t)
	pr := fakegithub.PullRequest{Number: 7, Author: "octo"}
	for i := range 260 { // more than GitHub lists: 250, in three pages of 100
		pr.Commits = append(pr.Commits, fakegithub.PullCommit{SHA: fmt.Sprintf("%040x", i+1), Message: fmt.Sprintf("commit %d", i), Author: "dev"})
	}
	pr.Commits[3].Author, pr.Commits[3].Name = "", "No Account" // an e-mail GitHub knows no account for
	srv.AddPullRequest("o", "r", pr)
	got, err := c.PullRequestCommits(context.Background(), "o", "r", 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 {
		t.Fatalf("%d commits, want the 250 GitHub lists", len(got))
	}
	if got[0].Message != "commit 0" || got[249].Message != "commit 249" || got[0].Author != "dev" || got[0].SHA != pr.Commits[0].SHA {
		t.Errorf("first %+v last %+v", got[0], got[249])
	}
	if got[3].Author != "No Account" {
		t.Errorf("commit without an account: author %q, want the commit's name", got[3].Author)
	}
	if n := srv.CountRequests("GET", "/repos/o/r/pulls/7/commits"); n != 3 {
		t.Errorf("%d requests, want 3 pages of 100", n)
	}
}

func TestCommitPullRequests(t *testing.T) {
	c, srv, _ := setup(t)
	merge := strings.Repeat("4", 40)
	srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 42, Author: "octo", Body: "Wirebench-Accept: x", Labels: []string{"wirebench:accept", "enhancement"},
		Merged: true, MergeCommitSHA: merge, HeadSHA: strings.Repeat("2", 40)})
	srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 43, Author: "other", HeadSHA: strings.Repeat("5", 40)})
	got, err := c.CommitPullRequests(context.Background(), "o", "r", merge)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d pull requests, want #42: %+v", len(got), got)
	}
	p := got[0]
	if p.Number != 42 || p.Author != "octo" || p.Body != "Wirebench-Accept: x" || !slices.Equal(p.Labels, []string{"wirebench:accept", "enhancement"}) ||
		!p.Merged || p.MergeCommitSHA != merge || p.BaseRef != "main" {
		t.Errorf("got %+v", p)
	}
	none, err := c.CommitPullRequests(context.Background(), "o", "r", strings.Repeat("9", 40))
	if err != nil || len(none) != 0 {
		t.Errorf("a commit of no pull request: %v, %v; want none, no error", none, err)
	}
}

// TestPullRequestRefusals: what GitHub refuses is an error naming what
// was attempted, with the right kind: a pull request that does not exist
// (404), a token without access (403), a server error after retries
// (500), a malformed sha (422).
func TestPullRequestRefusals(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(*fakegithub.Server)
		call   func(*Client) error
		kind   error
		status int
		op     string
	}{
		{"unknown pull request", nil,
			func(c *Client) error { _, err := c.PullRequestCommits(context.Background(), "o", "r", 99); return err },
			ErrNotFound, http.StatusNotFound, "list the commits of o/r#99"},
		{"token without access", func(s *fakegithub.Server) {
			s.AddToken(testToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", NoPullRequests: true})
		},
			func(c *Client) error {
				_, err := c.CommitPullRequests(context.Background(), "o", "r", strings.Repeat("4", 40))
				return err
			},
			ErrForbidden, http.StatusForbidden, "list the pull requests of commit 4444"},
		{"server error", func(s *fakegithub.Server) {
			s.Inject("GET", "/repos/o/r/pulls/7/commits", fakegithub.ServerError(500), fakegithub.ServerError(500), fakegithub.ServerError(500), fakegithub.ServerError(500), fakegithub.ServerError(500))
		},
			func(c *Client) error { _, err := c.PullRequestCommits(context.Background(), "o", "r", 7); return err },
			nil, http.StatusInternalServerError, "list the commits of o/r#7"},
		{"malformed sha", nil,
			func(c *Client) error {
				_, err := c.CommitPullRequests(context.Background(), "o", "r", "not-a-sha")
				return err
			},
			nil, http.StatusUnprocessableEntity, "list the pull requests of commit not-a-sha"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, _ := setup(t)
			srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 7, Commits: []fakegithub.PullCommit{{SHA: strings.Repeat("1", 40), Message: "m"}}})
			if tt.setup != nil {
				tt.setup(srv)
			}
			err := tt.call(c)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want an *Error", err, err)
			}
			if e.Status != tt.status || !strings.Contains(err.Error(), tt.op) {
				t.Errorf("status %d, error %q; want %d naming %q", e.Status, err, tt.status, tt.op)
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("error %v is not %v", err, tt.kind)
			}
		})
	}
}

// TestOpenPullRequests: a fork's head branch finds its open pull request,
// with the head's repository, branch and commit; another fork's branch of
// the same name, a merged pull request and another branch are not listed.
func TestOpenPullRequests(t *testing.T) {
	c, srv, _ := setup(t)
	head := strings.Repeat("a", 40)
	srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 5, Author: "forker", HeadRepo: "forker/r", HeadRef: "fix", HeadSHA: head})
	srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 6, Author: "other", HeadRepo: "other/r", HeadRef: "fix", HeadSHA: strings.Repeat("b", 40)})
	srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 4, Author: "forker", HeadRepo: "forker/r", HeadRef: "fix", Merged: true, MergeCommitSHA: strings.Repeat("c", 40)})
	srv.AddPullRequest("o", "r", fakegithub.PullRequest{Number: 7, Author: "forker", HeadRepo: "forker/r", HeadRef: "other-branch"})
	got, err := c.OpenPullRequests(context.Background(), "o", "r", "forker", "fix")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Number != 5 || got[0].HeadRepo != "forker/r" || got[0].HeadRef != "fix" || got[0].HeadSHA != head {
		t.Fatalf("got %+v, want #5 of forker/r:fix at %s", got, head)
	}
	srv.AddToken(testToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", NoPullRequests: true})
	if _, err := c.OpenPullRequests(context.Background(), "o", "r", "forker", "fix"); !errors.Is(err, ErrForbidden) {
		t.Errorf("without pull-requests: read: err = %v, want ErrForbidden", err)
	}
}
