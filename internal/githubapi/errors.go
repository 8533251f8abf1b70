package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v93/github"
)

// Sentinel errors, matched with errors.Is, so callers can decide what a
// failure means (e.g. a missing baseline is normal on the first run; a
// forbidden comment on a fork PR is a warning, not a crash).
var (
	ErrUnauthorized = errors.New("unauthorized")
	ErrForbidden    = errors.New("forbidden")
	ErrNotFound     = errors.New("not found")
	ErrConflict     = errors.New("conflict")
	ErrRateLimited  = errors.New("rate limited")
	ErrTooLarge     = errors.New("too large")
)

// Error is a failed GitHub API call: what was attempted, what went wrong and
// how to fix it. It unwraps to one of the sentinel errors (when one applies)
// and to the underlying cause. Its message never contains the token.
type Error struct {
	Op     string // what was attempted, e.g. "create comment on o/r#7"
	Status int    // HTTP status of the final answer; 0 if there was none
	Kind   error  // one of the Err* sentinels, or nil
	Err    error  // the cause, usually from go-github
	msg    string
}

func (e *Error) Error() string { return e.msg }

func (e *Error) Unwrap() []error {
	if e.Kind == nil {
		return []error{e.Err}
	}
	return []error{e.Kind, e.Err}
}

// Permission scopes named in the fix for a 403 on a write.
const (
	scopeComments = "pull-requests: write"
	scopeContents = "contents: write"
)

