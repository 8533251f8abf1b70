package githubapi

import (
	"context"
	"fmt"
)

// LatestRelease is the tag of the repository's latest release (GET
// /repos/{owner}/{repo}/releases/latest: the newest published release
// that is not a draft or a prerelease); "" when it has none. Needs
// `contents: read`.
func (c *Client) LatestRelease(ctx context.Context, owner, repo string) (string, error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	rel, _, err := c.gh.Repositories.GetLatestRelease(ctx, owner, repo)
	if isNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", c.fail(ctx, fmt.Sprintf("read the latest release of %s/%s", owner, repo), "", err)
	}
	return rel.GetTagName(), nil
}

// Contains reports whether the commit sha is ref or one of its ancestors
// (GET /repos/{owner}/{repo}/compare/{sha}...{ref}: ref is ahead of sha
// or identical to it). Needs `contents: read`.
func (c *Client) Contains(ctx context.Context, owner, repo, ref, sha string) (bool, error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	cmp, _, err := c.gh.Repositories.CompareCommits(ctx, owner, repo, sha, ref, nil)
	if err != nil {
		return false, c.fail(ctx, fmt.Sprintf("compare %s with %s in %s/%s", ref, sha, owner, repo), "", err)
	}
	switch cmp.GetStatus() {
	case "ahead", "identical":
		return true, nil
	}
	return false, nil
}
