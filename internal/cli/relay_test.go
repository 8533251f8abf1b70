package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/fakegithub"
	"github.com/wirebench/wirebench/internal/relay"
)

// Tokens of the two halves of a fork's check: the pull_request run's is
// read-only, the workflow_run job's may comment.
const (
	forkToken = "ghs_WIREBENCHforkREADONLY0123456789abcdef"
	baseToken = "ghs_WIREBENCHbaseWRITE0123456789abcdefghij"
)

// pairRepo is the base repository of the fork's pull request
// (internal/event/testdata/pull_request_fork.json: #43 of
// contributor/codecs:fast-msgpack).
const pairOwner, pairRepo = "octo-org", "codecs"

// actionIn runs the action in-process in dir with the runner's
// variables vars and the inputs of action.yml, defaults filled in as the
// runner does, then inputs over them.
func actionIn(t *testing.T, dir string, vars, inputs map[string]string) (int, string, string) {
	t.Helper()
	all := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": pairOwner + "/" + pairRepo, "GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "GITHUB_OUTPUT": filepath.Join(dir, "output.txt")}
	for k, v := range e2eActionInputs(t) {
		all["INPUT_"+strings.ToUpper(k)] = v
	}
	for k, v := range inputs {
		all["INPUT_"+strings.ToUpper(k)] = v
	}
	for k, v := range vars {
		all[k] = v
	}
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return all[k] }, fresh: inProcess}
	code := dispatch(context.Background(), e, nil)
	return code, stdout.String(), stderr.String()
}

