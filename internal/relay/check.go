package relay

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/githubapi"
	"github.com/wirebench/wirebench/internal/report"
)

// Lister lists the open pull requests of a head branch
// (githubapi.Client.OpenPullRequests).
type Lister interface {
	OpenPullRequests(ctx context.Context, owner, repo, headOwner, ref string) ([]githubapi.PullRequest, error)
}

// ErrNoPullRequest is Find's error when no open pull request has the
// run's head: the branch was pushed again since (the newer run comments)
// or the pull request was closed. Nothing is wrong with the relay.
var ErrNoPullRequest = errors.New("no open pull request has the run's head")

// Find lists the open pull requests of owner/repo whose head is the
// run's, as GitHub tells both: the run's head repository and branch (a
// fork's workflow_run event lists no pull requests, so they are looked
// up by their head) at the run's commit.
func Find(ctx context.Context, api Lister, owner, repo string, run *event.WorkflowRun) ([]githubapi.PullRequest, error) {
	headOwner, _, ok := strings.Cut(run.HeadRepo, "/")
	if !ok || run.HeadBranch == "" || !shaPattern.MatchString(run.HeadSHA) {
		return nil, fmt.Errorf("the workflow_run event names no head repository, branch and commit (%q, %q, %q)", run.HeadRepo, run.HeadBranch, run.HeadSHA)
	}
	prs, err := api.OpenPullRequests(ctx, owner, repo, headOwner, run.HeadBranch)
	if err != nil {
		return nil, err
	}
	var found []githubapi.PullRequest
	for _, pr := range prs {
		if strings.EqualFold(pr.HeadRepo, run.HeadRepo) && pr.HeadSHA == run.HeadSHA {
			found = append(found, pr)
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%w: none of %s:%s is at %s (pushed again since, and the newer run comments; or closed)", ErrNoPullRequest, run.HeadRepo, run.HeadBranch, run.HeadSHA[:7])
	}
	return found, nil
}

// Check ties the relay to the run that completed and to the open pull
// requests with its head (Find): the relay must name the run's head
// repository and commit, one of those pull requests, and, when it
// compared, have measured that commit. It returns the pull request to
// comment on; any mismatch is refused, naming it.
func (r *Relay) Check(run *event.WorkflowRun, prs []githubapi.PullRequest) (githubapi.PullRequest, error) {
	p := r.PullRequest
	switch {
	case p.HeadSHA != run.HeadSHA:
		return githubapi.PullRequest{}, fmt.Errorf("the relay says it measured %s, but the run that completed was of %s: refused", p.HeadSHA[:7], report.ShortSHA(run.HeadSHA))
	case !strings.EqualFold(p.HeadRepo, run.HeadRepo):
		return githubapi.PullRequest{}, fmt.Errorf("the relay names head repository %s, but the run was of %s: refused", p.HeadRepo, run.HeadRepo)
	case r.Result != nil && r.Result.CandidateEnv.Commit != run.HeadSHA:
		return githubapi.PullRequest{}, fmt.Errorf("the relay's comparison measured commit %q, not the run's %s: refused", excerpt(r.Result.CandidateEnv.Commit), report.ShortSHA(run.HeadSHA))
	}
	var numbers []string
	for _, pr := range prs {
		if pr.Number == p.Number {
			return pr, nil
		}
		numbers = append(numbers, fmt.Sprintf("#%d", pr.Number))
	}
	return githubapi.PullRequest{}, fmt.Errorf("the relay names pull request #%d, but the open pull request of %s at %s is %s: refused",
		p.Number, run.HeadRepo, report.ShortSHA(run.HeadSHA), strings.Join(numbers, ", "))
}
