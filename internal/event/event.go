package event

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/bounded"
)

// Event is the trigger of a run.
type Event struct {
	// Name is GITHUB_EVENT_NAME: pull_request, push, workflow_dispatch, ...
	Name string
	// Owner and Repo name the repository the workflow runs in.
	Owner, Repo string
	// DefaultBranch is the repository's default branch.
	DefaultBranch string
	// Ref is the pushed ref for push events (refs/heads/main).
	Ref string
	// SHA is the commit measured: the head for pull requests, the pushed
	// commit otherwise.
	SHA string
	// PR is set for pull_request and pull_request_target events.
	PR *PullRequest
	// Run is set for workflow_run events: the run that completed, whose
	// results a comment mode posts.
	Run *WorkflowRun
	// Action is the payload's action (opened, synchronize, labeled, …);
	// Sender the login of the account that caused the event; Label the
	// name of the label a labeled or unlabeled event added or removed.
	Action, Sender, Label string
}

// PullRequest describes the pull request of a pull_request event.
type PullRequest struct {
	Number   int
	HeadSHA  string
	HeadRef  string
	HeadRepo string // owner/name of the head repository
	BaseSHA  string
	BaseRef  string
	// Fork is set when the head repository is not the base repository:
	// the token is then read-only and secrets are not available.
	Fork bool
	// Author is the login of the pull request's author, Body its
	// description and Labels the names of its labels when the event was
	// sent: the pull request's own text, to be escaped when shown.
	Author string
	Body   string
	Labels []string
}

// WorkflowRun is the run a workflow_run event is about: GitHub's own
// account of it, which the run's code cannot change.
type WorkflowRun struct {
	ID int64
	// Event is what triggered the run (pull_request for the first half of
	// a fork's check), Conclusion how it ended (success, failure, …) and
	// URL its page.
	Event, Conclusion, URL string
	// HeadSHA is the commit the run measured, HeadBranch its branch and
	// HeadRepo the owner/name of the repository that branch is in (a
	// fork's for a pull request from a fork).
	HeadSHA, HeadBranch, HeadRepo string
	// PullRequests are the pull requests GitHub lists for the run: none
	// for a run of a pull request from a fork.
	PullRequests []int
}

// IsPullRequest reports whether the run was triggered by a pull request.
func (e *Event) IsPullRequest() bool { return e.PR != nil }

// IsPushToDefault reports whether the run is a push to the default branch.
func (e *Event) IsPushToDefault() bool {
	return e.Name == "push" && e.DefaultBranch != "" && e.Ref == "refs/heads/"+e.DefaultBranch
}

