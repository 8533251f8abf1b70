package cli

// The container end-to-end test: builds the action's image (the final stage
// of the repository's Dockerfile, around a static binary built here), then
// runs it with podman exactly as the GitHub Actions runner runs a Docker
// action — INPUT_* variables with hyphens kept, the GITHUB_* environment,
// the four /github mounts, --workdir /github/workspace — against the fake
// GitHub API of internal/fakegithub, and checks what a workflow would see:
// exit status, outputs, job summary, the sticky comment, the stored
// baseline, and that the token appears nowhere.
//
// It needs podman (Debian: podman, buildah, runc; see .ci/install-deps).
// Without it the test is skipped, unless WIREBENCH_REQUIRE_TOOLS=1 (as in
// CI), where it fails. -short skips it.
//
// Images and containers live in a private podman store under a temporary
// directory that is removed when the tests end (TestMain), so the tests
// neither depend on nor change the machine's own podman store; the store
// uses the overlay driver where it works and vfs (a full copy of the image
// for every container) where it does not. The image is built once and
// shared by every container test, which run in parallel. CONTAINERS_CONF
// defaults to the repository's .ci/containers.conf.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/fakegithub"
	"github.com/wirebench/wirebench/internal/report"
)

const (
	e2eOwner = "octo-org"
	e2eRepo  = "codecs"
	// e2eFilter keeps every container run to a few seconds: four
	// benchmarks, budget 3s, 5 samples.
	e2eFilter = `codec=(protobuf|raw)/dataset=small$`
	// e2eSizeBench is the benchmark whose encoded size the size-gate
	// scenario shrinks in the stored baseline.
	e2eSizeBench = "BenchmarkSerialize/codec=protobuf/dataset=small"
	e2eMarker    = "<!-- wirebench:suite=default -->"
	// e2eRunTimeout bounds one container run (they take 5-35 s, more
	// beside the A/B test's builds).
	e2eRunTimeout = 3 * time.Minute
	// e2eGoCache is where the action keeps the go command's caches in its
	// container (internal/sandbox.Default under HOME=/github/home).
	e2eGoCache = "/github/home/.cache/wirebench"
)

// e2eStarted are the lines with which a run starts its first benchmark,
// timed or counted.
var e2eStarted = [][]byte{[]byte("wirebench: measuring"), []byte("wirebench: counting")}

const e2eStartedSays = `"wirebench: measuring" or "counting"`

// e2eBenchmarks are the benchmarks e2eFilter selects.
var e2eBenchmarks = []string{
	"BenchmarkDeserialize/codec=protobuf/dataset=small",
	"BenchmarkDeserialize/codec=raw/dataset=small",
	"BenchmarkSerialize/codec=protobuf/dataset=small",
	"BenchmarkSerialize/codec=raw/dataset=small",
}

