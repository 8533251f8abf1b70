package cli

import (
	"context"
	"slices"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/store"
)

// Where a pull request's acceptance comes from (the README's "Living with
// the gate: accepting an intended change"):
//
//   - its labels, description and author: the event payload
//     (GITHUB_EVENT_PATH: pull_request.labels, .body, .user), as GitHub
//     sent it when the event happened, so a label added later triggers a
//     new run (the labeled type) rather than changing this one;
//   - its commits' messages: GET /repos/{owner}/{repo}/pulls/{number}/commits
//     (the payload has none), read only when a regression is left that
//     the label and the description did not accept;
//   - on the push that merges it: GET /repos/{owner}/{repo}/commits/{sha}/pulls
//     gives the merged pull request with its labels and description, and
//     its commits as above.
//
// Whoever added the label is known only when the run is the labeled
// event itself (its sender); labels can be set only by accounts with
// triage access, which is why a label accepts for a fork's pull request.
// Nothing that could not be read accepts anything: a failed read is a
// note, and the regressions it might have accepted still fail.

// labelAcceptance is the acceptance of the accept-label label, when the
// pull request (labels) carries it. sender, when the run is the labeled
// event of that label, is who added it.
func labelAcceptance(label string, labels []string, pr int, sender string) (accept.Acceptance, bool) {
	if label == "" || !slices.Contains(labels, label) {
		return accept.Acceptance{}, false
	}
	return accept.Acceptance{Source: "label " + label, PR: pr, By: sender}, true
}

// descriptionAcceptances reads the Wirebench-Accept lines of a pull
// request's description; a line that accepts nothing is a note.
func descriptionAcceptances(number int, author, body string) (accept.Set, []string) {
	set, problems := accept.FromDescription(body, accept.Acceptance{Source: "the pull request's description", By: author, PR: number})
	return set, problemNotes(problems)
}

// commitAcceptances reads the Wirebench-Accept trailers of a pull
// request's commits; a trailer that accepts nothing, and commits that
// could not be read, are notes.
func (a *actionRun) commitAcceptances(ctx context.Context, number int) (accept.Set, []string) {
	if a.api == nil {
		return nil, []string{"No github-token: the pull request's commit messages were not read, so no Wirebench-Accept trailer in them accepts anything."}
	}
	cs, err := a.api.PullRequestCommits(ctx, a.ev.Owner, a.ev.Repo, number)
	if err != nil {
		return nil, []string{"The pull request's commit messages could not be read, so no Wirebench-Accept trailer in them accepts anything: " + err.Error()}
	}
	var set accept.Set
	var problems []accept.Problem
	for _, c := range cs {
		s, p := accept.FromCommit(c.Message, accept.Acceptance{Source: "commit " + store.ShortSHA(c.SHA), By: c.Author, PR: number})
		set, problems = append(set, s...), append(problems, p...)
	}
	return set, problemNotes(problems)
}

// problemNotes are the notes on lines that accept nothing.
func problemNotes(problems []accept.Problem) []string {
	var notes []string
	for _, p := range problems {
		notes = append(notes, "A Wirebench-Accept line accepts nothing: "+p.Error()+".")
	}
	return notes
}

// prAccepts is what the pull request accepts beyond its label, each
// source read once a run: the action applies it to the count's
// regressions and again to the wall-time check's, and neither the
// commits nor the notes on unreadable lines come twice.
type prAccepts struct {
	desc, commits         accept.Set
	descRead, commitsRead bool
}

// accept applies what the pull request accepts to o, the outcome of its
// check: the label, then the description's lines, then (only if a
// regression is still left) its commits' trailers. It notes what it
// accepted and, the first time it reads a source, what it could not
// read. It may be called again on a later outcome of the same run (the
// wall-time check's).
func (a *actionRun) accept(ctx context.Context, o *outcome.Outcome) {
	pr := a.ev.PR
	if pr == nil || o.Report.Result == nil || o.Broken != "" || !hasRegression(o.Report.Result) {
		return
	}
	sender := ""
	if a.ev.Action == "labeled" && a.ev.Label == a.cfg.AcceptLabel {
		sender = a.ev.Sender
	}
	n := 0
	if l, ok := labelAcceptance(a.cfg.AcceptLabel, pr.Labels, pr.Number, sender); ok {
		n += check.Accept(o, accept.Set{l})
	}
	if a.cfg.AcceptText && hasRegression(o.Report.Result) {
		var notes []string
		if !a.accepts.descRead {
			a.accepts.desc, notes = descriptionAcceptances(pr.Number, pr.Author, pr.Body)
			a.accepts.descRead = true
		}
		n += check.Accept(o, a.accepts.desc)
		if hasRegression(o.Report.Result) {
			if !a.accepts.commitsRead {
				var more []string
				a.accepts.commits, more = a.commitAcceptances(ctx, pr.Number)
				a.accepts.commitsRead = true
				notes = append(notes, more...)
			}
			n += check.Accept(o, a.accepts.commits)
		}
		o.Report.Notes = append(o.Report.Notes, notes...)
	}
	if n > 0 {
		a.gha.Noticef("wirebench: %s accepted by the pull request (see the report)", human.Plural(n, "regression", "regressions"))
	}
}

// hasRegression reports whether r has a regression not yet accepted.
func hasRegression(r *compare.Result) bool {
	for _, c := range r.Comparisons {
		if c.Verdict == compare.Regression && c.Accepted == nil {
			return true
		}
	}
	return false
}

// mergedAcceptances is what the pull requests merged by the pushed commit
// accepted, and their numbers, for the history entry of this run: read
// through the API (nothing without a token), each merged pull request's
// label, and with accept-text its description's and commits' lines. A failed read is a
// note: the run is stored without the acceptance, and a change point it
// would have explained is reported as unexplained.
func (a *actionRun) mergedAcceptances(ctx context.Context) (accept.Set, []int, []string) {
	if a.api == nil || a.ev.SHA == "" || a.ev.Name != "push" {
		return nil, nil, nil
	}
	prs, err := a.api.CommitPullRequests(ctx, a.ev.Owner, a.ev.Repo, a.ev.SHA)
	if err != nil {
		a.gha.Warningf("could not read the pull request this push merged, so its acceptance is not recorded: %v", err)
		return nil, nil, []string{"The pull request this push merged could not be read, so what it accepted is not recorded in the history: " + err.Error()}
	}
	var set accept.Set
	var numbers []int
	var notes []string
	for _, p := range prs {
		if !p.Merged || p.BaseRef != a.ev.DefaultBranch && a.ev.DefaultBranch != "" {
			continue // an open pull request that contains the commit
		}
		numbers = append(numbers, p.Number)
		if l, ok := labelAcceptance(a.cfg.AcceptLabel, p.Labels, p.Number, ""); ok {
			set = append(set, l)
		}
		if a.cfg.AcceptText {
			s, n := descriptionAcceptances(p.Number, p.Author, p.Body)
			s2, n2 := a.commitAcceptances(ctx, p.Number)
			set, notes = append(append(set, s...), s2...), append(append(notes, n...), n2...)
		}
	}
	return set, numbers, notes
}
