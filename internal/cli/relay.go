package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/relay"
)

// comment is mode comment: in a workflow_run job of the base repository,
// after a pull request's run from a fork (whose token is read-only), it
// reads the relay that run uploaded, finds the pull request by the run's
// head as GitHub tells it, ties the two together and posts the sticky
// comment, rendered here from the relay's numbers. It builds and runs
// nothing; a relay that is malformed or names another pull request or
// commit is an error, and nothing is posted. The check's pass or fail
// stays the pull request run's own (docs/action.md, "Fork pull requests").
func (a *actionRun) comment(ctx context.Context) error {
	run := a.ev.Run
	switch {
	case run == nil:
		return badInputf("mode comment runs in a workflow_run job (on: workflow_run, types: [completed]); this is a %s event", orDash(a.ev.Name))
	case run.Event != "pull_request":
		a.gha.Noticef("wirebench: the run that completed was triggered by %s, not a pull request: nothing to comment", orDash(run.Event))
		return nil
	case a.api == nil:
		return badInputf("mode comment needs github-token (with permissions pull-requests: write) to find the pull request and comment")
	}
	rel, err := relay.Read(a.cfg.ArtifactPath)
	if err != nil {
		a.gha.Errorf("wirebench: %s", firstLine(err.Error()))
		return badInput{Err: err}
	}
	prs, err := relay.Find(ctx, a.api, a.ev.Owner, a.ev.Repo, run)
	if errors.Is(err, relay.ErrNoPullRequest) {
		a.gha.Warningf("wirebench: %v", err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("find the pull request of run %d: %w", run.ID, err)
	}
	pr, err := rel.Check(run, prs)
	if err != nil {
		a.gha.Errorf("wirebench: %s", err)
		return badInput{Err: err}
	}
	changed := rel.Broken != nil
	if r := rel.Result; r != nil {
		changed = r.Count(compare.Regression)+r.Count(compare.Improvement) > 0
	}
	d := a.delivery()
	d.Marker = commentMarker(rel.Suite)
	a.gha.Infof("wirebench: commenting on #%d for run %d (%s at %s)", pr.Number, run.ID, run.HeadRepo, run.HeadSHA)
	return d.Relayed(ctx, pr.Number, rel.Markdown(run), changed)
}

// cmdComment is `wirebench comment`: mode comment from a workflow step's
// shell, with the runner's environment (the event, the repository, the
// token in GITHUB_TOKEN unless INPUT_GITHUB-TOKEN is set) and its flags
// in place of the action's inputs.
func cmdComment(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Comment, args)
	if err != nil {
		return err
	}
	vars := map[string]string{
		config.InputVar("mode"): "comment", config.InputVar("artifact-path"): c.ArtifactPath,
		config.InputVar("comment"): c.Comment, config.InputVar("comment-author"): c.CommentAuthor,
	}
	if e.getenv(config.InputVar("github-token")) == "" {
		vars[config.InputVar("github-token")] = e.getenv("GITHUB_TOKEN")
	}
	inner := *e
	inner.getenv = func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return e.getenv(k)
	}
	return cmdAction(ctx, &inner)
}