func TestContainerAction(t *testing.T) {
	if testing.Short() {
		t.Skip("container end-to-end test: skipped with -short")
	}
	// It runs beside TestContainerActionAB: containers wait on podman and
	// the fake API, and counted runs do not mind a neighbour.
	t.Parallel()
	// The runs' directories outlive their subtests: the last one reads them.
	// The budget covers the shared image's build (under a minute with
	// overlay, 2-3 with vfs) and 12 counted scenarios of 5-25 s each on
	// this 2-core machine, with room for a slower day and a neighbour.
	h := newE2EHarness(t, 15*time.Minute)
	fake := h.fake
	// Distinctive tokens, so any leak is unmistakable. Once a token is
	// registered, the fake answers 401 to any other.
	token := "ghs_WbE2eWriteTok" + e2eRandHex(12)
	forkToken := "ghs_WbE2eForkTok" + e2eRandHex(12)
	fake.AddToken(token, fakegithub.ActionsBot)
	fake.AddToken(forkToken, fakegithub.Identity{Login: "github-actions[bot]", Type: "Bot", ReadOnly: true})
	var (
		stored      []byte // the baseline the push wrote
		commentID   int64
		commentBody string
		forkRelay   []byte // the relay the fork's run left
	)

	t.Run("pull request before any baseline passes", func(t *testing.T) {
		// comment: never, so that the sticky-comment scenarios below start
		// from a pull request without a comment.
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token, inputs: map[string]string{"comment": "never"}})
		r.wantExit(t, 0)
		r.wantCheckOutputs(t, "no-baseline")
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		r.wantSummaryHasReport(t, report)
		if !strings.Contains(report, "No baseline yet") {
			t.Errorf("the report does not say there is no baseline yet:\n%s", report)
		}
		r.wantBaselineReadFromMain(t)
		if n := r.countRequests("", "/repos/"+e2eOwner+"/"+e2eRepo+"/issues"); n != 0 {
			t.Errorf("comment: never still made %d comment requests\n%s", n, r.requestLog())
		}
	})

	t.Run("push to main updates the baseline", func(t *testing.T) {
		r := h.run(t, e2eSpec{event: "push.json", token: token})
		r.wantExit(t, 0)
		if got := r.outputs["verdict"]; got != "updated" {
			t.Errorf("output verdict = %q, want updated\n%s", got, r.dump())
		}
		r.wantWorkspaceFile(t, r.outputs["results-path"])
		content, _, found := fake.File(e2eOwner, e2eRepo, "main", baseline.DefaultPath)
		if !found {
			t.Fatalf("no %s on branch main of the fake repository after the update\n%s\nAPI requests:\n%s", baseline.DefaultPath, r.dump(), r.requestLog())
		}
		b, err := baseline.Decode("fake:"+baseline.DefaultPath, content, "default")
		if err != nil {
			t.Fatalf("the stored baseline does not decode: %v\n%s", err, content)
		}
		stored = content
		if len(b.History) != 1 {
			t.Errorf("stored baseline has %d history entries, want 1", len(b.History))
		} else if e := b.History[0]; e.Commit != strings.Repeat("4", 40) || e.RunID != r.runID+".1" {
			t.Errorf("history entry commit %q run %q, want the pushed commit 444… and run %s.1", e.Commit, e.RunID, r.runID)
		}
		var names []string
		for _, bm := range b.Reference.Benchmarks {
			names = append(names, bm.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, e2eBenchmarks) {
			t.Errorf("stored reference has benchmarks %q, want %q (the filter input)", names, e2eBenchmarks)
		}
		commits := fake.Commits()
		if c := commits[len(commits)-1]; c.Branch != "main" || c.Author != "github-actions[bot]" || !strings.Contains(c.Message, "[skip ci]") {
			t.Errorf("baseline commit on %q by %q, message %q: want main, github-actions[bot], [skip ci]", c.Branch, c.Author, c.Message)
		}
		if n := r.countRequests("PUT", "/repos/"+e2eOwner+"/"+e2eRepo+"/contents/"+baseline.DefaultPath); n != 1 {
			t.Errorf("%d PUTs of the baseline, want 1\n%s", n, r.requestLog())
		}
		if n := r.countRequests("", "/repos/"+e2eOwner+"/"+e2eRepo+"/issues"); n != 0 {
			t.Errorf("a push touched comments (%d requests)\n%s", n, r.requestLog())
		}
		if !strings.Contains(r.summary, "baseline updated") {
			t.Errorf("job summary does not say the baseline was updated:\n%s", r.summary)
		}
		if r.measuring > 0 {
			t.Logf("start-up in the container: %v from `podman run` to the first benchmark (%q on stderr); the whole run took %v",
				r.measuring.Round(time.Millisecond), e2eStartedSays, r.elapsed.Round(time.Millisecond))
		}
	})
	if stored == nil {
		t.Fatal("the remaining scenarios need the baseline the push writes")
	}

	ok := t.Run("pull request posts the sticky comment", func(t *testing.T) {
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token})
		// Same code on the same machine: exact metrics are identical, and
		// counts agree within their processes' spread, so anything but a
		// pass is a real failure.
		r.wantExit(t, 0)
		r.wantCheckOutputs(t, "pass")
		if got := r.outputs["regressions"]; got != "0" {
			t.Errorf("output regressions = %q, want 0", got)
		}
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		r.wantSummaryHasReport(t, report)
		cs := fake.Comments(e2eOwner, e2eRepo, 42)
		if len(cs) != 1 {
			t.Fatalf("%d comments on PR #42, want 1\n%s\nAPI requests:\n%s", len(cs), r.dump(), r.requestLog())
		}
		c := cs[0]
		if c.Login != "github-actions[bot]" || c.UserType != "Bot" {
			t.Errorf("comment by %s (%s), want github-actions[bot] (Bot)", c.Login, c.UserType)
		}
		if !strings.HasPrefix(c.Body, e2eMarker+"\n") {
			t.Errorf("comment does not start with the marker %s:\n%s", e2eMarker, c.Body)
		}
		// The image ships Valgrind, so the action counts (metric auto):
		// one run of history (the push's) already gates counts, since a
		// run's processes are the replicates. It also times them natively
		// (the wall-time check), whose timings need 5 runs of history to
		// gate: with the push's one, none do, and the headline says so.
		// Same code: the headline passes, over counts and the exact sizes
		// and allocations.
		if !regexp.MustCompile(`(?m)^### (✅|❔) No regressions · timings: 0 of 4 gated, 4 not enforced \(the baseline's history has 1 run, 4 more needed\) · counts: (all 4|[0-9] of 4) gated\b.* · sizes and allocations: all 10 gated`).MatchString(c.Body) ||
			!strings.Contains(c.Body, "Counted: instructions/op under Valgrind's callgrind") ||
			!strings.Contains(c.Body, "So this run was also timed natively, the wall-time check") {
			t.Errorf("comment has no passing headline over timings not yet enforced and counts (### ✅ No regressions · timings: 0 of 4 gated, 4 not enforced (…) · counts: N of 4 gated … · sizes and allocations: all 10 gated) or no account of the counting and the wall-time check:\n%s", c.Body)
		}
		wantCommentIsReport(t, c.Body, report)
		if n := r.countRequests("POST", "/repos/"+e2eOwner+"/"+e2eRepo+"/issues/42/comments"); n != 1 {
			t.Errorf("%d POSTs of a comment, want 1\n%s", n, r.requestLog())
		}
		r.wantBaselineReadFromMain(t)
		commentID, commentBody = c.ID, c.Body
	})

	t.Run("second pull request run edits the same comment", func(t *testing.T) {
		if !ok {
			t.Skip("needs the comment of the first pull request run")
		}
		// The default (measure-all false): the executable that recorded
		// the baseline measures nothing of the suite, and says so.
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token, inputs: map[string]string{"measure-all": "false"}})
		r.wantExit(t, 0)
		r.wantOutputs(t, "pass", 0) // nothing measured
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		if !strings.Contains(report, "The embedded suite's 4 benchmarks not measured") || !strings.Contains(r.stderr+r.stdout, "the embedded suite not measured") {
			t.Errorf("the second run measured the suite, or did not say it did not:\n%s\n%s", report, r.dump())
		}
		cs := fake.Comments(e2eOwner, e2eRepo, 42)
		if len(cs) != 1 {
			t.Fatalf("%d comments on PR #42 after the second run, want still 1\n%s\nAPI requests:\n%s", len(cs), r.dump(), r.requestLog())
		}
		if cs[0].ID != commentID {
			t.Errorf("comment id %d, want the first run's %d", cs[0].ID, commentID)
		}
		if n := r.countRequests("POST", "/repos/"+e2eOwner+"/"+e2eRepo+"/issues/"); n != 0 {
			t.Errorf("the second run POSTed %d comments, want 0 (edit in place)\n%s", n, r.requestLog())
		}
		wantCommentIsReport(t, cs[0].Body, report)
		patch := fmt.Sprintf("/repos/%s/%s/issues/comments/%d", e2eOwner, e2eRepo, commentID)
		switch n := r.countRequests("PATCH", patch); {
		case cs[0].Body == commentBody:
			// Identical report (possible in principle): no write is the
			// documented behaviour.
			t.Logf("the second report is byte-identical to the first; %d PATCHes", n)
		case n != 1:
			t.Errorf("the comment changed but %d PATCHes of %s were recorded, want 1\n%s", n, patch, r.requestLog())
		}
	})

	t.Run("fork pull request reports without commenting", func(t *testing.T) {
		before42 := fake.Comments(e2eOwner, e2eRepo, 42)
		r := h.run(t, e2eSpec{event: "pull_request_fork.json", token: forkToken})
		if r.code == 2 {
			t.Fatalf("a fork PR (read-only token) exited 2: the missing comment permission must not fail the check\n%s", r.dump())
		}
		r.wantCheckOutputs(t, "")
		wantCode := map[string]int{"pass": 0, "fail": 1}[r.outputs["verdict"]]
		r.wantExit(t, wantCode)
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		r.wantSummaryHasReport(t, report)
		if !regexp.MustCompile(`(?m)^::warning[^\n]*fork`).MatchString(r.stdout) {
			t.Errorf("stdout has no ::warning about the fork\n%s", r.dump())
		}
		if cs := fake.Comments(e2eOwner, e2eRepo, 43); len(cs) != 0 {
			t.Errorf("%d comments on the fork PR #43, want 0", len(cs))
		}
		if after := fake.Comments(e2eOwner, e2eRepo, 42); !slices.Equal(after, before42) {
			t.Errorf("the fork run changed the comments of PR #42")
		}
		if n := r.countRequests("PUT", "/repos/"); n != 0 {
			t.Errorf("a pull request run wrote through the Contents API (%d PUTs)\n%s", n, r.requestLog())
		}
		r.wantBaselineReadFromMain(t)
		forkRelay = []byte(r.wantWorkspaceFile(t, "wirebench-results/relay.json"))
	})

	t.Run("workflow_run comments for the fork from its relay", func(t *testing.T) {
		// The trusted half of the fork's check (examples/workflows): the
		// relay the fork's run left, downloaded into the workspace, and
		// the workflow_run event GitHub sends when that run completes.
		if forkRelay == nil {
			t.Skip("the fork's run left no relay")
		}
		fake.AddPullRequest(e2eOwner, e2eRepo, fakegithub.PullRequest{Number: 43, Author: "contributor", HeadRepo: "contributor/codecs",
			HeadRef: "fast-msgpack", HeadSHA: strings.Repeat("2", 40)})
		run := func(t *testing.T, relayFile []byte) *e2eRun {
			return h.run(t, e2eSpec{event: "workflow_run_fork.json", token: token,
				inputs:    map[string]string{"mode": "comment", "artifact-path": "wirebench-relay"},
				workspace: map[string][]byte{"wirebench-relay/relay.json": relayFile},
				edit: func(p map[string]any) {
					w := p["workflow_run"].(map[string]any)
					w["head_branch"] = "fast-msgpack"
					w["head_repository"].(map[string]any)["full_name"] = "contributor/codecs"
				}})
		}
		forged := bytes.Replace(forkRelay, []byte(`"number": 43`), []byte(`"number": 42`), 1)
		r := run(t, forged)
		r.wantExit(t, 2)
		if !strings.Contains(r.stdout, "names pull request #42, but the open pull request of contributor/codecs at 2222222 is #43") {
			t.Errorf("a relay naming another pull request: no error saying so\n%s", r.dump())
		}
		if n := len(fake.Comments(e2eOwner, e2eRepo, 43)); n != 0 {
			t.Fatalf("a forged relay was commented (%d comments)", n)
		}
		r = run(t, forkRelay)
		r.wantExit(t, 0)
		cs := fake.Comments(e2eOwner, e2eRepo, 43)
		if len(cs) != 1 || !strings.Contains(cs[0].Body, "concluded failure") || !strings.Contains(cs[0].Body, "<!-- wirebench:suite=") {
			t.Fatalf("%d comments on #43, want the one from the relay\n%s", len(cs), r.dump())
		}
		if n := r.countRequests("PUT", "/repos/"); n != 0 {
			t.Errorf("the comment job wrote through the Contents API (%d PUTs)", n)
		}
		r.wantSummaryHasReport(t, strings.TrimPrefix(cs[0].Body, strings.SplitN(cs[0].Body, "\n", 2)[0]+"\n"))
	})

	t.Run("size regression fails the gate", func(t *testing.T) {
		seeded, was := e2eShrinkSize(t, stored, e2eSizeBench, 20)
		if was != 26 {
			t.Logf("note: %s measured %v B/msg, not the expected 26", e2eSizeBench, was)
		}
		if was <= 20 {
			t.Fatalf("%s is %v B/msg; the scenario needs it above 20", e2eSizeBench, was)
		}
		fake.SetFile(e2eOwner, e2eRepo, "main", baseline.DefaultPath, seeded)
		// The pull request's own checkout carries the unchanged baseline:
		// it must not be used (a PR cannot weaken its own gate).
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token, workspace: map[string][]byte{baseline.DefaultPath: stored}})
		r.wantExit(t, 1)
		r.wantCheckOutputs(t, "fail")
		if n, err := strconv.Atoi(r.outputs["regressions"]); err != nil || n < 1 {
			t.Errorf("output regressions = %q, want at least 1", r.outputs["regressions"])
		}
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		short := "Serialize protobuf/small" // report.ShortName of e2eSizeBench
		if !strings.Contains(report, short) && !strings.Contains(report, e2eSizeBench) {
			t.Errorf("the report does not name %s (%q):\n%s", e2eSizeBench, short, report)
		}
		if !strings.Contains(report, "❌") {
			t.Errorf("the report has no failing headline:\n%s", report)
		}
		if !regexp.MustCompile(`(?m)^::error[^\n]*` + regexp.QuoteMeta(e2eSizeBench) + `[^\n]*B/msg`).MatchString(r.stdout) {
			t.Errorf("stdout has no ::error annotation for %s B/msg\n%s", e2eSizeBench, r.dump())
		}
		if cs := fake.Comments(e2eOwner, e2eRepo, 42); len(cs) != 1 || !strings.Contains(cs[0].Body, "❌") {
			t.Errorf("PR #42 should have one comment, now failing; got %d", len(cs))
		}
		if got, _, _ := fake.File(e2eOwner, e2eRepo, "main", baseline.DefaultPath); !bytes.Equal(got, seeded) {
			t.Errorf("the check changed the stored baseline")
		}
	})

	// Accepting the grown message (the baseline seeded above is still
	// stored): the label accepts it; a Wirebench-Accept line for another
	// benchmark does not; a commit trailer naming it does.
	e2eAcceptScenarios(t, h, token)

	t.Run("bad input exits 2 naming the input", func(t *testing.T) {
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token, inputs: map[string]string{"mode": "bogus"}})
		r.wantExit(t, 2)
		if !regexp.MustCompile(`(?m)^::error::input mode: "bogus"`).MatchString(r.stdout) {
			t.Errorf("stdout has no ::error line naming the input mode and its value\n%s", r.dump())
		}
		if len(r.requests) != 0 {
			t.Errorf("bad input still made %d API requests\n%s", len(r.requests), r.requestLog())
		}
		if r.measuring > 0 {
			t.Errorf("bad input still started measuring\n%s", r.dump())
		}
		if r.outputsRaw != "" || r.summary != "" {
			t.Errorf("bad input wrote outputs or a summary\n%s", r.dump())
		}
	})

	t.Run("the merge's push appends to the history and records the acceptance", func(t *testing.T) {
		prev, prevSHA, found := fake.File(e2eOwner, e2eRepo, "main", baseline.DefaultPath)
		if !found {
			t.Fatal("no stored baseline")
		}
		// The push is the merge of #42, which carries the label.
		fake.AddPullRequest(e2eOwner, e2eRepo, fakegithub.PullRequest{Number: 42, Author: "octo-org", Body: "Adds the order id.",
			Labels: []string{"wirebench:accept"}, Merged: true, MergeCommitSHA: strings.Repeat("4", 40), HeadSHA: strings.Repeat("2", 40),
			Commits: []fakegithub.PullCommit{{SHA: strings.Repeat("2", 40), Message: "protobuf: add the order id", Author: "octo-org"}}})
		old, err := baseline.Decode("previous", prev, "default")
		if err != nil {
			t.Fatal(err)
		}
		r := h.run(t, e2eSpec{event: "push.json", token: token})
		r.wantExit(t, 0)
		if got := r.outputs["verdict"]; got != "updated" {
			t.Errorf("output verdict = %q, want updated\n%s", got, r.dump())
		}
		content, _, _ := fake.File(e2eOwner, e2eRepo, "main", baseline.DefaultPath)
		b, err := baseline.Decode("fake:"+baseline.DefaultPath, content, "default")
		if err != nil {
			t.Fatalf("the stored baseline does not decode: %v\n%s", err, content)
		}
		if len(b.History) != len(old.History)+1 {
			t.Errorf("history has %d entries, want %d (the previous ones and this run)", len(b.History), len(old.History)+1)
		} else if last := b.History[len(b.History)-1]; last.RunID != r.runID+".1" {
			t.Errorf("newest history entry is run %q, want %s.1", last.RunID, r.runID)
		} else if len(last.Accepted) != 1 || last.Accepted[0].Source != "label wirebench:accept" || last.Accepted[0].PR != 42 || !last.Accepted[0].All() {
			t.Errorf("newest history entry records acceptances %+v, want #42's label\n%s\nAPI requests:\n%s", last.Accepted, r.dump(), r.requestLog())
		}
		for _, e := range b.History[:len(b.History)-1] {
			if len(e.Accepted) > 0 {
				t.Errorf("an older entry (run %s) records acceptances %+v", e.RunID, e.Accepted)
			}
		}
		if n := r.countRequests("GET", "/repos/"+e2eOwner+"/"+e2eRepo+"/commits/"+strings.Repeat("4", 40)+"/pulls"); n != 1 {
			t.Errorf("%d reads of the pushed commit's pull requests, want 1\n%s", n, r.requestLog())
		}
		if !strings.Contains(r.summary, "accepted by the merged pull request") {
			t.Errorf("the job summary does not say what the merge accepted:\n%s", r.summary)
		}
		if last := b.History[len(b.History)-1]; len(last.PullRequests) != 1 || last.PullRequests[0] != 42 {
			t.Errorf("newest history entry records pull requests %v, want the merged #42", last.PullRequests)
		}
		// The stored history held the shrunken size (20 B), this run the
		// real one: an exact step, seen on the push that made it,
		// explained by the merge's acceptance, and charted (issue 31).
		for _, want := range []string{"#### Change points in the history", "| 🆕 | Serialize protobuf/small | B/msg |",
			"(#42)", "accepted: label wirebench:accept of #", "#### Trends", "```mermaid"} {
			if !strings.Contains(r.summary, want) {
				t.Errorf("the push's job summary lacks %q:\n%s", want, r.summary)
			}
		}
		// The reference is this run's: the shrunken size is gone.
		for _, bm := range b.Reference.Benchmarks {
			for _, m := range bm.Metrics {
				if bm.Name == e2eSizeBench && m.Unit == "B/msg" && (len(m.Values) == 0 || m.Values[0] == 20) {
					t.Errorf("the reference still has %s B/msg %v: the new run did not replace it", bm.Name, m.Values)
				}
			}
		}
		// An update of an existing file names the blob it replaces.
		var put struct {
			SHA    string `json:"sha"`
			Branch string `json:"branch"`
		}
		for _, q := range r.requests {
			if q.Method == "PUT" {
				_ = json.Unmarshal(q.Body, &put)
			}
		}
		if put.SHA != prevSHA || put.Branch != "main" {
			t.Errorf("PUT with sha %q branch %q, want the previous blob %s on main\n%s", put.SHA, put.Branch, prevSHA, r.requestLog())
		}
	})

	t.Run("the token never leaks", func(t *testing.T) {
		// The token must reach the API, or this test proves nothing.
		used := map[string]bool{}
		for _, q := range fake.Requests() {
			_, tok, _ := strings.Cut(q.Header.Get("Authorization"), " ")
			used[tok] = true
		}
		if !used[token] || !used[forkToken] {
			t.Fatalf("the API never saw the tokens (write %v, fork %v)", used[token], used[forkToken])
		}
		var places []string
		check := func(where, text string) {
			for _, tok := range []string{token, forkToken} {
				if strings.Contains(text, tok) {
					places = append(places, where)
				}
			}
		}
		for _, r := range h.runs {
			// "::add-mask::<token>" is the one line that must carry it:
			// the runner consumes that command and never prints it.
			var stdout []string
			for line := range strings.Lines(r.stdout) {
				if strings.TrimRight(line, "\n") != "::add-mask::"+r.spec.token {
					stdout = append(stdout, line)
				}
			}
			check(r.name+": stdout", strings.Join(stdout, ""))
			check(r.name+": stderr", r.stderr)
			check(r.name+": GITHUB_STEP_SUMMARY", r.summary)
			check(r.name+": GITHUB_OUTPUT", r.outputsRaw)
			files := 0
			for _, dir := range []string{r.workspace, r.home, r.fileCommands, r.workflow} {
				err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err != nil {
						return err
					}
					if d.Type().IsRegular() {
						data, err := os.ReadFile(p)
						if err != nil {
							return err
						}
						rel, _ := filepath.Rel(filepath.Dir(dir), p)
						check(r.name+": "+rel, string(data))
						files++
					}
					return nil
				})
				if err != nil {
					t.Errorf("%s: %v", r.name, err)
				}
			}
			if files < 2 { // at least the event and the (maybe empty) file-command files
				t.Errorf("%s: only %d files to search", r.name, files)
			}
		}
		for _, n := range []int{42, 43} {
			for _, c := range fake.Comments(e2eOwner, e2eRepo, n) {
				check(fmt.Sprintf("comment %d on #%d", c.ID, n), c.Body)
			}
		}
		for _, c := range fake.Commits() {
			check("commit "+c.SHA[:7], c.Message+"\n"+string(c.Content))
		}
		if len(places) > 0 {
			t.Errorf("the token appears in:\n  %s", strings.Join(places, "\n  "))
		}
	})

	h.logStartup(t)
}

