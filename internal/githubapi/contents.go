package githubapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v93/github"
)

// MaxWriteAttempts bounds UpdateFile's read-merge-write loop when other
// writers keep winning the race.
const MaxWriteAttempts = 5

// GetFile reads path at ref (a branch, tag or commit; "" for the default
// branch) through the Contents API and returns its content and blob sha. A
// missing file (or ref) is ErrNotFound. Files over 1 MB, which the Contents
// API returns without content (encoding "none"), are fetched from the Git
// blobs API by their sha, so content and sha always belong together.
func (c *Client) GetFile(ctx context.Context, owner, repo, path, ref string) (content []byte, sha string, err error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	content, sha, err = c.getFile(ctx, owner, repo, path, ref)
	if err != nil {
		return nil, "", c.fail(ctx, fmt.Sprintf("read %s from %s/%s@%s", path, owner, repo, ref), "", err)
	}
	return content, sha, nil
}

func (c *Client) getFile(ctx context.Context, owner, repo, path, ref string) ([]byte, string, error) {
	fc, _, _, err := c.gh.Repositories.GetContents(ctx, owner, repo, path, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		return nil, "", err
	}
	if fc == nil || fc.GetType() != "file" {
		return nil, "", &Error{Op: "read " + path, Err: errNotAFile,
			msg: fmt.Sprintf("read %s from %s/%s: it is not a file (a directory, symlink or submodule): check the path", path, owner, repo)}
	}
	if fc.GetEncoding() == "none" {
		raw, _, err := c.gh.Git.GetBlobRaw(ctx, owner, repo, fc.GetSHA())
		return raw, fc.GetSHA(), err
	}
	s, err := fc.GetContent()
	if err != nil {
		return nil, "", fmt.Errorf("decode content of %s: %w", path, err)
	}
	return []byte(s), fc.GetSHA(), nil
}

var errNotAFile = errors.New("not a file")

// UpdateFile changes path on branch without ever overwriting someone else's
// write. It reads the file (or notes it is absent), calls merge(old, exists)
// for the new content, and writes it conditionally on the sha it read. If
// another writer got there first (409, or 422 "sha wasn't supplied" when the
// file appeared meanwhile), it reads again and calls merge again with the
// fresh content, up to MaxWriteAttempts times; after that it returns
// ErrConflict. It returns the new commit's sha, or "" if merge changed
// nothing (then nothing is written).
//
// merge may be called more than once, and, because a write whose answer was
// lost (5xx, timeout) may still have been applied, it may be handed content
// that already contains its own change: it must be idempotent (e.g. dedupe
// history entries by commit).
func (c *Client) UpdateFile(ctx context.Context, owner, repo, path, branch, message string,
	merge func(old []byte, exists bool) ([]byte, error)) (commitSHA string, err error) {
	ctx, cancel := c.budget(ctx)
	defer cancel()
	op := fmt.Sprintf("update %s on %s/%s@%s", path, owner, repo, branch)
	for attempt := 1; ; attempt++ {
		old, sha, err := c.getFile(ctx, owner, repo, path, branch)
		exists := err == nil
		if err != nil && !isNotFound(err) {
			return "", c.fail(ctx, op, "", err)
		}
		next, err := merge(old, exists)
		if err != nil {
			return "", fmt.Errorf("%s: merge: %w", op, err)
		}
		if exists && bytes.Equal(next, old) {
			return "", nil
		}
		opts := &github.RepositoryContentFileOptions{Message: new(message), Content: next, Branch: new(branch)}
		if exists {
			opts.SHA = new(sha)
		}
		res, _, err := c.gh.Repositories.UpdateFile(ctx, owner, repo, path, opts)
		if err == nil {
			return res.GetSHA(), nil
		}
		e := c.fail(ctx, op, scopeContents, err).(*Error)
		if e.Kind != ErrConflict {
			return "", e
		}
		if attempt == MaxWriteAttempts {
			e.msg = c.redact(fmt.Sprintf("%s: still conflicting after %d attempts: other jobs keep changing %s at the same time; re-run the job [cause: %v]",
				op, attempt, path, err))
			return "", e
		}
		if err := c.sleep(ctx, backoff(attempt-1)); err != nil {
			return "", c.fail(ctx, op, "", err)
		}
	}
}

// isNotFound reports whether err is a 404 answer.
func isNotFound(err error) bool {
	resp, _ := response(err)
	return resp != nil && resp.StatusCode == http.StatusNotFound
}
