// Package event reads what triggered a GitHub Actions run: the event name
// and the parts of the event payload wirebench acts on (the pull request,
// its base and head, whether it comes from a fork, the default branch).
//
// For pull_request events GITHUB_SHA is the test merge commit, not the
// head of the pull request; the head and base SHAs come from the payload.
package event