// newE2EHarness prepares what every container scenario needs: podman with
// the shared private store and test image (e2eShared) and a fake GitHub
// API of the test's own on a local port, bounded by limit. Tokens are the
// scenario's to register.
func newE2EHarness(t *testing.T, limit time.Duration) *e2eHarness {
	t.Helper()
	pm, img := e2eSharedImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), e2eBudget(t, limit))
	t.Cleanup(cancel)
	fake, err := fakegithub.NewOn("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	cache := filepath.Join(t.TempDir(), "go-cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	e2eShared.mu.Lock()
	e2eShared.harnesses++
	id := e2eShared.harnesses
	e2eShared.mu.Unlock()
	return &e2eHarness{ctx: ctx, pm: pm, image: img, fake: fake, dir: t.TempDir(), goCache: cache, id: id}
}

// e2eShared is what every container test shares: one podman store and one
// image, with the Go toolchain (the A/B scenarios build in it), made by
// the first test that needs them and removed when the tests end (atExit).
var e2eShared struct {
	once      sync.Once
	pm        *e2ePodman
	image     *e2eImage
	mu        sync.Mutex
	harnesses int // harnesses made, numbering their containers
}

// e2eSharedImage returns the shared store and image, making them on the
// first call; a test that finds no podman skips (fails under
// WIREBENCH_REQUIRE_TOOLS=1). If the first test failed to make them, the
// others fail saying so.
func e2eSharedImage(t *testing.T) (*e2ePodman, *e2eImage) {
	t.Helper()
	bin := e2eNeedPodman(t)
	e2eShared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), e2eBudget(t, 10*time.Minute))
		defer cancel()
		pm := newE2EPodman(ctx, t, bin)
		img := e2eBuildImage(ctx, t, pm)
		e2eShared.pm, e2eShared.image = pm, img
	})
	if e2eShared.image == nil {
		t.Fatal("the container tests' image could not be made: see the first container test's failure")
	}
	return e2eShared.pm, e2eShared.image
}

