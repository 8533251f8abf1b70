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
	// HeadRepo is the owner/name of the repository its head branch is in
	// (a fork's for a pull request from a fork), HeadRef that branch and
	// HeadSHA the commit it points at.
	HeadRepo, HeadRef, HeadSHA string
}

// pullRequest is pr as this package gives it.
func pullRequest(pr *github.PullRequest) PullRequest {
	p := PullRequest{
		Number: pr.GetNumber(), Author: pr.GetUser().GetLogin(), Body: pr.GetBody(),
		BaseRef: pr.GetBase().GetRef(), Merged: pr.MergedAt != nil, MergeCommitSHA: pr.GetMergeCommitSHA(),
		HeadRepo: pr.GetHead().GetRepo().GetFullName(), HeadRef: pr.GetHead().GetRef(), HeadSHA: pr.GetHead().GetSHA(),
	}
	for _, l := range pr.Labels {
		p.Labels = append(p.Labels, l.GetName())
	}
	return p
}

// maxHeadPulls bounds the open pull requests of one head branch read: a
// branch has at most one open pull request per base branch.
const maxHeadPulls = 100

// OpenPullRequests lists the open pull requests of repository owner/repo
// whose head is branch ref of headOwner's repository (GET
// /repos/{owner}/{repo}/pulls?state=open&head=headOwner:ref): how the
// pull request of a fork's workflow run is found, since the run's
// workflow_run event lists none. Needs `pull-requests: read`.
func (c *Client) OpenPullRequests(ctx context.Context, owner, repo, headOwner, ref string) ([]PullRequest, error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	var out []PullRequest
	opts := &github.PullRequestListOptions{State: "open", Head: headOwner + ":" + ref, ListOptions: github.ListOptions{PerPage: 100}}
	for {
		page, resp, err := c.gh.PullRequests.List(ctx, owner, repo, opts)
		if err != nil {
			return nil, c.fail(ctx, fmt.Sprintf("list the open pull requests of %s:%s in %s/%s", headOwner, ref, owner, repo), "", err)
		}
		for _, pr := range page {
			out = append(out, pullRequest(pr))
		}
		if resp.NextPage == 0 || len(out) >= maxHeadPulls {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
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
			out = append(out, pullRequest(pr))
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}