// payload writes the event payload file of testdata name into dir with
// edit applied, and returns its path.
func payload(t *testing.T, dir, name string, edit func(map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "event", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	edit(p)
	out, _ := json.Marshal(p)
	path := filepath.Join(dir, "event-"+name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// commentWrites counts the requests that wrote a comment.
func commentWrites(reqs []fakegithub.Request) int {
	n := 0
	for _, r := range reqs {
		if (r.Method == "POST" || r.Method == "PATCH") && strings.Contains(r.Path, "/comments") {
			n++
		}
	}
	return n
}

// TestForkWorkflowPair: the example workflow pair against the fake API.
// The pull_request run of a fork's pull request, with a read-only token,
// gates and leaves its relay; the workflow_run job, with a write token,
// finds the pull request by the run's head and posts the comment,
// rendered from the relay; after the next push the same comment is
// updated. Nothing else is written, and forged relays are refused, each
// with its reason, without a comment.
func TestForkWorkflowPair(t *testing.T) {
	fake := fakegithub.New()
	t.Cleanup(fake.Close)
	fake.AddToken(forkToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
	fake.AddToken(baseToken, fakegithub.ActionsBot)
	dir := t.TempDir()
	base := map[string]float64{"BenchmarkEncode": 1000, "BenchmarkDecode": 2000, "BenchmarkSize": 500}
	historyBaseline(t, dir, filepath.Join(dir, "baseline.json"), 6, base)
	data, err := os.ReadFile(filepath.Join(dir, "baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	fake.SetFile(pairOwner, pairRepo, "main", "baseline/default.json", data)
	first, second := strings.Repeat("2", 40), strings.Repeat("5", 40)
	fake.AddPullRequest(pairOwner, pairRepo, fakegithub.PullRequest{Number: 43, Author: "contributor", HeadRepo: "contributor/codecs", HeadRef: "fast-msgpack", HeadSHA: first})
	fake.AddPullRequest(pairOwner, pairRepo, fakegithub.PullRequest{Number: 44, Author: "other", HeadRepo: "other/codecs", HeadRef: "fast-msgpack", HeadSHA: strings.Repeat("6", 40)})

	// prRun is the pull_request half at head sha, measuring medians.
	prRun := func(t *testing.T, sha string, medians map[string]float64) (string, int) {
		t.Helper()
		ws := filepath.Join(dir, "pr-"+sha[:7])
		if err := os.MkdirAll(ws, 0o755); err != nil {
			t.Fatal(err)
		}
		benchText(t, filepath.Join(ws, "bench.txt"), 10, medians, 7)
		event := payload(t, ws, "pull_request_fork.json", func(p map[string]any) {
			p["after"] = sha
			p["pull_request"].(map[string]any)["head"].(map[string]any)["sha"] = sha
		})
		before := len(fake.Requests())
		code, stdout, stderr := actionIn(t, ws, map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
			"GITHUB_API_URL": fake.URL, "GITHUB_SHA": strings.Repeat("f", 40), "GITHUB_REF": "refs/pull/43/merge", "GITHUB_RUN_ID": "101"},
			map[string]string{"github-token": forkToken, "comment": "never", "benchmark-file": "bench.txt"})
		if n := commentWrites(fake.Requests()[before:]); n != 0 {
			t.Errorf("the fork's run wrote %d comments", n)
		}
		if _, err := os.Stat(filepath.Join(ws, "wirebench-results", relay.File)); err != nil {
			t.Fatalf("no relay (exit %d): %v\n%s\n%s", code, err, stdout, stderr)
		}
		return filepath.Join(ws, "wirebench-results"), code
	}
	// commentRun is the workflow_run half after the run of head sha,
	// reading the relay in artifact.
	commentRun := func(t *testing.T, sha, artifact string) (int, string, int) {
		t.Helper()
		ws := t.TempDir()
		event := payload(t, ws, "workflow_run_fork.json", func(p map[string]any) {
			w := p["workflow_run"].(map[string]any)
			w["head_sha"], w["head_branch"] = sha, "fast-msgpack"
			w["head_repository"].(map[string]any)["full_name"] = "contributor/codecs"
		})
		before := len(fake.Requests())
		code, stdout, stderr := actionIn(t, ws, map[string]string{"GITHUB_EVENT_NAME": "workflow_run", "GITHUB_EVENT_PATH": event,
			"GITHUB_API_URL": fake.URL, "GITHUB_SHA": strings.Repeat("3", 40), "GITHUB_REF": "refs/heads/main", "GITHUB_RUN_ID": "102"},
			map[string]string{"github-token": baseToken, "mode": "comment", "artifact-path": artifact})
		return code, stdout + stderr, commentWrites(fake.Requests()[before:])
	}

	slow := map[string]float64{"BenchmarkEncode": 1300, "BenchmarkDecode": 2000, "BenchmarkSize": 500}
	artifact, code := prRun(t, first, slow)
	if code != exitFail {
		t.Fatalf("the pull request's run: exit %d, want %d (its regression fails its own check)", code, exitFail)
	}
	code, log, writes := commentRun(t, first, artifact)
	comments := fake.Comments(pairOwner, pairRepo, 43)
	if code != exitOK || writes != 1 || len(comments) != 1 {
		t.Fatalf("comment job: exit %d, %d writes, %d comments on #43, want 0, 1, 1:\n%s", code, writes, len(comments), log)
	}
	body := comments[0].Body
	for _, want := range []string{"<!-- wirebench:suite=", "**Fails** on 1 regression", "Encode", "concluded failure"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if n := len(fake.Comments(pairOwner, pairRepo, 44)); n != 0 {
		t.Errorf("%d comments on #44", n)
	}

	// The next push fixes it: the same comment is updated.
	fake.AddPullRequest(pairOwner, pairRepo, fakegithub.PullRequest{Number: 43, Author: "contributor", HeadRepo: "contributor/codecs", HeadRef: "fast-msgpack", HeadSHA: second})
	fixed, code := prRun(t, second, base)
	if code != exitOK {
		t.Fatalf("the fixed run: exit %d", code)
	}
	code, log, writes = commentRun(t, second, fixed)
	after := fake.Comments(pairOwner, pairRepo, 43)
	if code != exitOK || writes != 1 || len(after) != 1 || after[0].ID != comments[0].ID || !strings.Contains(after[0].Body, "No regressions") {
		t.Fatalf("after the next push: exit %d, %d writes, %d comments (%v, was id %v), want the one updated:\n%s\n%s", code, writes, len(after), after, comments[0].ID, log, after[0].Body)
	}

	// Forged relays: each refused, with its reason, and nothing written.
	forge := func(t *testing.T, edit func(data []byte) []byte) string {
		t.Helper()
		d := t.TempDir()
		data, err := os.ReadFile(filepath.Join(fixed, relay.File))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, relay.File), edit(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tt := range []struct {
		name     string
		artifact func(t *testing.T) string
		want     string
	}{
		{"another pull request's number", func(t *testing.T) string {
			return forge(t, func(b []byte) []byte { return bytes.Replace(b, []byte(`"number": 43`), []byte(`"number": 44`), 1) })
		}, "names pull request #44, but the open pull request of contributor/codecs at 5555555 is #43"},
		{"the relay of another head", func(t *testing.T) string { return artifact }, "says it measured 2222222, but the run that completed was of 5555555"},
		{"a huge file", func(t *testing.T) string {
			return forge(t, func(b []byte) []byte { return append(b, bytes.Repeat([]byte(" "), relay.MaxBytes)...) })
		}, "more than the 8388608 a run writes"},
		{"not JSON", func(t *testing.T) string { return forge(t, func(b []byte) []byte { return b[:len(b)/2] }) }, "not a relay file"},
		{"Markdown smuggled in", func(t *testing.T) string {
			return forge(t, func(b []byte) []byte {
				return bytes.Replace(b, []byte(`"suite"`), []byte(`"markdown": "### ✅ approved by @maintainer", "suite"`), 1)
			})
		}, `unknown field "markdown"`},
		{"a forged verdict", func(t *testing.T) string {
			return forge(t, func(b []byte) []byte {
				return bytes.Replace(b, []byte(`"regression": 0,`), []byte(`"regression": 3,`), 1)
			})
		}, "inconsistent document: counts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, log, writes := commentRun(t, second, tt.artifact(t))
			if code != exitBadInput || writes != 0 || !strings.Contains(log, tt.want) {
				t.Errorf("exit %d, %d comment writes, want %d and none, with %q:\n%s", code, writes, exitBadInput, tt.want, log)
			}
		})
	}
	if got := fake.Comments(pairOwner, pairRepo, 43); len(got) != 1 || got[0].Body != after[0].Body {
		t.Error("a forged relay changed the comment")
	}
	for _, r := range fake.Requests() {
		if r.Method == "PUT" || r.Method == "DELETE" || (r.Method == "POST" || r.Method == "PATCH") && !strings.Contains(r.Path, "/comments") {
			t.Errorf("the pair wrote more than its comment: %s %s", r.Method, r.Path)
		}
	}
}
