// Package fakegithub is a local, in-memory stand-in for the parts of the
// GitHub REST API that wirebench uses: issue comments (the sticky PR comment),
// the authenticated user (GET /user, which tells a personal token's account
// and refuses installation tokens), repository contents (the stored
// baseline), git blobs (large files), a pull request's commits and a
// commit's pull requests (what a pull request accepts). As on GitHub, a token may edit only
// the comments its own account wrote.
//
// It speaks the real endpoints, status codes and JSON shapes as api.github.com
// returns them and as github.com/google/go-github decodes them, so the client
// under test runs unchanged against it. On top of that it can script failures
// (5xx, 429, secondary and primary rate limits, hung requests, a concurrent
// writer forcing 409) and records everything for assertions.
//
// It lives in a normal (non-_test) package so that tests of other packages and
// the container end-to-end test can start it. A Server is safe for concurrent
// use. It is a test tool: tokens are compared in plain text and recorded
// requests keep their Authorization header, so use made-up tokens only.
package fakegithub