// e2eBudget is the time left before the test binary's deadline, minus a
// margin for cleanup, at most limit.
func e2eBudget(t *testing.T, limit time.Duration) time.Duration {
	if d, ok := t.Deadline(); ok {
		if left := time.Until(d) - 20*time.Second; left < limit {
			return max(left, time.Second)
		}
	}
	return limit
}

func e2eRandHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ---- podman ----

// e2ePodman runs podman against a private store.
type e2ePodman struct {
	bin    string
	global []string // --root, --runroot, --tmpdir, --storage-driver
	env    []string
	store  string
	driver string // overlay or vfs
}

// e2eNeedPodman finds podman, or skips (fails under
// WIREBENCH_REQUIRE_TOOLS=1).
func e2eNeedPodman(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("podman")
	if err != nil {
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") == "1" {
			t.Fatal("podman not found: install podman, buildah and runc (.ci/install-deps does) to run the container end-to-end test")
		}
		t.Skip("podman not found: install podman, buildah and runc (see .ci/install-deps) to run the container end-to-end test")
	}
	return bin
}

// newE2EPodman sets up a private store, removed when the tests end, with
// the overlay driver if it can run a container here, else vfs.
func newE2EPodman(ctx context.Context, t *testing.T, bin string) *e2ePodman {
	t.Helper()
	env := os.Environ()
	if os.Getenv("CONTAINERS_CONF") == "" {
		root, err := e2eRepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, "CONTAINERS_CONF="+filepath.Join(root, ".ci", "containers.conf"))
	}
	store, err := os.MkdirTemp("", "wirebench-podman-")
	if err != nil {
		t.Fatal(err)
	}
	pm := &e2ePodman{bin: bin, env: env, store: store}
	atExit = append(atExit, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, _ = pm.output(ctx, "rmi", "--all", "--force")
		if err := os.RemoveAll(store); err != nil {
			// Rootless: files created in the user namespace.
			if out, err2 := pm.command(ctx, "unshare", "rm", "-rf", store).CombinedOutput(); err2 != nil {
				fmt.Fprintf(os.Stderr, "could not remove the podman store %s: %v; %v %s\n", store, err, err2, out)
			}
		}
	})
	pm.use("overlay")
	if why := pm.probe(ctx); why != "" {
		t.Logf("podman's overlay driver cannot run a container here (%s): the store uses vfs, which copies the image for every container", why)
		pm.use("vfs")
	}
	return pm
}

// use points pm at its store's directories for driver.
func (p *e2ePodman) use(driver string) {
	dir := filepath.Join(p.store, driver)
	p.driver = driver
	p.global = []string{
		"--root", filepath.Join(dir, "root"),
		"--runroot", filepath.Join(dir, "run"),
		"--tmpdir", filepath.Join(dir, "tmp"),
		"--storage-driver", driver,
	}
}

// probe runs a container of a one-file image in p's store and says why it
// could not, or "".
func (p *e2ePodman) probe(ctx context.Context) string {
	exe, err := os.Executable() // any file will do: the container runs nothing of the image
	if err != nil {
		return err.Error()
	}
	tarball := filepath.Join(p.store, "probe.tar")
	if out, err := exec.CommandContext(ctx, "tar", "-C", filepath.Dir(exe), "-cf", tarball, filepath.Base(exe)).CombinedOutput(); err != nil {
		return fmt.Sprintf("tar: %v %s", err, out)
	}
	defer os.Remove(tarball)
	const tag = "localhost/wirebench-e2e-probe:1"
	if _, err := p.output(ctx, "import", tarball, tag); err != nil {
		return err.Error()
	}
	defer p.output(ctx, "rmi", "--force", tag)
	if _, err := p.output(ctx, "create", "--name", "wirebench-e2e-probe", tag, "/"+filepath.Base(exe)); err != nil {
		return err.Error()
	}
	defer p.output(ctx, "rm", "--force", "wirebench-e2e-probe")
	if _, err := p.output(ctx, "mount", "wirebench-e2e-probe"); err != nil {
		return err.Error()
	}
	_, _ = p.output(ctx, "umount", "wirebench-e2e-probe")
	return ""
}

func (p *e2ePodman) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.bin, append(slices.Clone(p.global), args...)...)
	cmd.Env = p.env
	return cmd
}

