package githubapi

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// patToken is a made-up personal access token (its prefix is what
// matters: not an installation token).
const patToken = "ghp_WIREBENCHtestPAT0123456789abcdefgh"

// TestLogin: the account the token comments as, and how many times the
// client asked GET /user to learn it.
func TestLogin(t *testing.T) {
	tests := []struct {
		name         string
		token        string
		identity     *fakegithub.Identity // registered for token; nil: the fake's default (github-actions[bot])
		commentLogin string
		want         string
		wantAsks     int
	}{
		{name: "GITHUB_TOKEN: known without asking", token: testToken, want: ActionsBot},
		{name: "configured login wins", token: patToken, commentLogin: "my-app[bot]", want: "my-app[bot]"},
		{name: "personal token: GET /user", token: patToken, identity: &fakegithub.Identity{Login: "octocat", Type: "User"}, want: "octocat", wantAsks: 1},
		{name: "installation token of another form: 403 means github-actions[bot]", token: "v1.0123456789abcdef", want: ActionsBot, wantAsks: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv, _ := setup(t, func(o *Options) { o.Token, o.CommentLogin = tt.token, tt.commentLogin })
			if tt.identity != nil {
				srv.AddToken(tt.token, *tt.identity)
			}
			for range 2 { // learned once
				got, err := c.Login(context.Background())
				if err != nil || got != tt.want {
					t.Fatalf("Login() = %q, %v; want %q", got, err, tt.want)
				}
			}
			if n := srv.CountRequests("GET", "/user"); n != tt.wantAsks {
				t.Errorf("%d GET /user, want %d", n, tt.wantAsks)
			}
		})
	}
}

// TestLoginBadToken: a rejected token is an error, not a guessed identity,
// and a later call asks again.
func TestLoginBadToken(t *testing.T) {
	c, srv, _ := setup(t, func(o *Options) { o.Token = patToken })
	srv.AddToken("another-token", fakegithub.ActionsBot)
	if _, err := c.Login(context.Background()); !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), patToken) {
		t.Fatalf("err = %v, want ErrUnauthorized without the token", err)
	}
	srv.AddToken(patToken, fakegithub.Identity{Login: "octocat", Type: "User"})
	if got, err := c.Login(context.Background()); err != nil || got != "octocat" {
		t.Errorf("after the token was registered: %q, %v", got, err)
	}
}

// TestPersonalTokenEditsOneComment: with a personal access token every run
// edits the same comment (it used to post a new one each time, since only
// bots were recognised).
func TestPersonalTokenEditsOneComment(t *testing.T) {
	c, srv, _ := setup(t, func(o *Options) { o.Token = patToken })
	srv.AddToken(patToken, fakegithub.Identity{Login: "octocat", Type: "User"})
	ctx := context.Background()
	first, err := c.UpsertComment(ctx, "o", "r", 9, marker, "run 1")
	if err != nil || !first.Created {
		t.Fatalf("first run: %+v, %v", first, err)
	}
	second, err := c.UpsertComment(ctx, "o", "r", 9, marker, "run 2")
	if err != nil || second.Created || second.ID != first.ID {
		t.Fatalf("second run: %+v, %v; want an edit of comment %d", second, err, first.ID)
	}
	cs := srv.Comments("o", "r", 9)
	if len(cs) != 1 || cs[0].Login != "octocat" || !strings.Contains(cs[0].Body, "run 2") {
		t.Errorf("comments %+v, want one by octocat saying run 2", cs)
	}
	if n := srv.CountRequests("GET", "/user"); n != 1 {
		t.Errorf("%d GET /user over two runs of one client, want 1", n)
	}
}

// TestOtherBotQuotingMarker: another app's comment quoting the marker is
// left alone and our report is still posted, as a comment of our own.
func TestOtherBotQuotingMarker(t *testing.T) {
	c, srv, _ := setup(t)
	other := srv.AddComment("o", "r", 5, "quoting-app[bot]", "Bot", "the report said:\n"+marker+"\nold numbers")
	got, err := c.UpsertComment(context.Background(), "o", "r", 5, marker, "our report")
	if err != nil || !got.Created {
		t.Fatalf("upsert: %+v, %v; want a new comment", got, err)
	}
	if n := srv.CountRequests("PATCH", ""); n != 0 {
		t.Errorf("%d PATCHes: another account's comment was edited", n)
	}
	cs := srv.Comments("o", "r", 5)
	if len(cs) != 2 || cs[0].Body != other.Body || cs[1].Login != ActionsBot || !strings.Contains(cs[1].Body, "our report") {
		t.Errorf("comments %+v: want the other bot's untouched and ours new", cs)
	}
}
