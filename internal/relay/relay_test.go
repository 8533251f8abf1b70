package relay

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/githubapi"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

var (
	headSHA  = strings.Repeat("2", 40)
	otherSHA = strings.Repeat("9", 40)
	run      = &event.WorkflowRun{ID: 77, Event: "pull_request", Conclusion: "failure", URL: "https://github.com/o/r/actions/runs/77",
		HeadSHA: headSHA, HeadBranch: "fix", HeadRepo: "forker/r"}
	open = []githubapi.PullRequest{{Number: 5, HeadRepo: "forker/r", HeadRef: "fix", HeadSHA: headSHA}}
)

// hostile is a benchmark name written to be active in a comment.
const hostile = "Encode @octocat <img src=x onerror=alert(1)> https://evil.example/x"

// comparison is the JSON report of a counted regression of the benchmark
// named name, measured at commit.
func comparison(t *testing.T, name, commit string) []byte {
	t.Helper()
	r := &compare.Result{
		Options:      compare.Options{Threshold: 0.01, Alpha: 0.01, Correction: compare.Holm, Confidence: 0.95, Power: 0.8, Normalize: compare.NormalizeAuto, CountedUnit: results.UnitInstructionsPerOp},
		BaselineEnv:  results.Env{Commit: strings.Repeat("1", 40)},
		CandidateEnv: results.Env{Commit: commit},
		Method:       compare.MethodCounted,
		Comparisons: []compare.Comparison{
			{Name: name, Unit: results.UnitInstructionsPerOp, Kind: compare.Noisy, Baseline: compare.Summary{Median: 1000, N: 5}, Candidate: compare.Summary{Median: 1100, N: 5},
				Ratio: 1.1, RawRatio: 1.1, Lo: 1.09, Hi: 1.11, P: 1e-6, PAdjusted: 1e-6, Verdict: compare.Regression, MDE: 0.002, DF: 8, Spread: 0.001},
			{Name: "Decode", Unit: results.UnitBytesPerMsg, Kind: compare.Exact, Baseline: compare.Summary{Median: 40, N: 1}, Candidate: compare.Summary{Median: 40, N: 1},
				Ratio: 1, RawRatio: 1, Lo: math.NaN(), Hi: math.NaN(), P: math.NaN(), PAdjusted: math.NaN(), Verdict: compare.Unchanged, MDE: math.NaN()},
		},
	}
	var b bytes.Buffer
	if err := report.JSON(&b, r, compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func write(t *testing.T, pr PullRequest, suite string, cmp []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := Write(dir, pr, suite, "wirebench: go test -bench .", cmp, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRelay: a relay written by a pull request's run is read, tied to
// the run and its pull request, and rendered from the numbers, with the
// benchmark's hostile name inert.
func TestRelay(t *testing.T) {
	dir := write(t, PullRequest{Number: 5, HeadSHA: headSHA, HeadRepo: "forker/r"}, "gotest:.", comparison(t, hostile, headSHA))
	r, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := r.Check(run, open)
	if err != nil || pr.Number != 5 {
		t.Fatalf("Check = #%d, %v; want #5", pr.Number, err)
	}
	md := r.Markdown(run)
	for _, want := range []string{"### ❌ 1 regression", "+10.0%", "concluded failure", "https://github.com/o/r/actions/runs/77"} {
		if !strings.Contains(md, want) {
			t.Errorf("the comment lacks %q:\n%s", want, md)
		}
	}
	for _, active := range []string{"@octocat", "<img", "https://evil.example"} {
		if strings.Contains(md, active) {
			t.Errorf("the comment holds %q as written:\n%s", active, md)
		}
	}
}

// TestRelayRefused: forged or malformed relays get an error that names
// what is wrong, and no pull request to comment on.
func TestRelayRefused(t *testing.T) {
	good := PullRequest{Number: 5, HeadSHA: headSHA, HeadRepo: "forker/r"}
	cmp := comparison(t, "Encode", headSHA)
	forgedVerdict := bytes.Replace(cmp, []byte(`"verdict": "fail"`), []byte(`"verdict": "pass"`), 1)
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		want string
	}{
		{"another pull request's number", func(t *testing.T) string {
			return write(t, PullRequest{Number: 8, HeadSHA: headSHA, HeadRepo: "forker/r"}, "gotest:.", cmp)
		}, "names pull request #8, but the open pull request of forker/r at 2222222 is #5"},
		{"another head SHA", func(t *testing.T) string {
			return write(t, PullRequest{Number: 5, HeadSHA: otherSHA, HeadRepo: "forker/r"}, "gotest:.", comparison(t, "Encode", otherSHA))
		}, "says it measured 9999999, but the run that completed was of 2222222"},
		{"a comparison of another commit", func(t *testing.T) string {
			return write(t, good, "gotest:.", comparison(t, "Encode", otherSHA))
		}, "comparison measured commit"},
		{"another head repository", func(t *testing.T) string {
			return write(t, PullRequest{Number: 5, HeadSHA: headSHA, HeadRepo: "o/r"}, "gotest:.", cmp)
		}, "names head repository o/r, but the run was of forker/r"},
		{"a huge file", func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, File), bytes.Repeat([]byte(" "), MaxBytes+1), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "more than the 8388608 a run writes"},
		{"invalid JSON", func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, File), []byte("{\"format\": \"wirebench.relay\", "), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "not a relay file"},
		{"Markdown smuggled in", func(t *testing.T) string {
			dir := write(t, good, "gotest:.", cmp)
			path := filepath.Join(dir, File)
			data, _ := os.ReadFile(path)
			data = bytes.Replace(data, []byte(`"suite"`), []byte(`"markdown": "### ✅ all good @maintainer", "suite"`), 1)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, `unknown field "markdown"`},
		{"a forged verdict", func(t *testing.T) string { return write(t, good, "gotest:.", forgedVerdict) }, "inconsistent document: verdict"},
		{"a marker breaker", func(t *testing.T) string { return write(t, good, "x --> <img src=x>", cmp) }, "suite"},
		{"a symbolic link", func(t *testing.T) string {
			dir, target := t.TempDir(), write(t, good, "gotest:.", cmp)
			if err := os.Symlink(filepath.Join(target, File), filepath.Join(dir, File)); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "not a regular file"},
		{"no file", func(t *testing.T) string { return t.TempDir() }, "download the pull request run's artifact"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Read(tt.dir(t))
			if err == nil {
				_, err = r.Check(run, open)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestFind: the run's pull request is found by its head repository and
// commit among the open pull requests of its branch; a head pushed again
// since finds none, which is ErrNoPullRequest.
func TestFind(t *testing.T) {
	l := lister{{Number: 5, HeadRepo: "forker/r", HeadRef: "fix", HeadSHA: headSHA}, {Number: 6, HeadRepo: "forker/r", HeadRef: "fix", HeadSHA: otherSHA}}
	got, err := Find(t.Context(), l, "o", "r", run)
	if err != nil || len(got) != 1 || got[0].Number != 5 {
		t.Fatalf("Find = %+v, %v; want #5", got, err)
	}
	moved := *run
	moved.HeadSHA = strings.Repeat("3", 40)
	if _, err := Find(t.Context(), l, "o", "r", &moved); err == nil || !strings.Contains(err.Error(), ErrNoPullRequest.Error()) {
		t.Errorf("a head pushed again since: err = %v", err)
	}
}

type lister []githubapi.PullRequest

func (l lister) OpenPullRequests(_ context.Context, owner, repo, headOwner, ref string) ([]githubapi.PullRequest, error) {
	return l, nil
}
