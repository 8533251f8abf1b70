package githubapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v93/github"
)

// Defaults for Options.
const (
	DefaultBaseURL    = "https://api.github.com"
	DefaultUserAgent  = "wirebench"
	DefaultMaxElapsed = 2 * time.Minute
	DefaultMaxRetries = 4
)

// Options configures a Client. Only Token is required.
type Options struct {
	BaseURL    string        // GITHUB_API_URL, e.g. https://api.github.com or https://ghes.example.com/api/v3
	Token      string        // the github-token input; never logged or put in errors
	UserAgent  string        // default DefaultUserAgent
	MaxElapsed time.Duration // total time for one method call, retries and waits included; default DefaultMaxElapsed
	MaxRetries int           // retries per HTTP request; default DefaultMaxRetries, negative for none
	// Sleep waits between retries; tests inject a fake. The default is a
	// real sleep that returns early when ctx is done.
	Sleep func(ctx context.Context, d time.Duration) error
	// CommentLogin is the login of the account the token comments as: only
	// comments by that account are ever edited. Empty, the client learns
	// it once (see Client.Login): github-actions[bot] for an installation
	// token (GITHUB_TOKEN's "ghs_" tokens), the token's user for a
	// personal token. A GitHub App's installation token comments as
	// "<app-slug>[bot]" and must say so here.
	CommentLogin string
	// Transport is the underlying HTTP transport; default
	// http.DefaultTransport.
	Transport http.RoundTripper
}

// Client talks to one GitHub API host with one token. It is safe for
// concurrent use.
type Client struct {
	gh           *github.Client
	token        string
	baseURL      string
	maxElapsed   time.Duration
	sleep        func(context.Context, time.Duration) error
	commentLogin string

	loginMu sync.Mutex
	login   string // learned by Login; "" until then
}

// New returns a Client for opts.
func New(opts Options) (*Client, error) {
	if opts.Token == "" {
		return nil, errors.New("no GitHub token: set the github-token input (the default, ${{ github.token }}, is enough)")
	}
	base := strings.TrimRight(cmp.Or(opts.BaseURL, DefaultBaseURL), "/")
	if u, err := url.Parse(base); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("invalid GitHub API URL %q: want e.g. https://api.github.com (check GITHUB_API_URL)", base)
	}
	c := &Client{
		token:        opts.Token,
		baseURL:      base,
		maxElapsed:   opts.MaxElapsed,
		sleep:        opts.Sleep,
		commentLogin: opts.CommentLogin,
	}
	if c.maxElapsed <= 0 {
		c.maxElapsed = DefaultMaxElapsed
	}
	if c.sleep == nil {
		c.sleep = sleep
	}
	retries := opts.MaxRetries
	if retries == 0 {
		retries = DefaultMaxRetries
	}
	rt := &retryTransport{base: opts.Transport, maxRetries: max(0, retries), sleep: c.sleep}
	if rt.base == nil {
		rt.base = http.DefaultTransport
	}
	gh, err := github.NewClient(
		github.WithURLs(new(base+"/"), new(base+"/")),
		github.WithAuthToken(opts.Token),
		github.WithUserAgent(cmp.Or(opts.UserAgent, DefaultUserAgent)),
		github.WithTransport(rt),
		// Rate limits are handled by retryTransport within the call's
		// budget; go-github's own "refuse until reset" memory would turn one
		// rate-limited call into failures of the following ones.
		github.WithDisableRateLimitCheck(),
	)
	if err != nil {
		return nil, fmt.Errorf("create GitHub client: %w", err)
	}
	c.gh = gh
	return c, nil
}

// budget bounds one method call, retries included, by MaxElapsed.
func (c *Client) budget(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.maxElapsed)
}
