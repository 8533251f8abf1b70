package githubapi

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v93/github"
)

// Comment is the sticky comment after UpsertComment.
type Comment struct {
	ID      int64
	URL     string // html_url, for the job summary and logs
	Created bool   // true if it was posted now, false if an existing one was edited
}

// UpsertComment keeps one sticky comment per pull request and suite. It looks
// for a comment containing marker (a hidden HTML comment such as
// "<!-- wirebench:default -->") written by the token's own account (see
// Login), and edits it in place; if there is none, it creates one. Comments
// by any other account, bot or user, are never edited, even if they quote
// the marker. If body lacks the marker it is prepended, so the next run
// finds the comment again. When several comments match, the oldest is
// edited; an identical body is left alone.
//
// A 403 (read-only token, as on pull requests from forks) is ErrForbidden;
// a body over GitHub's 65,536-character limit is ErrTooLarge.
func (c *Client) UpsertComment(ctx context.Context, owner, repo string, number int, marker, body string) (Comment, error) {
	return c.upsert(ctx, owner, repo, number, marker, body, true)
}

// UpdateComment edits the sticky comment like UpsertComment when it exists
// and does nothing when it does not (Comment.ID is then 0). It serves the
// "comment only on change" policy: a run with nothing to say does not open
// a new comment, but does refresh an old one that reported a regression.
func (c *Client) UpdateComment(ctx context.Context, owner, repo string, number int, marker, body string) (Comment, error) {
	return c.upsert(ctx, owner, repo, number, marker, body, false)
}

func (c *Client) upsert(ctx context.Context, owner, repo string, number int, marker, body string, create bool) (Comment, error) {
	if strings.TrimSpace(marker) == "" {
		return Comment{}, errors.New("upsert comment: empty marker would match every comment")
	}
	if !strings.Contains(body, marker) {
		body = marker + "\n" + body
	}
	ctx, cancel := c.budget(ctx)
	defer cancel()
	where := fmt.Sprintf("%s/%s#%d", owner, repo, number)

	login, err := c.Login(ctx)
	if err != nil {
		return Comment{}, err
	}
	existing, err := c.findComment(ctx, owner, repo, number, marker, login)
	if err != nil {
		return Comment{}, c.fail(ctx, "list comments on "+where, "", err)
	}
	req := github.IssueCommentRequest{Body: body}
	if existing != nil && existing.GetBody() == body {
		return Comment{ID: existing.GetID(), URL: existing.GetHTMLURL()}, nil // unchanged: save a write
	}
	if existing != nil {
		ic, _, err := c.gh.Issues.UpdateComment(ctx, owner, repo, existing.GetID(), req)
		if err == nil {
			return Comment{ID: ic.GetID(), URL: ic.GetHTMLURL()}, nil
		}
		if !isNotFound(err) { // deleted since we listed it: post a new one
			return Comment{}, c.fail(ctx, fmt.Sprintf("update comment %d on %s", existing.GetID(), where), scopeComments, err)
		}
	}
	if !create {
		return Comment{}, nil
	}
	ic, _, err := c.gh.Issues.CreateComment(ctx, owner, repo, number, req)
	if err != nil {
		return Comment{}, c.fail(ctx, "create comment on "+where, scopeComments, err)
	}
	return Comment{ID: ic.GetID(), URL: ic.GetHTMLURL(), Created: true}, nil
}

// findComment pages through the comments (100 per page) and returns the
// first that is ours (see isOurs), or nil.
func (c *Client) findComment(ctx context.Context, owner, repo string, number int, marker, login string) (*github.IssueComment, error) {
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		comments, resp, err := c.gh.Issues.ListComments(ctx, owner, repo, number, opts)
		if err != nil {
			return nil, err
		}
		for _, ic := range comments {
			if isOurs(ic, marker, login) {
				return ic, nil
			}
		}
		if resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
}

// isOurs: the marker alone is not enough, since anyone can paste it, and
// neither is a bot author, since any app can quote it; the author must be
// the account this token comments as (login).
func isOurs(ic *github.IssueComment, marker, login string) bool {
	return strings.Contains(ic.GetBody(), marker) && strings.EqualFold(ic.GetUser().GetLogin(), login)
}
