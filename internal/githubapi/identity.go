package githubapi

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// ActionsBot is the account the Actions GITHUB_TOKEN writes as.
const ActionsBot = "github-actions[bot]"

// installationTokenPrefix starts GitHub's installation (server-to-server)
// tokens, GITHUB_TOKEN among them; personal tokens start with "ghp_" or
// "github_pat_", OAuth tokens with "gho_".
const installationTokenPrefix = "ghs_"

// Login returns the login of the account this client's token comments as,
// learned once: Options.CommentLogin when set; github-actions[bot] for an
// installation token, which cannot ask who it is; otherwise the account
// GET /user names (a personal token). An installation token of another
// form gets 403 "Resource not accessible by integration" from GET /user
// and is taken for GITHUB_TOKEN's github-actions[bot] as well. A failed
// lookup is not remembered, so a later call asks again.
func (c *Client) Login(ctx context.Context) (string, error) {
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	if c.login != "" {
		return c.login, nil
	}
	switch {
	case c.commentLogin != "":
		c.login = c.commentLogin
	case strings.HasPrefix(c.token, installationTokenPrefix):
		c.login = ActionsBot
	default:
		login, err := c.authenticatedUser(ctx)
		if err != nil {
			return "", err
		}
		c.login = login
	}
	return c.login, nil
}

// authenticatedUser asks GET /user for the token's account.
func (c *Client) authenticatedUser(ctx context.Context) (string, error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	u, resp, err := c.gh.Users.Get(ctx, "")
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusForbidden && !isRateLimit(resp.Response, err) {
			return ActionsBot, nil // an installation token: it acts for no user
		}
		return "", c.fail(ctx, "learn the token's account (GET /user)", "", err)
	}
	if u.GetLogin() == "" {
		return "", c.fail(ctx, "learn the token's account (GET /user)", "", errors.New("the answer names no login"))
	}
	return u.GetLogin(), nil
}
