package event

import (
	"os"
	"path/filepath"
	"strings"
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

// TestReadLabeled: a labeled event gives the pull request's labels,
// description and author, the label added and who added it.
func TestReadLabeled(t *testing.T) {
	e, err := Read(env(map[string]string{
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "testdata/pull_request_labeled.json", "GITHUB_REPOSITORY": "octo-org/codecs",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if e.Action != "labeled" || e.Label != "wirebench:accept" || e.Sender != "maintainer" {
		t.Errorf("action %q label %q sender %q, want labeled, wirebench:accept, maintainer", e.Action, e.Label, e.Sender)
	}
	if e.PR == nil || strings.Join(e.PR.Labels, ",") != "wirebench:accept,enhancement" || e.PR.Author != "octo-org" || e.PR.Body != "Adds the order id to the small message." {
		t.Errorf("PR %+v", e.PR)
	}
	plain, err := Read(env(map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "testdata/pull_request.json"}))
	if err != nil {
		t.Fatal(err)
	}
	if plain.Action != "synchronize" || plain.Label != "" || len(plain.PR.Labels) != 0 || plain.PR.Body != "Reuses the encoder." {
		t.Errorf("synchronize event: action %q label %q labels %q body %q", plain.Action, plain.Label, plain.PR.Labels, plain.PR.Body)
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

// TestReadRefusesBadPayloads: a payload over the bound is refused before
// it is parsed, and a pull request event without a number is an error,
// not a comment on #0.
func TestReadRefusesBadPayloads(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxPayloadBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	noNumber := filepath.Join(dir, "no-number.json")
	os.WriteFile(noNumber, []byte(`{"pull_request":{"head":{"sha":"a"}}}`), 0o644)
	for _, tt := range []struct{ path, event, want string }{
		{huge, "pull_request", "larger than 32 MiB"},
		{noNumber, "pull_request", "without a pull request number"},
	} {
		_, err := Read(env(map[string]string{"GITHUB_EVENT_NAME": tt.event, "GITHUB_EVENT_PATH": tt.path}))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to say %q", filepath.Base(tt.path), err, tt.want)
		}
	}
}

// TestReadWorkflowRun: a workflow_run event of a fork's pull request run
// gives the run as GitHub tells it (its head repository, branch and
// commit, its conclusion) and no pull request, since GitHub lists none.
func TestReadWorkflowRun(t *testing.T) {
	e, err := Read(env(map[string]string{
		"GITHUB_EVENT_NAME": "workflow_run", "GITHUB_EVENT_PATH": "testdata/workflow_run_fork.json", "GITHUB_REPOSITORY": "octo-org/codecs",
		"GITHUB_REF": "refs/heads/main", "GITHUB_SHA": "3333333333333333333333333333333333333333",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := WorkflowRun{ID: 9876543210, Event: "pull_request", Conclusion: "failure", URL: "https://github.com/octo-org/codecs/actions/runs/9876543210",
		HeadSHA: "2222222222222222222222222222222222222222", HeadBranch: "fix-varint", HeadRepo: "forker/codecs"}
	if e.Run == nil || e.Run.ID != want.ID || e.Run.Event != want.Event || e.Run.Conclusion != want.Conclusion || e.Run.URL != want.URL ||
		e.Run.HeadSHA != want.HeadSHA || e.Run.HeadBranch != want.HeadBranch || e.Run.HeadRepo != want.HeadRepo || len(e.Run.PullRequests) != 0 {
		t.Errorf("run %+v, want %+v", e.Run, want)
	}
	if e.IsPullRequest() || e.IsPushToDefault() {
		t.Error("a workflow_run event is neither a pull request nor a push")
	}
}
