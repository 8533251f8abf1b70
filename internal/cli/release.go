package cli

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/history"
)

// creepOptions are the update's creep settings of c: the limit, the
// runs back, whether to fail, and, with creep-since release, release
// (nil otherwise) to find the release the reference run is of.
func creepOptions(c *config.Config, u *check.UpdateOptions, release func(context.Context) (history.CreepOptions, string)) {
	runs, isRelease := c.CreepRuns()
	u.Floor, u.FailOnCreep = c.HistoryFloor(), c.FailOnCreep
	u.Creep = history.CreepOptions{Limit: c.CreepLimit, Runs: runs}
	if isRelease {
		u.CreepRelease = release
	}
}

// gitRelease finds the last release of the git checkout at dir for
// creep-since release: the newest tag reachable from HEAD (git describe
// --tags --abbrev=0), a run's commit in it when it is the tag's commit
// or one before it (git merge-base --is-ancestor). Without git or a tag
// the note says so, and creep is measured from the oldest stored run.
func gitRelease(dir string) func(context.Context) (history.CreepOptions, string) {
	return func(ctx context.Context) (history.CreepOptions, string) {
		out, err := exec.CommandContext(ctx, "git", "-C", dir, "describe", "--tags", "--abbrev=0", "HEAD").Output()
		tag := strings.TrimSpace(string(out))
		if err != nil || tag == "" {
			return history.CreepOptions{}, fmt.Sprintf("creep-since release: no tag is reachable from HEAD in %s (%s), so creep is measured from the oldest stored run.", dir, gitError(err))
		}
		known := map[string]bool{}
		in := func(commit string) bool {
			if v, ok := known[commit]; ok {
				return v
			}
			// Exit status 1: not an ancestor; anything else (a commit this
			// clone lacks) is not known to be in it either.
			v := exec.CommandContext(ctx, "git", "-C", dir, "merge-base", "--is-ancestor", commit, tag).Run() == nil
			known[commit] = v
			return v
		}
		return history.CreepOptions{Release: tag, InRelease: in}, ""
	}
}

// gitError says briefly why a git command failed.
func gitError(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return strings.TrimSpace(strings.SplitN(string(ee.Stderr), "\n", 2)[0])
	}
	if err == nil {
		return "no tag"
	}
	return err.Error()
}

// apiRelease finds the repository's latest release for creep-since
// release through the API (the action's checkout has neither git nor,
// by default, the tags): its tag, a run's commit in it when the tag is
// the commit or ahead of it (a compare, once a commit). Without a
// release, or when the API fails, the note says so and creep is
// measured from the oldest stored run.
func (a *actionRun) apiRelease(ctx context.Context) (history.CreepOptions, string) {
	if a.api == nil {
		return history.CreepOptions{}, "creep-since release: without a github-token the latest release cannot be read, so creep is measured from the oldest stored run."
	}
	owner, repo := a.ev.Owner, a.ev.Repo
	tag, err := a.api.LatestRelease(ctx, owner, repo)
	switch {
	case err != nil:
		return history.CreepOptions{}, fmt.Sprintf("creep-since release: the latest release could not be read (%v), so creep is measured from the oldest stored run.", err)
	case tag == "":
		return history.CreepOptions{}, fmt.Sprintf("creep-since release: %s/%s has no release yet, so creep is measured from the oldest stored run.", owner, repo)
	}
	known := map[string]bool{}
	in := func(commit string) bool {
		if v, ok := known[commit]; ok {
			return v
		}
		v, err := a.api.Contains(ctx, owner, repo, tag, commit)
		if err != nil {
			a.gha.Warningf("creep-since release: could not compare %s with %s: %v", tag, commit, err)
		}
		known[commit] = v
		return v
	}
	return history.CreepOptions{Release: tag, InRelease: in}, ""
}