// output runs podman and returns its combined output; an error includes it.
func (p *e2ePodman) output(ctx context.Context, args ...string) (string, error) {
	out, err := p.command(ctx, args...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// e2eRepoRoot is the module root (the test runs in internal/cli).
func e2eRepoRoot() (string, error) {
	if e2eDir == "" {
		return "", errors.New("the package's directory is not known: TestMain sets it")
	}
	root := filepath.Join(e2eDir, "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", fmt.Errorf("module root not found at %s: %w", root, err)
	}
	return root, nil
}

// e2eImage is the built test image.
type e2eImage struct {
	tag    string
	binary string // the static binary, on the host
	size   int64  // bytes, podman image inspect .Size
	build  time.Duration
}

// e2eBuildImage builds the static binary and an image with the layout
// of the Dockerfile's final stage, under a unique tag: Debian with
// Valgrind (so the container counts, as the published image does), and
// this machine's Go toolchain where the Dockerfile puts golang's (the A/B
// mode builds with it).
func e2eBuildImage(ctx context.Context, t *testing.T, pm *e2ePodman) *e2eImage {
	t.Helper()
	start := time.Now()
	root, err := e2eRepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dockerfile, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	containerfile, base, err := e2eContainerfile(string(dockerfile), true)
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	e2eBaseImage(ctx, t, pm, base)
	dir := filepath.Join(pm.store, "context")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	e2eCopyToolchain(ctx, t, dir)
	if err := os.WriteFile(filepath.Join(dir, "Containerfile"), []byte(containerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := e2eBinaryPackage(string(dockerfile))
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	bin := filepath.Join(dir, "wirebench")
	gobuild := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-w", "-o", bin, pkg)
	gobuild.Dir = root
	gobuild.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := gobuild.CombinedOutput(); err != nil {
		t.Fatalf("build the static binary: %v\n%s", err, out)
	}
	img := &e2eImage{tag: "localhost/wirebench-e2e:" + e2eRandHex(6), binary: bin}
	if _, err := pm.output(ctx, "build", "--pull=never", "--label", "io.wirebench.e2e=1", "-t", img.tag, "-f", filepath.Join(dir, "Containerfile"), dir); err != nil {
		t.Fatalf("build the image: %v\nContainerfile:\n%s", err, containerfile)
	}
	img.build = time.Since(start)
	out, err := pm.output(ctx, "image", "inspect", "--format", "{{.Size}}", img.tag)
	if err != nil {
		t.Fatal(err)
	}
	if img.size, err = strconv.ParseInt(strings.TrimSpace(out), 10, 64); err != nil {
		t.Fatalf("image size %q: %v", out, err)
	}
	t.Logf("image %s: %s (binary %s), built in %v in a store with podman's %s driver; Containerfile:\n%s", img.tag, e2eMB(img.size), e2eFileSize(bin), img.build.Round(time.Millisecond), pm.driver, containerfile)
	return img
}

// e2eBase is what the Dockerfile's final stage starts from: a Debian
// suite's slim image and the packages its RUN line installs. Images cannot
// be pulled here, so the test builds the same from Debian's packages with
// mmdebstrap (e2eBaseImage).
type e2eBase struct {
	Suite    string   // bookworm
	Packages []string // in the order the RUN line names them
}

// Tag is the local image the test builds for the base.
func (b e2eBase) Tag() string {
	sum := sha256.Sum256([]byte(b.Suite + " " + strings.Join(b.Packages, " ")))
	return "localhost/wirebench-e2e-base:" + b.Suite + "-" + hex.EncodeToString(sum[:6])
}

// e2eContainerfile turns the Dockerfile's last stage into a Containerfile for a
// context holding the binary as "wirebench": FROM debian:SUITE-slim becomes
// FROM the test's base image, with the packages of the stage's
// `apt-get install` already in it (the RUN line is dropped); COPY
// --from=build /out/X Y becomes COPY X Y; the Go toolchain (from an image
// that cannot be pulled here) becomes COPY go from the context with
// toolchain, and is left out without; everything else (ENV, ENTRYPOINT, a
// USER or WORKDIR if one is ever added) is kept, so the test image behaves
// as the published one.
func e2eContainerfile(dockerfile string, toolchain bool) (string, e2eBase, error) {
	var lines []string
	var cur strings.Builder
	for line := range strings.Lines(dockerfile) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(strings.TrimSpace(line), "#") && cur.Len() == 0 {
			continue
		}
		if s, ok := strings.CutSuffix(line, "\\"); ok {
			cur.WriteString(s + " ")
			continue
		}
		cur.WriteString(line)
		if s := strings.TrimSpace(cur.String()); s != "" {
			lines = append(lines, s)
		}
		cur.Reset()
	}
	last := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.ToUpper(l), "FROM ") {
			last = i
		}
	}
	var base e2eBase
	if last < 0 {
		return "", base, errors.New("no FROM line")
	}
	f := strings.Fields(lines[last])
	image := ""
	if len(f) >= 2 {
		image = f[1]
	}
	suite, ok := strings.CutPrefix(image, "debian:")
	if suite, ok = strings.CutSuffix(suite, "-slim"); !ok || suite == "" {
		return "", base, fmt.Errorf("the final stage is %q, the test expects FROM debian:SUITE-slim: update container_test.go", lines[last])
	}
	base.Suite = suite
	out := []string{""} // FROM the base, once its packages are known
	provided := map[string]bool{"wirebench": true}
	for _, l := range lines[last+1:] {
		f := strings.Fields(l)
		switch op := strings.ToUpper(f[0]); {
		case op == "RUN":
			pkgs, err := e2eAptInstall(strings.TrimSpace(l[len(f[0]):]))
			if err != nil {
				return "", base, fmt.Errorf("cannot translate %q: %v: update container_test.go", l, err)
			}
			base.Packages = append(base.Packages, pkgs...)
			continue
		case op == "COPY" && len(f) >= 2 && strings.HasPrefix(f[1], "--from="):
			switch from := strings.TrimPrefix(f[1], "--from="); from {
			case "toolchain":
				if len(f) != 4 || f[2] != "/usr/local/go" {
					return "", base, fmt.Errorf("cannot translate %q: update container_test.go", l)
				}
				if !toolchain {
					continue // only builds need it
				}
				l = "COPY go " + f[3]
			case "build":
				if len(f) != 4 {
					return "", base, fmt.Errorf("cannot translate %q: update container_test.go", l)
				}
				src := strings.TrimPrefix(f[2], "/out/")
				if !provided[src] {
					return "", base, fmt.Errorf("%q copies %s, which the test does not provide: update container_test.go", l, f[2])
				}
				l = "COPY " + src + " " + f[3]
			default:
				return "", base, fmt.Errorf("cannot translate %q (stage %s): update container_test.go", l, from)
			}
		}
		out = append(out, l)
	}
	out[0] = "FROM " + base.Tag()
	return strings.Join(out, "\n") + "\n", base, nil
}

// e2eBinaryPackage is the package the Dockerfile's build stage compiles
// into /out/wirebench (the binary the final stage copies): the test
// builds the same one.
func e2eBinaryPackage(dockerfile string) (string, error) {
	f := strings.Fields(strings.ReplaceAll(dockerfile, "\\\n", " "))
	for i := range f {
		if f[i] == "/out/wirebench" && i > 0 && f[i-1] == "-o" && i+1 < len(f) && strings.HasPrefix(f[i+1], "./cmd/") {
			return f[i+1], nil
		}
	}
	return "", errors.New("no go build -o /out/wirebench ./cmd/... in the build stage: update container_test.go")
}

// e2eAptInstall is the packages of a RUN line made of `apt-get update`,
// one `apt-get install` (options and an environment assignment allowed)
// and the removal of apt's lists: what a Debian stage does to add
// packages, and all the test knows how to reproduce.
func e2eAptInstall(cmd string) ([]string, error) {
	var pkgs []string
	for part := range strings.SplitSeq(cmd, "&&") {
		f := strings.Fields(part)
		for len(f) > 0 && strings.Contains(f[0], "=") {
			f = f[1:] // DEBIAN_FRONTEND=noninteractive
		}
		switch {
		case len(f) == 2 && f[0] == "apt-get" && f[1] == "update":
		case len(f) >= 2 && f[0] == "rm" && strings.HasPrefix(f[len(f)-1], "/var/lib/apt/lists"):
		case len(f) >= 3 && f[0] == "apt-get" && f[1] == "install":
			for _, a := range f[2:] {
				if !strings.HasPrefix(a, "-") {
					pkgs = append(pkgs, a)
				}
			}
		default:
			return nil, fmt.Errorf("%q is not apt-get update, apt-get install or rm of apt's lists", strings.TrimSpace(part))
		}
	}
	if len(pkgs) == 0 {
		return nil, errors.New("no apt-get install of a package")
	}
	return pkgs, nil
}

// e2eBaseImage makes base's image in the test's podman store: a root file
// system made by mmdebstrap (variant apt, as Debian's slim images are,
// with base's packages) from the mirror apt is configured with, cached
// under the user's cache directory between runs (keyed by suite and
// packages; about 15 s to make), then imported.
func e2eBaseImage(ctx context.Context, t *testing.T, pm *e2ePodman, base e2eBase) {
	t.Helper()
	start := time.Now()
	bin, err := exec.LookPath("mmdebstrap")
	if err != nil {
		msg := "mmdebstrap not found: install it (.ci/install-deps does) to make the container test's Debian base image"
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "wirebench-e2e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tarball := filepath.Join(dir, strings.TrimPrefix(strings.ReplaceAll(base.Tag(), ":", "-"), "localhost/")+".tar")
	made := "cached"
	if _, err := os.Stat(tarball); err != nil {
		args := []string{"--variant=apt", "--format=tar", "--quiet", "--include=" + strings.Join(base.Packages, ","), base.Suite, tarball + ".part"}
		if m := e2eDebianMirror(base.Suite); m != "" {
			args = append(args, m)
		}
		if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
			os.Remove(tarball + ".part")
			t.Fatalf("mmdebstrap %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if err := os.Rename(tarball+".part", tarball); err != nil {
			t.Fatal(err)
		}
		made = "made"
	}
	if _, err := pm.output(ctx, "import", tarball, base.Tag()); err != nil {
		t.Fatalf("import the base image: %v", err)
	}
	t.Logf("base image %s (Debian %s, variant apt, with %s): %s %s and imported in %v", base.Tag(), base.Suite, strings.Join(base.Packages, ", "), e2eFileSize(tarball), made, time.Since(start).Round(time.Millisecond))
}

// e2eDebianMirror is the URI apt's deb822 sources give for suite, or ""
// (mmdebstrap then uses its default mirror).
func e2eDebianMirror(suite string) string {
	files, _ := filepath.Glob("/etc/apt/sources.list.d/*.sources")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		for stanza := range strings.SplitSeq(string(data), "\n\n") {
			fields := map[string]string{}
			for line := range strings.Lines(stanza) {
				if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(k, "#") {
					fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			uris := strings.Fields(fields["URIs"])
			if len(uris) > 0 && slices.Contains(strings.Fields(fields["Suites"]), suite) && strings.HasSuffix(uris[0], "/debian") {
				return uris[0]
			}
		}
	}
	return ""
}

func e2eMB(n int64) string { return fmt.Sprintf("%.2f MB (%d bytes)", float64(n)/1e6, n) }

func e2eFileSize(path string) string {
	if fi, err := os.Stat(path); err == nil {
		return e2eMB(fi.Size())
	}
	return "?"
}

// ---- running the action as the runner does ----

type e2eHarness struct {
	ctx   context.Context
	pm    *e2ePodman
	image *e2eImage
	fake  *fakegithub.Server
	dir   string // parent of every run's directories
	// goCache is the go command's caches of the sandbox's user (mounted
	// at e2eGoCache), kept from run to run as actions/cache keeps them
	// from job to job.
	goCache string
	runs    []*e2eRun
	n       int
	id      int // the harness's number among the tests', in container names
}

// e2eSpec is one job step using the action.
type e2eSpec struct {
	event string // file in internal/event/testdata
	// edit, when set, changes the event payload before the run (the
	// pull request's description, say).
	edit      func(payload map[string]any)
	token     string            // the github-token input
	inputs    map[string]string // inputs the workflow sets (with:)
	workspace map[string][]byte // files in the checkout
	env       []string          // more NAME=value for the container (test set-up, not the runner's)
	volumes   []string          // more -v HOST:CONTAINER[:OPTIONS]
	timeout   time.Duration     // bound of the run; e2eRunTimeout if 0
}

// e2eRun is what a workflow would see of one step.
type e2eRun struct {
	name           string
	spec           e2eSpec
	runID          string // GITHUB_RUN_ID
	code           int
	stdout, stderr string
	outputsRaw     string
	outputs        map[string]string
	summary        string
	workspace      string // host directories of the mounts
	home           string
	workflow       string
	fileCommands   string
	requests       []fakegithub.Request // API requests during the run
	measuring      time.Duration        // podman run start to the first benchmark (e2eStarted); 0 if never
	elapsed        time.Duration
}

// e2eActionInputs reads the inputs and their defaults from action.yml, as the
// runner applies them: every input is passed, defaults filled in.
func e2eActionInputs(t *testing.T) map[string]string {
	t.Helper()
	root, err := e2eRepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{}
	in, name := false, ""
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "inputs:":
			in = true
		case in && line != "" && !strings.HasPrefix(line, " "):
			in = false
		case in && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && strings.HasSuffix(line, ":"):
			name = strings.TrimSuffix(strings.TrimSpace(line), ":")
			inputs[name] = ""
		case in && name != "" && strings.HasPrefix(strings.TrimSpace(line), "default:"):
			v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "default:"))
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			} else if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
				v = v[1 : len(v)-1]
			}
			inputs[name] = v
		}
	}
	for _, want := range []string{"mode", "github-token", "budget", "samples", "filter"} {
		if _, ok := inputs[want]; !ok {
			t.Fatalf("action.yml: input %s not found (parsed %v)", want, inputs)
		}
	}
	return inputs
}

type e2ePayload struct {
	Number      int    `json:"number"`
	After       string `json:"after"`
	Ref         string `json:"ref"`
	PullRequest *struct {
		Head struct {
			Ref string `json:"ref"`
		} `json:"head"`
		Base struct {
			Ref string `json:"ref"`
		} `json:"base"`
	} `json:"pull_request"`
	WorkflowRun *struct{} `json:"workflow_run"`
}