// fail turns err from go-github into an *Error for op. writeScope names the
// permission a write needs ("" for reads). ctx is the call's budget context.
func (c *Client) fail(ctx context.Context, op, writeScope string, err error) error {
	if err == nil {
		return nil
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	c.redactCause(err)
	e := &Error{Op: op, Err: err}
	resp, ghMsg := response(err)
	if resp != nil {
		e.Status = resp.StatusCode
	}
	what := "comments"
	if writeScope == scopeContents {
		what = "repository contents"
	}

	var hint string
	switch {
	case resp == nil && errors.Is(err, context.DeadlineExceeded):
		hint = fmt.Sprintf("no answer from the GitHub API within the %s time budget: GitHub may be slow or unreachable; re-run the job", c.maxElapsed)
	case resp == nil && errors.Is(err, context.Canceled):
		hint = "cancelled"
	case resp == nil && isURLError(err):
		hint = fmt.Sprintf("cannot reach the GitHub API at %s: check GITHUB_API_URL and the runner's network", c.baseURL)
	case resp == nil:
		hint = "request failed"
	case e.Status == http.StatusUnauthorized:
		e.Kind = ErrUnauthorized
		hint = "GitHub rejected the token (401): check the github-token input (expired, revoked, or for another GitHub host?)"
	case isRateLimit(resp, err):
		e.Kind = ErrRateLimited
		hint = c.rateLimitHint(ctx, resp)
	case e.Status == http.StatusForbidden && writeScope != "":
		e.Kind = ErrForbidden
		hint = fmt.Sprintf("the token cannot write %s (403 %s): on pull requests from forks the token is read-only; "+
			"see README 'Fork pull requests'; for your own PRs grant `permissions: %s`", what, ghMsg, writeScope)
	case e.Status == http.StatusForbidden:
		e.Kind = ErrForbidden
		hint = fmt.Sprintf("the token cannot read this (403 %s): grant `permissions: contents: read` and `pull-requests: read`", ghMsg)
	case e.Status == http.StatusNotFound:
		e.Kind = ErrNotFound
		hint = fmt.Sprintf("not found (404 %s): check the repository, branch and path; a private repository also answers 404 when the token cannot read it", ghMsg)
	case e.Status == http.StatusConflict || isMissingSHA(e.Status, ghMsg):
		e.Kind = ErrConflict
		hint = fmt.Sprintf("the file changed while it was being written (%d %s): another job wrote it at the same time; re-run the job", e.Status, ghMsg)
	case isTooLong(err):
		e.Kind = ErrTooLarge
		hint = fmt.Sprintf("the body is longer than GitHub's limit of 65,536 characters (422 %s): the report must be shortened", ghMsg)
	case e.Status >= 500 && resp.Request != nil && resp.Request.Method == http.MethodPost:
		hint = fmt.Sprintf("GitHub API failed (%d %s); not retried, since repeating it could post a duplicate comment; re-run the job", e.Status, ghMsg)
	case e.Status >= 500:
		hint = fmt.Sprintf("GitHub API failed (%d %s) even after retries: GitHub may be having an incident (https://www.githubstatus.com); re-run the job", e.Status, ghMsg)
	default:
		hint = fmt.Sprintf("GitHub API refused the request (%d %s)", e.Status, ghMsg)
	}
	e.msg = c.redact(fmt.Sprintf("%s: %s [cause: %v]", op, hint, err))
	return e
}

// rateLimitHint says how long GitHub asked to wait and why that did not fit
// in this call's budget (or that retries ran out).
func (c *Client) rateLimitHint(ctx context.Context, resp *http.Response) string {
	var wait time.Duration
	var when string
	if reset, ok := primaryReset(resp); ok {
		wait = untilReset(reset)
		when = fmt.Sprintf("the API rate limit is used up until %s (in %s)", reset.UTC().Format("15:04:05 MST"), wait.Round(time.Second))
	} else if d, ok := retryAfter(resp); ok {
		wait = d
		when = fmt.Sprintf("GitHub asked to wait %s (Retry-After) before retrying", d)
	} else {
		wait = secondaryWait
		when = "GitHub answered with a secondary rate limit"
	}
	if !fits(ctx, wait) {
		return fmt.Sprintf("rate limited (%d): %s, longer than this call's %s time budget allows: re-run the job after that", resp.StatusCode, when, c.maxElapsed)
	}
	return fmt.Sprintf("rate limited (%d): %s, and retries ran out: re-run the job later", resp.StatusCode, when)
}

// response digs the HTTP answer and GitHub's message out of a go-github error.
func response(err error) (*http.Response, string) {
	if e, ok := errors.AsType[*github.RateLimitError](err); ok {
		return e.Response, e.Message
	}
	if e, ok := errors.AsType[*github.AbuseRateLimitError](err); ok {
		return e.Response, e.Message
	}
	if e, ok := errors.AsType[*github.ErrorResponse](err); ok {
		return e.Response, e.Message
	}
	return nil, ""
}

func isRateLimit(resp *http.Response, err error) bool {
	if _, ok := errors.AsType[*github.RateLimitError](err); ok {
		return true
	}
	if _, ok := errors.AsType[*github.AbuseRateLimitError](err); ok {
		return true
	}
	_, hasRetryAfter := retryAfter(resp)
	return resp.StatusCode == http.StatusTooManyRequests || (resp.StatusCode == http.StatusForbidden && hasRetryAfter)
}

// isMissingSHA is the 422 GitHub sends when a file is created without a sha
// but exists: someone else created it since it was read.
func isMissingSHA(status int, msg string) bool {
	return status == http.StatusUnprocessableEntity && strings.Contains(msg, `"sha" wasn't supplied`)
}

// isTooLong is the 422 for a comment body over 65,536 characters.
func isTooLong(err error) bool {
	e, ok := errors.AsType[*github.ErrorResponse](err)
	if !ok || e.Response == nil || e.Response.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	for _, fe := range e.Errors {
		if strings.Contains(strings.ToLower(fe.Message), "too long") {
			return true
		}
	}
	return strings.Contains(strings.ToLower(e.Message), "too long")
}

func isURLError(err error) bool {
	_, ok := errors.AsType[*url.Error](err)
	return ok
}

// redact removes the token from s.
func (c *Client) redact(s string) string {
	if c.token == "" {
		return s
	}
	return strings.ReplaceAll(s, c.token, "[REDACTED]")
}

// redactCause scrubs the token from the text GitHub sent back, in place, so
// that no error in the chain can reveal it even if a server echoes it.
func (c *Client) redactCause(err error) {
	if e, ok := errors.AsType[*github.ErrorResponse](err); ok {
		e.Message = c.redact(e.Message)
		for i := range e.Errors {
			e.Errors[i].Message = c.redact(e.Errors[i].Message)
		}
	}
	if e, ok := errors.AsType[*github.RateLimitError](err); ok {
		e.Message = c.redact(e.Message)
	}
	if e, ok := errors.AsType[*github.AbuseRateLimitError](err); ok {
		e.Message = c.redact(e.Message)
	}
	if e, ok := errors.AsType[*url.Error](err); ok {
		e.URL = c.redact(e.URL)
	}
}
