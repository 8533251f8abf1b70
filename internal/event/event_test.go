package event

import (
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestRead(t *testing.T) {
	tests := []struct {
		name, file, event, ref string
		wantPR                 int
		wantFork, wantPush     bool
		wantSHA                string
	}{
		{"pull request", "testdata/pull_request.json", "pull_request", "refs/pull/42/merge", 42, false, false, "2222222222222222222222222222222222222222"},
		{"fork pull request", "testdata/pull_request_fork.json", "pull_request", "refs/pull/43/merge", 43, true, false, "2222222222222222222222222222222222222222"},
		{"push to main", "testdata/push.json", "push", "refs/heads/main", 0, false, true, "4444444444444444444444444444444444444444"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Read(env(map[string]string{
				"GITHUB_EVENT_NAME": tt.event, "GITHUB_EVENT_PATH": tt.file, "GITHUB_REPOSITORY": "octo-org/codecs",
				"GITHUB_REF": tt.ref, "GITHUB_SHA": "ffffffffffffffffffffffffffffffffffffffff", // the merge commit
			}))
			if err != nil {
				t.Fatal(err)
			}
			if e.Owner != "octo-org" || e.Repo != "codecs" || e.DefaultBranch != "main" {
				t.Errorf("repository %s/%s default %s", e.Owner, e.Repo, e.DefaultBranch)
			}
			if e.SHA != tt.wantSHA {
				t.Errorf("SHA %s, want %s (not the merge commit)", e.SHA, tt.wantSHA)
			}
			if e.IsPushToDefault() != tt.wantPush {
				t.Errorf("IsPushToDefault %v", e.IsPushToDefault())
			}
			if tt.wantPR == 0 {
				if e.PR != nil {
					t.Errorf("unexpected PR %+v", e.PR)
				}
				return
			}
			if e.PR == nil || e.PR.Number != tt.wantPR || e.PR.Fork != tt.wantFork || e.PR.BaseRef != "main" ||
				e.PR.BaseSHA != "3333333333333333333333333333333333333333" {
				t.Errorf("PR %+v", e.PR)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read(env(map[string]string{"GITHUB_EVENT_PATH": "testdata/absent.json"})); err == nil {
		t.Error("missing payload accepted")
	}
	if _, err := Read(env(map[string]string{"GITHUB_REPOSITORY": "nosslash"})); err == nil {
		t.Error("bad GITHUB_REPOSITORY accepted")
	}
	e, err := Read(env(map[string]string{"GITHUB_EVENT_NAME": "workflow_dispatch", "GITHUB_REPOSITORY": "o/r"}))
	if err != nil || e.IsPullRequest() || e.IsPushToDefault() {
		t.Errorf("plain event: %+v %v", e, err)
	}
}