// run runs the action's container once and collects what it left.
func (h *e2eHarness) run(t *testing.T, spec e2eSpec) *e2eRun {
	t.Helper()
	h.n++
	root, err := e2eRepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	payload, err := os.ReadFile(filepath.Join(root, "internal", "event", "testdata", spec.event))
	if err != nil {
		t.Fatal(err)
	}
	if spec.edit != nil {
		var doc map[string]any
		if err := json.Unmarshal(payload, &doc); err != nil {
			t.Fatal(err)
		}
		spec.edit(doc)
		if payload, err = json.MarshalIndent(doc, "", "  "); err != nil {
			t.Fatal(err)
		}
	}
	var p e2ePayload
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}

	base := filepath.Join(h.dir, strconv.Itoa(h.n))
	r := &e2eRun{name: t.Name(), spec: spec, runID: strconv.Itoa(7000000 + h.n)}
	r.workspace, r.home = filepath.Join(base, "workspace"), filepath.Join(base, "_github_home")
	r.workflow, r.fileCommands = filepath.Join(base, "_github_workflow"), filepath.Join(base, "_runner_file_commands")
	for _, d := range []string{r.workspace, r.home, r.workflow, r.fileCommands} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range spec.workspace {
		path := filepath.Join(r.workspace, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.workflow, "event.json"), payload, 0o644); err != nil {
		t.Fatal(err)
	}
	id := e2eRandHex(16)
	outputFile, summaryFile := "set_output_"+id, "step_summary_"+id
	for _, f := range []string{outputFile, summaryFile, "add_path_" + id, "set_env_" + id, "save_state_" + id} {
		if err := os.WriteFile(filepath.Join(r.fileCommands, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The environment the runner gives a Docker action.
	eventName, ref, refName, sha, headRef, baseRef := "push", p.Ref, strings.TrimPrefix(p.Ref, "refs/heads/"), p.After, "", ""
	switch {
	case p.PullRequest != nil:
		eventName = "pull_request"
		ref, refName = fmt.Sprintf("refs/pull/%d/merge", p.Number), fmt.Sprintf("%d/merge", p.Number)
		sha = strings.Repeat("f", 40) // the test merge commit
		headRef, baseRef = p.PullRequest.Head.Ref, p.PullRequest.Base.Ref
	case p.WorkflowRun != nil:
		// A workflow_run job runs on the default branch's last commit.
		eventName, ref, refName, sha = "workflow_run", "refs/heads/main", "main", strings.Repeat("3", 40)
	}
	env := []string{
		"HOME=/github/home",
		"GITHUB_JOB=bench", "GITHUB_REF=" + ref, "GITHUB_SHA=" + sha,
		"GITHUB_REPOSITORY=" + e2eOwner + "/" + e2eRepo, "GITHUB_REPOSITORY_OWNER=" + e2eOwner, "GITHUB_REPOSITORY_ID=812345678",
		"GITHUB_RUN_ID=" + r.runID, "GITHUB_RUN_NUMBER=" + strconv.Itoa(h.n), "GITHUB_RUN_ATTEMPT=1", "GITHUB_RETENTION_DAYS=90",
		"GITHUB_ACTOR=octo", "GITHUB_ACTOR_ID=1", "GITHUB_TRIGGERING_ACTOR=octo",
		"GITHUB_WORKFLOW=bench", "GITHUB_WORKFLOW_REF=" + e2eOwner + "/" + e2eRepo + "/.github/workflows/bench.yml@" + ref,
		"GITHUB_HEAD_REF=" + headRef, "GITHUB_BASE_REF=" + baseRef,
		"GITHUB_EVENT_NAME=" + eventName, "GITHUB_SERVER_URL=https://github.com",
		"GITHUB_API_URL=" + h.fake.URL, "GITHUB_GRAPHQL_URL=" + h.fake.URL + "/graphql",
		"GITHUB_REF_NAME=" + refName, "GITHUB_REF_PROTECTED=false", "GITHUB_REF_TYPE=branch",
		"GITHUB_WORKSPACE=/github/workspace", "GITHUB_ACTION=__wirebench_wirebench", "GITHUB_ACTION_REPOSITORY=wirebench/wirebench",
		"GITHUB_EVENT_PATH=/github/workflow/event.json",
		"GITHUB_PATH=/github/file_commands/add_path_" + id, "GITHUB_ENV=/github/file_commands/set_env_" + id,
		"GITHUB_STEP_SUMMARY=/github/file_commands/" + summaryFile, "GITHUB_STATE=/github/file_commands/save_state_" + id,
		"GITHUB_OUTPUT=/github/file_commands/" + outputFile,
		"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_NAME=GitHub Actions 1", "RUNNER_ENVIRONMENT=github-hosted",
		"RUNNER_TOOL_CACHE=/opt/hostedtoolcache", "RUNNER_TEMP=/home/runner/work/_temp", "RUNNER_WORKSPACE=/home/runner/work/codecs",
		"ACTIONS_RUNTIME_URL=https://pipelines.actions.example/", "ACTIONS_CACHE_URL=https://artifactcache.actions.example/",
		"GITHUB_ACTIONS=true", "CI=true",
	}
	inputs := e2eActionInputs(t)
	inputs["budget"], inputs["samples"], inputs["filter"] = "3s", "5", e2eFilter
	// The image that recorded the baseline runs every check, so a check
	// would not measure the embedded suite (its executable's hash is the
	// baseline's): the embedded suite's scenarios measure it, but one
	// that says it does not. A module's benchmarks (input bench) keep
	// the default: their scenarios test what is not measured.
	if spec.inputs["bench"] == "" {
		inputs["measure-all"] = "true"
	}
	for k, v := range spec.inputs {
		inputs[k] = v
	}
	secretEnv := []string{}
	for _, k := range slices.Sorted(maps.Keys(inputs)) {
		v := strings.ReplaceAll(inputs[k], "${{ github.token }}", spec.token)
		name := "INPUT_" + strings.ToUpper(strings.ReplaceAll(k, " ", "_"))
		if strings.Contains(v, spec.token) && spec.token != "" {
			// As the runner does: -e NAME, the value in podman's own
			// environment, so it never appears in a command line.
			secretEnv = append(secretEnv, name+"="+v)
			env = append(env, name)
			continue
		}
		env = append(env, name+"="+v)
	}

	container := fmt.Sprintf("wirebench-e2e-%s-%d-%d", strings.TrimPrefix(h.image.tag, "localhost/wirebench-e2e:"), h.id, h.n)
	args := []string{"run", "--name", container, "--rm", "--pull=never", "--network", "host",
		"--workdir", "/github/workspace",
		"-v", r.home + ":/github/home",
		"-v", r.workflow + ":/github/workflow",
		"-v", r.fileCommands + ":/github/file_commands",
		"-v", r.workspace + ":/github/workspace",
	}
	for _, v := range spec.volumes {
		args = append(args, "-v", v)
	}
	for _, e := range append(env, spec.env...) {
		args = append(args, "-e", e)
	}
	args = append(args, h.image.tag)

	timeout := cmp.Or(spec.timeout, e2eRunTimeout)
	ctx, cancel := context.WithTimeout(h.ctx, timeout)
	defer cancel()
	cmd := h.pm.command(ctx, args...)
	cmd.Env = append(slices.Clone(h.pm.env), secretEnv...)
	var stdout bytes.Buffer
	stderr := &e2eLineWatch{needle: e2eStarted}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	cmd.WaitDelay = 10 * time.Second
	before := len(h.fake.Requests())
	start := time.Now()
	stderr.start = start
	err = cmd.Run()
	r.elapsed = time.Since(start)
	r.stdout, r.stderr, r.measuring = stdout.String(), stderr.String(), stderr.at()
	r.requests = h.fake.Requests()[before:]
	if ctx.Err() != nil {
		rmctx, rmcancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer rmcancel()
		_, _ = h.pm.output(rmctx, "rm", "--force", "--ignore", "--time", "0", container)
		if h.ctx.Err() != nil {
			t.Fatalf("the test's budget ran out (%v) before the container finished, %v into its run of at most %v\n%s",
				h.ctx.Err(), r.elapsed.Round(time.Millisecond), timeout, r.dump())
		}
		t.Fatalf("the container did not finish within %v\n%s", timeout, r.dump())
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("podman run: %v\n%s", err, r.dump())
	}
	if r.code >= 125 {
		// 125: podman failed, 126: cannot invoke, 127: not found.
		t.Fatalf("podman run failed (exit %d), the action did not run\n%s", r.code, r.dump())
	}
	raw, _ := os.ReadFile(filepath.Join(r.fileCommands, outputFile))
	sum, _ := os.ReadFile(filepath.Join(r.fileCommands, summaryFile))
	r.outputsRaw, r.summary = string(raw), string(sum)
	if r.outputs, err = e2eParseOutputs(r.outputsRaw); err != nil {
		t.Errorf("GITHUB_OUTPUT file: %v\n%s", err, r.dump())
	}
	h.runs = append(h.runs, r)
	t.Logf("exit %d in %v", r.code, r.elapsed.Round(time.Millisecond))
	if os.Getenv("WIREBENCH_E2E_DUMP") == "1" {
		t.Logf("%s\nAPI requests:\n%s", r.dump(), r.requestLog())
	}
	return r
}

// e2eLineWatch is a stderr buffer that notes when needle first appears.
type e2eLineWatch struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	needle [][]byte // any of them
	start  time.Time
	seen   time.Duration
}

func (w *e2eLineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.seen == 0 && slices.ContainsFunc(w.needle, func(n []byte) bool { return bytes.Contains(w.buf.Bytes(), n) }) {
		w.seen = time.Since(w.start)
	}
	return len(p), nil
}

func (w *e2eLineWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func (w *e2eLineWatch) at() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen
}

// e2eParseOutputs reads a GITHUB_OUTPUT file as the runner does: name=value
// lines and name<<DELIMITER heredocs. A later value wins.
func e2eParseOutputs(s string) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			closed := false
			for sc.Scan() {
				if sc.Text() == delim {
					closed = true
					break
				}
				val = append(val, sc.Text())
			}
			if !closed {
				return out, fmt.Errorf("output %s: heredoc not closed by %q", name, delim)
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			return out, fmt.Errorf("invalid line %q", line)
		}
		out[name] = val
	}
	return out, sc.Err()
}