type payload struct {
	Number int    `json:"number"`
	Ref    string `json:"ref"`
	After  string `json:"after"`
	Action string `json:"action"`
	Sender struct {
		Login string `json:"login"`
	} `json:"sender"`
	Label struct {
		Name string `json:"name"`
	} `json:"label"`
	PullRequest *struct {
		Number int    `json:"number"`
		Body   string `json:"body"`
		User   struct {
			Login string `json:"login"`
		} `json:"user"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
		Head struct {
			SHA  string `json:"sha"`
			Ref  string `json:"ref"`
			Repo *struct {
				FullName string `json:"full_name"`
				Fork     bool   `json:"fork"`
			} `json:"repo"`
		} `json:"head"`
		Base struct {
			SHA  string `json:"sha"`
			Ref  string `json:"ref"`
			Repo struct {
				FullName string `json:"full_name"`
			} `json:"repo"`
		} `json:"base"`
	} `json:"pull_request"`
	Repository struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	WorkflowRun *struct {
		ID             int64  `json:"id"`
		Event          string `json:"event"`
		Conclusion     string `json:"conclusion"`
		HTMLURL        string `json:"html_url"`
		HeadSHA        string `json:"head_sha"`
		HeadBranch     string `json:"head_branch"`
		HeadRepository *struct {
			FullName string `json:"full_name"`
		} `json:"head_repository"`
		PullRequests []struct {
			Number int `json:"number"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

// Read builds the Event from the runner's environment: GITHUB_EVENT_NAME,
// GITHUB_EVENT_PATH (the payload), GITHUB_REPOSITORY, GITHUB_REF and
// GITHUB_SHA.
func Read(getenv func(string) string) (*Event, error) {
	e := &Event{Name: getenv("GITHUB_EVENT_NAME"), Ref: getenv("GITHUB_REF"), SHA: getenv("GITHUB_SHA")}
	if repo := getenv("GITHUB_REPOSITORY"); repo != "" {
		owner, name, ok := strings.Cut(repo, "/")
		if !ok {
			return nil, fmt.Errorf("GITHUB_REPOSITORY %q is not owner/name", repo)
		}
		e.Owner, e.Repo = owner, name
	}
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return e, nil
	}
	data, err := bounded.ReadFile(path, MaxPayloadBytes)
	if err != nil {
		return nil, fmt.Errorf("read the event payload (GITHUB_EVENT_PATH): %w", err)
	}
	if err := e.parse(path, data); err != nil {
		return nil, err
	}
	return e, nil
}

// MaxPayloadBytes bounds the event payload read: GitHub caps webhook
// payloads at 25 MB, so anything larger is not one.
const MaxPayloadBytes = 32 << 20

// parse fills e from the payload data read from path (named in errors).
func (e *Event) parse(path string, data []byte) error {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("event payload %s is not valid JSON: %w", path, err)
	}
	e.DefaultBranch = p.Repository.DefaultBranch
	if e.Owner == "" && p.Repository.FullName != "" {
		e.Owner, e.Repo, _ = strings.Cut(p.Repository.FullName, "/")
	}
	if p.Ref != "" {
		e.Ref = p.Ref
	}
	if p.After != "" && e.Name == "push" {
		e.SHA = p.After
	}
	e.Action, e.Sender, e.Label = p.Action, p.Sender.Login, p.Label.Name
	if w := p.WorkflowRun; w != nil && e.Name == "workflow_run" {
		e.Run = &WorkflowRun{ID: w.ID, Event: w.Event, Conclusion: w.Conclusion, URL: w.HTMLURL, HeadSHA: w.HeadSHA, HeadBranch: w.HeadBranch}
		if w.HeadRepository != nil {
			e.Run.HeadRepo = w.HeadRepository.FullName
		}
		for _, pr := range w.PullRequests {
			e.Run.PullRequests = append(e.Run.PullRequests, pr.Number)
		}
	}
	if pr := p.PullRequest; pr != nil && strings.HasPrefix(e.Name, "pull_request") {
		number := pr.Number
		if number == 0 {
			number = p.Number
		}
		if number <= 0 {
			return fmt.Errorf("event payload %s: a %s event without a pull request number (got %d)", path, e.Name, number)
		}
		e.PR = &PullRequest{Number: number, HeadSHA: pr.Head.SHA, HeadRef: pr.Head.Ref, BaseSHA: pr.Base.SHA, BaseRef: pr.Base.Ref,
			Author: pr.User.Login, Body: pr.Body}
		for _, l := range pr.Labels {
			e.PR.Labels = append(e.PR.Labels, l.Name)
		}
		if r := pr.Head.Repo; r != nil {
			e.PR.HeadRepo = r.FullName
			// A head repository that does not say its name cannot be
			// told apart from a fork: treat it as one, like a deleted one.
			e.PR.Fork = r.Fork || r.FullName == "" || (pr.Base.Repo.FullName != "" && r.FullName != pr.Base.Repo.FullName)
		} else {
			e.PR.Fork = true // the head repository was deleted: treat as untrusted
		}
		if e.PR.HeadSHA != "" {
			e.SHA = e.PR.HeadSHA
		}
	}
	return nil
}
