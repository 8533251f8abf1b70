package githubapi

import (
	"context"
	"fmt"

	"github.com/google/go-github/v93/github"
)

// Commit is one commit of a pull request.
type Commit struct {
	SHA     string
	Message string
	// Author is the GitHub login of the commit's author, or the name in
	// the commit when GitHub knows no account for its e-mail.
	Author string
}

// maxPullCommits is how many commits GitHub lists for a pull request:
// GET /repos/{owner}/{repo}/pulls/{number}/commits stops at 250.
const maxPullCommits = 250

// PullRequestCommits lists the commits of pull request number, oldest
// first, at most the 250 GitHub lists (GET
// /repos/{owner}/{repo}/pulls/{number}/commits, 100 a page). Reading them
// needs `pull-requests: read` (or contents: read) on the repository.
func (c *Client) PullRequestCommits(ctx context.Context, owner, repo string, number int) ([]Commit, error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	var out []Commit
	opts := &github.ListOptions{PerPage: 100}
	for {
		page, resp, err := c.gh.PullRequests.ListCommits(ctx, owner, repo, number, opts)
		if err != nil {
			return nil, c.fail(ctx, fmt.Sprintf("list the commits of %s/%s#%d", owner, repo, number), "", err)
		}
		for _, rc := range page {
			author := rc.GetAuthor().GetLogin()
			if author == "" {
				author = rc.GetCommit().GetAuthor().GetName()
			}
			out = append(out, Commit{SHA: rc.GetSHA(), Message: rc.GetCommit().GetMessage(), Author: author})
		}
		if resp.NextPage == 0 || len(out) >= maxPullCommits {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// PullRequest is a pull request as the list of a commit's pull requests
// gives it.
type PullRequest struct {
	Number int
	Author string // login of its author
	Body   string // its description
	Labels []string
	// BaseRef is the branch it was opened against; Merged reports whether
	// it was merged, and MergeCommitSHA is the commit its merge made.
	BaseRef        string
	Merged         bool
	MergeCommitSHA string
}

// CommitPullRequests lists the pull requests of commit sha (GET
// /repos/{owner}/{repo}/commits/{sha}/pulls): for the commit a merge put
// on a branch, the merged pull request; for another, the open pull
// requests that contain it. Needs `pull-requests: read` (or contents:
// read).
func (c *Client) CommitPullRequests(ctx context.Context, owner, repo, sha string) ([]PullRequest, error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	var out []PullRequest
	opts := &github.ListOptions{PerPage: 100}
	for {
		page, resp, err := c.gh.PullRequests.ListPullRequestsWithCommit(ctx, owner, repo, sha, opts)
		if err != nil {
			return nil, c.fail(ctx, fmt.Sprintf("list the pull requests of commit %s in %s/%s", sha, owner, repo), "", err)
		}
		for _, pr := range page {
			p := PullRequest{
				Number: pr.GetNumber(), Author: pr.GetUser().GetLogin(), Body: pr.GetBody(),
				BaseRef: pr.GetBase().GetRef(), Merged: pr.MergedAt != nil, MergeCommitSHA: pr.GetMergeCommitSHA(),
			}
			for _, l := range pr.Labels {
				p.Labels = append(p.Labels, l.GetName())
			}
			out = append(out, p)
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}