// dump is everything the run printed and wrote, for failure messages.
func (r *e2eRun) dump() string {
	return fmt.Sprintf("---- exit %d after %v\n---- stdout:\n%s---- stderr:\n%s---- GITHUB_OUTPUT:\n%s---- GITHUB_STEP_SUMMARY (%d bytes):\n%s----",
		r.code, r.elapsed.Round(time.Millisecond), r.stdout, r.stderr, r.outputsRaw, len(r.summary), e2eElide(r.summary, 3000))
}

func e2eElide(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n/2] + "\n[…]\n" + s[len(s)-n/2:]
}

func (r *e2eRun) requestLog() string {
	var b strings.Builder
	for _, q := range r.requests {
		fmt.Fprintf(&b, "  %s %s", q.Method, q.Path)
		if len(q.Query) > 0 {
			fmt.Fprintf(&b, "?%s", q.Query.Encode())
		}
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		return "  (none)\n"
	}
	return b.String()
}

func (r *e2eRun) countRequests(method, prefix string) int {
	n := 0
	for _, q := range r.requests {
		if (method == "" || q.Method == method) && strings.HasPrefix(q.Path, prefix) {
			n++
		}
	}
	return n
}

func (r *e2eRun) wantExit(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\n%s\nAPI requests:\n%s", r.code, code, r.dump(), r.requestLog())
	}
}

// wantCheckOutputs checks the outputs of a check: all five set, the
// verdict as given ("" for pass or fail).
func (r *e2eRun) wantCheckOutputs(t *testing.T, verdict string) {
	t.Helper()
	r.wantOutputs(t, verdict, len(e2eBenchmarks))
}

// wantOutputs checks the step's outputs: every one set, the verdict, and
// a results file of n benchmarks.
func (r *e2eRun) wantOutputs(t *testing.T, verdict string, n int) {
	t.Helper()
	for _, k := range []string{"verdict", "regressions", "improvements", "report-path", "results-path"} {
		if _, ok := r.outputs[k]; !ok {
			t.Errorf("output %s not set\n%s", k, r.dump())
		}
	}
	switch v := r.outputs["verdict"]; {
	case verdict == "" && v != "pass" && v != "fail":
		t.Errorf("output verdict = %q, want pass or fail\n%s", v, r.dump())
	case verdict != "" && v != verdict:
		t.Errorf("output verdict = %q, want %s\n%s", v, verdict, r.dump())
	}
	for _, k := range []string{"regressions", "improvements"} {
		if _, err := strconv.Atoi(r.outputs[k]); err != nil {
			t.Errorf("output %s = %q, want a number", k, r.outputs[k])
		}
	}
	if res := r.outputs["results-path"]; res != "" {
		data := r.wantWorkspaceFile(t, res)
		var head struct {
			Format     string            `json:"format"`
			Benchmarks []json.RawMessage `json:"benchmarks"`
		}
		if err := json.Unmarshal([]byte(data), &head); err != nil || head.Format != "wirebench.results" || len(head.Benchmarks) != n {
			t.Errorf("results file %s: format %q, %d benchmarks, error %v; want wirebench.results with %d", res, head.Format, len(head.Benchmarks), err, n)
		}
	}
}

// wantWorkspaceFile returns the content of the file an output names: a
// path relative to the workspace, or absolute inside the container.
func (r *e2eRun) wantWorkspaceFile(t *testing.T, p string) string {
	t.Helper()
	if p == "" {
		t.Fatalf("empty path output\n%s", r.dump())
	}
	host := filepath.Join(r.workspace, filepath.FromSlash(p))
	if rel, ok := strings.CutPrefix(p, "/github/workspace/"); ok {
		host = filepath.Join(r.workspace, filepath.FromSlash(rel))
	} else if filepath.IsAbs(p) {
		t.Fatalf("output path %q is outside the workspace: later steps cannot read it", p)
	}
	data, err := os.ReadFile(host)
	if err != nil {
		t.Fatalf("the file the outputs name is not in the workspace: %v\n%s", err, r.dump())
	}
	// The container runs as root; the workflow's later steps run as the
	// runner user (uid 1001), who must still be able to read the file.
	for p := host; p != r.workspace && len(p) > len(r.workspace); p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := fs.FileMode(0o004)
		if fi.IsDir() {
			want = 0o005
		}
		if fi.Mode().Perm()&want != want {
			t.Errorf("%s has mode %v: later steps, which run as another user than the container's root, cannot read it", p, fi.Mode())
		}
	}
	return string(data)
}

func (r *e2eRun) wantSummaryHasReport(t *testing.T, report string) {
	t.Helper()
	if strings.TrimSpace(report) == "" {
		t.Errorf("empty report")
	}
	if !strings.Contains(r.summary, report) {
		t.Errorf("the job summary does not contain the report\nreport:\n%s\nsummary:\n%s", e2eElide(report, 2000), e2eElide(r.summary, 2000))
	}
}

// wantCommentIsReport: the sticky comment is the marker and the run's
// report. The comment is bounded by report.DefaultMaxChars, the report file
// (and job summary) may hold more; a report this small is the same in both.
func wantCommentIsReport(t *testing.T, body, reportFile string) {
	t.Helper()
	if len(reportFile) < report.DefaultMaxChars && body != e2eMarker+"\n"+reportFile {
		t.Errorf("the comment is not the marker and the report file:\ncomment:\n%s\nreport:\n%s", e2eElide(body, 2000), e2eElide(reportFile, 2000))
	}
}

// wantBaselineReadFromMain: a pull request reads the baseline of the base
// branch through the API.
func (r *e2eRun) wantBaselineReadFromMain(t *testing.T) {
	t.Helper()
	for _, q := range r.requests {
		if q.Method == "GET" && q.Path == "/repos/"+e2eOwner+"/"+e2eRepo+"/contents/"+baseline.DefaultPath && q.Query.Get("ref") == "main" {
			return
		}
	}
	t.Errorf("no GET of %s at ref main\n%s", baseline.DefaultPath, r.requestLog())
}

// e2eShrinkSize returns the baseline with the B/msg of bench set to size, in
// the reference and the history, and the value it had.
func e2eShrinkSize(t *testing.T, stored []byte, bench string, size float64) ([]byte, float64) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(stored, &doc); err != nil {
		t.Fatal(err)
	}
	was := -1.0
	ref, _ := doc["reference"].(map[string]any)
	bms, _ := ref["benchmarks"].([]any)
	for _, b := range bms {
		b, _ := b.(map[string]any)
		if b["name"] != bench {
			continue
		}
		ms, _ := b["metrics"].([]any)
		for _, m := range ms {
			m, _ := m.(map[string]any)
			if m["unit"] != "B/msg" {
				continue
			}
			if vs, _ := m["values"].([]any); len(vs) > 0 {
				was, _ = vs[0].(float64)
			}
			m["values"] = []any{size}
		}
	}
	if was < 0 {
		t.Fatalf("the stored baseline has no B/msg for %s", bench)
	}
	hist, _ := doc["history"].([]any)
	for _, e := range hist {
		e, _ := e.(map[string]any)
		meds, _ := e["medians"].(map[string]any)
		if m, ok := meds[bench].(map[string]any); ok {
			m["B/msg"] = size
		}
	}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := baseline.Decode("seeded", out, "default"); err != nil {
		t.Fatalf("the edited baseline does not decode: %v", err)
	}
	return append(out, '\n'), was
}

// logStartup records how fast the binary gets to its first benchmark: on
// the host directly, and in the container (from the push run).
func (h *e2eHarness) logStartup(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, time.Minute)
	defer cancel()
	// The container's own overhead: a run that only prints the usage.
	start := time.Now()
	if _, err := h.pm.output(ctx, "run", "--rm", "--pull=never", "--network", "host", h.image.tag, "help"); err != nil {
		t.Logf("podman run help: %v", err)
	} else {
		t.Logf("podman run --rm IMAGE help: %v (container create, start, exit, remove)", time.Since(start).Round(time.Millisecond))
	}
	var inContainer []string
	for _, r := range h.runs {
		if r.measuring > 0 {
			inContainer = append(inContainer, r.measuring.Round(time.Millisecond).String())
		}
	}
	t.Logf("start-up in the container, `podman run` to %s, per run: %s", e2eStartedSays, strings.Join(inContainer, ", "))
	if runtime.GOOS != "linux" {
		return
	}
	cmd := exec.CommandContext(ctx, h.image.binary, "run", "--budget", "1s", "--samples", "2", "--filter", e2eFilter)
	cmd.Dir = t.TempDir()
	stderr := &e2eLineWatch{needle: e2eStarted}
	cmd.Stderr = stderr
	stderr.start = time.Now()
	if err := cmd.Run(); err != nil {
		t.Logf("host run: %v\n%s", err, stderr.String())
		return
	}
	t.Logf("start-up on the host, exec to %s (includes the re-exec for GODEBUG=madvdontneed=0): %v; whole run %v",
		e2eStartedSays, stderr.at().Round(time.Millisecond), time.Since(stderr.start).Round(time.Millisecond))
	t.Logf("image size %s; binary %s", e2eMB(h.image.size), e2eFileSize(h.image.binary))
}

// TestContainerfileFromDockerfile checks, without podman, that the
// Dockerfile's final stage still translates into the test image.
func TestContainerfileFromDockerfile(t *testing.T) {
	root, err := e2eRepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	got, base, err := e2eContainerfile(string(data), false)
	if err != nil {
		t.Fatal(err)
	}
	withGo, _, err := e2eContainerfile(string(data), true)
	if err != nil {
		t.Fatal(err)
	}
	// The image runs the action's entrypoint, the binary the test builds.
	if pkg, err := e2eBinaryPackage(string(data)); err != nil || pkg != "./cmd/action" {
		t.Errorf("the image's binary is built from %q (%v), want ./cmd/action", pkg, err)
	}
	if base.Suite != "bookworm" || !slices.Contains(base.Packages, "valgrind") || !slices.Contains(base.Packages, "ca-certificates") {
		t.Errorf("base %+v, want Debian bookworm with valgrind and ca-certificates", base)
	}
	for _, want := range []string{"COPY go /usr/local/go\n", "PATH=/usr/local/go/bin:"} {
		if !strings.Contains(withGo, want) {
			t.Errorf("test Containerfile with the toolchain lacks %q:\n%s", want, withGo)
		}
	}
	if strings.Contains(got, "/usr/local/go /usr/local/go") {
		t.Errorf("test Containerfile without the toolchain copies it:\n%s", got)
	}
	for _, want := range []string{"FROM " + base.Tag() + "\n", "COPY wirebench /wirebench\n", `ENTRYPOINT ["/wirebench"]`, "GODEBUG=madvdontneed=0", ":/usr/bin:"} {
		if !strings.Contains(got, want) {
			t.Errorf("test Containerfile lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"--from=", "RUN "} {
		if strings.Contains(got, gone) {
			t.Errorf("test Containerfile still has %q:\n%s", gone, got)
		}
	}

	for _, bad := range []string{
		"FROM golang AS build\nFROM alpine\nENTRYPOINT [\"/wirebench\"]\n",
		"FROM golang AS build\nFROM scratch\nENTRYPOINT [\"/wirebench\"]\n",
		"FROM golang AS build\nFROM debian:bookworm-slim\nCOPY --from=build /out/other /other\n",
		"FROM debian:bookworm-slim\nCOPY --from=elsewhere /x /x\n",
		"FROM debian:bookworm-slim\nRUN curl -fsSL https://example.com/install.sh | sh\n",
		"FROM debian:bookworm-slim\nRUN apt-get update && apt-get install -y valgrind && make\n",
		"FROM debian:bookworm-slim\nRUN apt-get update\n",
	} {
		if _, _, err := e2eContainerfile(bad, true); err == nil {
			t.Errorf("e2eContainerfile accepted\n%s", bad)
		}
	}
}

func TestE2EParseOutputs(t *testing.T) {
	in := "verdict<<_GitHubActionsFileCommandDelimeter_\npass\n_GitHubActionsFileCommandDelimeter_\n" +
		"report-path<<EOF\n\nEOF\nplain=a=b\nmulti<<D\nline 1\nline 2\nD\nverdict=fail\n"
	got, err := e2eParseOutputs(in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"verdict": "fail", "report-path": "", "plain": "a=b", "multi": "line 1\nline 2"}
	if !maps.Equal(got, want) {
		t.Errorf("e2eParseOutputs = %q, want %q", got, want)
	}
	if _, err := e2eParseOutputs("x<<D\nunterminated\n"); err == nil {
		t.Error("an unterminated heredoc parsed")
	}
}

// e2eAcceptScenarios runs the pull request #42 whose message grew (the
// stored baseline has a smaller e2eSizeBench) with what accepts it and
// what does not.
func e2eAcceptScenarios(t *testing.T, h *e2eHarness, token string) {
	fake := h.fake
	grown := regexp.MustCompile(`(?m)^::error[^\n]*` + regexp.QuoteMeta(e2eSizeBench) + `[^\n]*B/msg`)
	other := "Wirebench-Accept: codec=raw/dataset=small$ an unrelated change"
	// #42's commits: one with a trailer that names another benchmark.
	commits := []fakegithub.PullCommit{{SHA: strings.Repeat("2", 40), Message: "protobuf: add the order id\n\nWirebench-Accept: codec=raw/dataset=small$\n", Author: "octo-org"}}
	fake.AddPullRequest(e2eOwner, e2eRepo, fakegithub.PullRequest{Number: 42, Author: "octo-org", HeadSHA: strings.Repeat("2", 40), Commits: commits})

	t.Run("the label accepts the grown message", func(t *testing.T) {
		r := h.run(t, e2eSpec{event: "pull_request_labeled.json", token: token})
		r.wantExit(t, 0)
		r.wantCheckOutputs(t, "pass")
		if n, _ := strconv.Atoi(r.outputs["regressions"]); n < 1 {
			t.Errorf("output regressions = %q: the accepted regression is still counted and reported", r.outputs["regressions"])
		}
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		r.wantSummaryHasReport(t, report)
		for _, want := range []string{"#### Accepted by the pull request", "label wirebench:accept", "@&#8203;maintainer", "regression (accepted)"} {
			if !strings.Contains(report, want) {
				t.Errorf("the report lacks %q:\n%s", want, report)
			}
		}
		if grown.MatchString(r.stdout) {
			t.Errorf("an accepted regression is still an ::error annotation\n%s", r.dump())
		}
		if !regexp.MustCompile(`(?m)^::warning title=wirebench regression \(accepted\)::` + regexp.QuoteMeta(e2eSizeBench) + `[^\n]*accepted: label wirebench:accept of #42 by @maintainer`).MatchString(r.stdout) {
			t.Errorf("stdout has no ::warning annotation for the accepted regression\n%s", r.dump())
		}
		if n := r.countRequests("GET", "/repos/"+e2eOwner+"/"+e2eRepo+"/pulls/42/commits"); n != 0 {
			t.Errorf("the label accepted everything, yet the commits were read %d times", n)
		}
		if cs := fake.Comments(e2eOwner, e2eRepo, 42); len(cs) != 1 || !strings.Contains(cs[0].Body, "Accepted by the pull request") {
			t.Errorf("the sticky comment does not report the acceptance (%d comments)", len(cs))
		}
	})

	t.Run("a Wirebench-Accept line for another benchmark still fails", func(t *testing.T) {
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token, edit: func(p map[string]any) {
			p["pull_request"].(map[string]any)["body"] = "Adds the order id.\r\n\r\n" + other + "\r\n"
		}})
		r.wantExit(t, 1)
		r.wantCheckOutputs(t, "fail")
		if !grown.MatchString(r.stdout) {
			t.Errorf("stdout has no ::error annotation for %s B/msg\n%s", e2eSizeBench, r.dump())
		}
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		if strings.Contains(report, "Accepted by the pull request") {
			t.Errorf("a line for another benchmark accepted something:\n%s", report)
		}
		// The description did not accept it, so the commits were read.
		if n := r.countRequests("GET", "/repos/"+e2eOwner+"/"+e2eRepo+"/pulls/42/commits"); n != 1 {
			t.Errorf("%d reads of #42's commits, want 1\n%s", n, r.requestLog())
		}
	})

	t.Run("a commit trailer naming the benchmark accepts it", func(t *testing.T) {
		named := append(slices.Clone(commits), fakegithub.PullCommit{SHA: strings.Repeat("6", 40), Author: "dev",
			Message: "protobuf: the order id is a varint\n\nWirebench-Accept: codec=protobuf/dataset=small$ the id needs <b>@octo-org</b> bytes\nSigned-off-by: Dev <dev@example.com>\n"})
		fake.AddPullRequest(e2eOwner, e2eRepo, fakegithub.PullRequest{Number: 42, Author: "octo-org", HeadSHA: strings.Repeat("6", 40), Commits: named})
		defer fake.AddPullRequest(e2eOwner, e2eRepo, fakegithub.PullRequest{Number: 42, Author: "octo-org", HeadSHA: strings.Repeat("2", 40), Commits: commits})
		r := h.run(t, e2eSpec{event: "pull_request.json", token: token})
		r.wantExit(t, 0)
		r.wantCheckOutputs(t, "pass")
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		for _, want := range []string{"commit 6666666", "@&#8203;dev", "`codec=protobuf/dataset=small$`", "&lt;b&gt;@&#8203;octo-org&lt;/b&gt;"} {
			if !strings.Contains(report, want) {
				t.Errorf("the report lacks %q:\n%s", want, report)
			}
		}
		// The reason is the pull request's text: escaped, never markup.
		if strings.Contains(report, "<b>") || strings.Contains(report, "@octo-org") {
			t.Errorf("the reason reached the report unescaped:\n%s", report)
		}
	})
}
