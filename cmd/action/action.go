package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/githubapi"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

// actionConfig is the action's inputs, parsed into the same pieces the
// command line fills.
type actionConfig struct {
	Mode           string
	Token          string
	BaselinePath   string
	BaselineBranch string
	Comment        string
	BenchmarkFile  string
	// MergePath holds the shards' results (downloaded artifacts) in mode
	// merge; MergePartial allows missing shards.
	MergePath    string
	MergePartial bool
	History      int
	Run          runConfig
	Compare      compareConfig
}

// readInputs parses the action's inputs. Every bad input is named with the
// value it had and what would be valid; nothing is guessed.
func readInputs(gha *githubactions.Action) (actionConfig, error) {
	in := func(name, def string) string {
		if v := gha.GetInput(name); v != "" {
			return v
		}
		return def
	}
	c := actionConfig{
		Mode:           in("mode", "auto"),
		Token:          gha.GetInput("github-token"),
		BaselinePath:   in("baseline-path", baseline.DefaultPath),
		BaselineBranch: gha.GetInput("baseline-branch"),
		Comment:        in("comment", "always"),
		BenchmarkFile:  gha.GetInput("benchmark-file"),
		MergePath:      gha.GetInput("merge-path"),
		MergePartial:   gha.GetInput("merge-partial") == "true",
	}
	c.Run.Shard = gha.GetInput("shard")
	var errs []error
	bad := func(input, value, want string) {
		errs = append(errs, fmt.Errorf("input %s: %q is not valid: %s", input, value, want))
	}
	if !oneOf(c.Mode, "auto", "check", "update", "run", "compare", "merge") {
		bad("mode", c.Mode, "use auto, check, update, run, compare or merge")
	}
	if c.Mode == "merge" && c.MergePath == "" {
		errs = append(errs, errors.New("input merge-path: mode merge needs the directory holding the shards' results (the downloaded artifacts)"))
	}
	if c.Mode == "merge" && c.Run.Shard != "" {
		errs = append(errs, errors.New("inputs shard and mode merge exclude each other: shards measure, one merge job merges"))
	}
	if !oneOf(c.Comment, "always", "on-change", "never") {
		bad("comment", c.Comment, "use always, on-change or never")
	}
	if c.Mode == "compare" && c.BenchmarkFile == "" {
		errs = append(errs, errors.New("input benchmark-file: mode compare needs the path of your `go test -bench` output"))
	}
	var err error
	if c.Run.Budget, err = time.ParseDuration(in("budget", "60s")); err != nil || c.Run.Budget <= 0 {
		bad("budget", gha.GetInput("budget"), "use a duration such as 60s or 2m")
	}
	if c.Run.Samples, err = strconv.Atoi(in("samples", "15")); err != nil || c.Run.Samples < 2 {
		bad("samples", gha.GetInput("samples"), "use a whole number of at least 2 (10 or more recommended)")
	}
	if c.History, err = strconv.Atoi(in("history", strconv.Itoa(baseline.DefaultHistory))); err != nil || c.History < 1 {
		bad("history", gha.GetInput("history"), "use a whole number of at least 1")
	}
	c.Run.Filter = gha.GetInput("filter")
	c.Compare.Options = compare.Defaults()
	c.Compare.FailOn = compare.FailOn(in("fail-on", "regression"))
	if !oneOf(string(c.Compare.FailOn), "regression", "never") {
		bad("fail-on", string(c.Compare.FailOn), "use regression or never")
	}
	if c.Compare.Options.Threshold, err = parsePercent(in("threshold", "5%")); err != nil {
		bad("threshold", gha.GetInput("threshold"), err.Error())
	}
	if c.Compare.Options.SizeThreshold, err = parsePercent(in("size-threshold", "0%")); err != nil {
		bad("size-threshold", gha.GetInput("size-threshold"), err.Error())
	}
	if c.Compare.Options.Alpha, err = strconv.ParseFloat(in("alpha", "0.01"), 64); err != nil || c.Compare.Options.Alpha <= 0 || c.Compare.Options.Alpha >= 1 {
		bad("alpha", gha.GetInput("alpha"), "use a probability between 0 and 1, such as 0.01")
	}
	if len(errs) == 0 {
		if err := c.Run.validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return c, errors.Join(errs...)
}

func oneOf(s string, allowed ...string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

// summaryMaxChars bounds the job summary and report file: GitHub accepts
// 1 MiB of summary per step.
const summaryMaxChars = 900_000

// commentMarker identifies this suite's sticky comment.
func commentMarker(suite string) string { return "<!-- wirebench:suite=" + suite + " -->" }

// actionRun is one execution of the action.
type actionRun struct {
	e   *env
	gha *githubactions.Action
	cfg actionConfig
	ev  *event.Event
	api *githubapi.Client // nil without a token
	// outDir is where the report and results go, relative to the
	// workspace (the working directory), so later steps find them.
	outDir string
	notes  []string
}

// cmdAction runs wirebench as a GitHub Action.
func cmdAction(ctx context.Context, e *env) error {
	gha := githubactions.New(githubactions.WithGetenv(e.getenv), githubactions.WithWriter(e.stdout))
	if tok := gha.GetInput("github-token"); tok != "" {
		gha.AddMask(tok)
	}
	cfg, err := readInputs(gha)
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			gha.Errorf("%s", line)
		}
		return badInputf("bad action inputs (see the errors above)")
	}
	ev, err := event.Read(e.getenv)
	if err != nil {
		return badInput{err}
	}
	a := &actionRun{e: e, gha: gha, cfg: cfg, ev: ev, outDir: defaultOutDir}
	// Fail in a second, not after the measurement, if the workspace is
	// not writable (e.g. an image built with a USER line).
	if err := os.MkdirAll(a.outDir, 0o755); err != nil {
		return fmt.Errorf("cannot write results to the workspace (%v): the container must run as root, as Docker actions do", err)
	}
	if cfg.Token != "" && ev.Owner != "" {
		a.api, err = githubapi.New(githubapi.Options{BaseURL: e.getenv("GITHUB_API_URL"), Token: cfg.Token})
		if err != nil {
			return badInput{err}
		}
	}
	mode := a.resolveMode()
	gha.Infof("wirebench: mode %s (event %s)", mode, orDash(ev.Name))
	switch mode {
	case "check", "compare":
		return a.check(ctx)
	case "update":
		return a.update(ctx)
	default:
		return a.run(ctx)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// resolveMode turns auto into the job the event calls for.
func (a *actionRun) resolveMode() string {
	m := a.cfg.Mode
	if m == "merge" {
		// The merge job does what the event calls for, on the merged
		// results: only it comments and refreshes the baseline.
		m = "auto"
	}
	if m != "auto" {
		return m
	}
	if a.cfg.Run.Shard != "" {
		a.notes = append(a.notes, fmt.Sprintf("Shard %s: this job only measures; the merge job compares, comments and refreshes the baseline.", a.cfg.Run.Shard))
		a.gha.Noticef("%s", a.notes[len(a.notes)-1])
		return "run"
	}
	switch {
	case a.ev.IsPullRequest():
		if a.cfg.BenchmarkFile != "" {
			return "compare"
		}
		return "check"
	case a.ev.IsPushToDefault():
		return "update"
	}
	a.notes = append(a.notes, fmt.Sprintf("Mode auto on a %s event runs the suite without comparing: checks run on pull requests and the baseline is refreshed on pushes to %s.", orDash(a.ev.Name), orDash(a.ev.DefaultBranch)))
	a.gha.Noticef("%s", a.notes[len(a.notes)-1])
	return "run"
}

// baselineBranch is where the baseline lives.
func (a *actionRun) baselineBranch() string {
	if a.cfg.BaselineBranch != "" {
		return a.cfg.BaselineBranch
	}
	if a.ev.DefaultBranch != "" {
		return a.ev.DefaultBranch
	}
	return "main"
}

// candidate measures the suite, merges the shards' results, or reads the
// user's benchmark file.
func (a *actionRun) candidate(ctx context.Context) (*results.Results, error) {
	if a.cfg.MergePath != "" {
		r, note, err := mergeShards([]string{a.cfg.MergePath}, a.cfg.MergePartial)
		if err != nil {
			return nil, err
		}
		a.notes = append(a.notes, note)
		return r, nil
	}
	if a.cfg.BenchmarkFile != "" {
		r, err := results.Load(a.cfg.BenchmarkFile)
		if err != nil {
			return nil, badInputf("input benchmark-file: %v", err)
		}
		r.Env.Commit, r.Env.Ref = a.ev.SHA, a.e.getenv("GITHUB_REF_NAME")
		if r.Env.Time.IsZero() {
			r.Env.Time = time.Now().UTC().Truncate(time.Second)
		}
		return r, nil
	}
	r, err := measure(ctx, a.e, a.cfg.Run)
	if err != nil {
		return nil, err
	}
	if a.ev.SHA != "" {
		r.Env.Commit = a.ev.SHA // the PR head, not the test merge commit
	}
	return r, nil
}

func (a *actionRun) suite() string {
	if a.cfg.BenchmarkFile != "" {
		return ""
	}
	return bench.SuiteName
}

// loadBaseline reads the baseline a pull request is judged against: from
// the baseline branch through the API, never from the pull request's own
// checkout (a pull request must not be able to weaken its own gate). Only
// without a token does it fall back to the workspace file, and says so.
func (a *actionRun) loadBaseline(ctx context.Context) (*baseline.Baseline, string, error) {
	path := a.cfg.BaselinePath
	if a.api == nil {
		src := path + " in the workspace (no github-token: the pull request's own copy)"
		b, err := baseline.Load(path, a.suite())
		if errors.Is(err, baseline.ErrNotExist) {
			return nil, src, nil
		}
		if err != nil {
			return nil, src, badInput{err}
		}
		a.gha.Warningf("no github-token: comparing with %s from the workspace, which a pull request can change", path)
		return b, src, nil
	}
	branch := a.baselineBranch()
	src := fmt.Sprintf("%s on branch %s (GitHub API)", path, branch)
	data, sha, err := a.api.GetFile(ctx, a.ev.Owner, a.ev.Repo, path, branch)
	if errors.Is(err, githubapi.ErrNotFound) {
		return nil, src, nil
	}
	if err != nil {
		return nil, src, fmt.Errorf("read the baseline %s from branch %s: %w", path, branch, err)
	}
	b, err := baseline.Decode(fmt.Sprintf("%s@%s", path, branch), data, a.suite())
	if err != nil {
		return nil, src, badInput{err}
	}
	return b, src + " at blob " + shortSHA(sha), nil
}

func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func (a *actionRun) path(name string) string { return filepath.Join(a.outDir, name) }

func (a *actionRun) check(ctx context.Context) error {
	base, src, err := a.loadBaseline(ctx)
	if err != nil {
		return err
	}
	// ---- same-runner A/B (cmd/action/ab.go, docs/ab-mode.md) ----
	// On a pull request with a checkout of the base commit (input
	// base-path), both builds are measured here, interleaved, instead of
	// comparing with the stored baseline, which still supplies the
	// history; otherwise the stored baseline is used and the report says
	// why.
	abOut, why := a.sameRunnerAB(ctx)
	var cand *results.Results
	if abOut != nil {
		cand = abOut.Head
	} else if cand, err = a.candidate(ctx); err != nil {
		return err
	}
	// ---- end same-runner A/B ----
	resultsPath, reportPath := a.path("results.json"), a.path("report.md")
	if err := cand.WriteFile(resultsPath); err != nil {
		return err
	}
	in := report.Input{Candidate: cand, BaselineSource: src, Title: a.title(), FailOn: a.cfg.Compare.FailOn, Notes: a.notes, Details: a.runURL()}
	verdict := "no-baseline"
	var res *compare.Result
	if abOut != nil { // same-runner A/B
		res = abOut.Result
		in.Result, in.BaselineSource = res, "the base build at "+a.gha.GetInput("base-path")
		if base != nil {
			in.History = base.History
		}
		verdict = "pass"
		if res.Failed(a.cfg.Compare.FailOn) {
			verdict = "fail"
		}
	} else if base == nil {
		if why != "" { // same-runner A/B: why not
			in.Notes = append(in.Notes, "Stored-baseline comparison: "+why+".")
		}
		in.Notes = append(in.Notes, fmt.Sprintf("No baseline yet (%s): this run passes and is not compared. A push to %s with mode auto creates the baseline.", src, a.baselineBranch()))
	} else {
		opts := a.cfg.Compare.Options
		opts.BetweenRun = &compare.Noise{Spread: base.BetweenRunNoise()}
		res, err = compare.Compare(base.Reference, cand, opts)
		if err != nil {
			return badInputf("compare with the baseline (%s): %v", src, err)
		}
		res.Why = why // same-runner A/B: why the stored baseline was used
		in.Result, in.History = res, base.History
		verdict = "pass"
		if res.Failed(a.cfg.Compare.FailOn) {
			verdict = "fail"
		}
	}
	// The comment is bounded below GitHub's 65,536-character limit; the job
	// summary (1 MiB a step) and the report file get everything.
	full := report.Markdown(in, report.Options{MaxChars: summaryMaxChars})
	if err := results.WriteFileAtomic(reportPath, []byte(full)); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	a.summary(full)
	a.comment(ctx, report.Markdown(in, report.Options{}), res)
	a.outputs(verdict, res, reportPath, resultsPath)
	if res != nil {
		a.annotate(res)
		if err := report.Text(a.e.stdout, res); err != nil {
			return err
		}
		if verdict == "fail" {
			return errGate
		}
	}
	return nil
}

func (a *actionRun) title() string {
	if a.cfg.BenchmarkFile != "" {
		return "wirebench: " + a.cfg.BenchmarkFile
	}
	return "wirebench: " + bench.SuiteName + " suite"
}

func (a *actionRun) runURL() string {
	server, repo, id := a.e.getenv("GITHUB_SERVER_URL"), a.e.getenv("GITHUB_REPOSITORY"), a.e.getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// summary appends the report to the job summary, when the runner gives one.
func (a *actionRun) summary(md string) {
	if a.e.getenv("GITHUB_STEP_SUMMARY") == "" {
		return
	}
	a.gha.AddStepSummary(md)
}

// comment posts or refreshes the sticky comment as the comment input says.
// A failure is a warning, never a failed check: on pull requests from forks
// the token is read-only, and the report is in the job summary anyway.
func (a *actionRun) comment(ctx context.Context, md string, res *compare.Result) {
	if !a.ev.IsPullRequest() || a.cfg.Comment == "never" {
		return
	}
	if a.api == nil {
		a.gha.Warningf("no github-token: the report is in the job summary only")
		return
	}
	marker := commentMarker(a.suite() + a.cfg.BenchmarkFile)
	body := marker + "\n" + md
	changed := res != nil && (res.Count(compare.Regression) > 0 || res.Count(compare.Improvement) > 0)
	var c githubapi.Comment
	var err error
	if a.cfg.Comment == "on-change" && !changed {
		c, err = a.api.UpdateComment(ctx, a.ev.Owner, a.ev.Repo, a.ev.PR.Number, marker, body)
	} else {
		c, err = a.api.UpsertComment(ctx, a.ev.Owner, a.ev.Repo, a.ev.PR.Number, marker, body)
	}
	switch {
	case err != nil && errors.Is(err, githubapi.ErrForbidden) && a.ev.PR.Fork:
		a.gha.Warningf("cannot comment on a pull request from a fork (the token is read-only); the report is in the job summary. See the README, 'Fork pull requests', for the safe two-workflow pattern.")
	case err != nil:
		a.gha.Warningf("could not post the PR comment; the report is in the job summary: %v", err)
	case c.ID != 0:
		a.gha.Infof("wirebench: report at %s", c.URL)
	}
}

func (a *actionRun) outputs(verdict string, res *compare.Result, reportPath, resultsPath string) {
	if a.e.getenv("GITHUB_OUTPUT") == "" {
		return
	}
	regs, imps := 0, 0
	if res != nil {
		regs, imps = res.Count(compare.Regression), res.Count(compare.Improvement)
	}
	a.gha.SetOutput("verdict", verdict)
	a.gha.SetOutput("regressions", strconv.Itoa(regs))
	a.gha.SetOutput("improvements", strconv.Itoa(imps))
	a.gha.SetOutput("report-path", reportPath)
	a.gha.SetOutput("results-path", resultsPath)
}

// annotate marks each regression with an error annotation (GitHub shows at
// most 10 per step, so the largest come first).
func (a *actionRun) annotate(res *compare.Result) {
	regs := res.Regressions()
	compare.Sort(regs)
	for i, c := range regs {
		if i == 10 {
			a.gha.Errorf("… and %d more regressions: see the job summary", len(regs)-10)
			break
		}
		annotate := a.gha.WithFieldsMap(map[string]string{"title": "wirebench regression"}).Errorf
		if a.cfg.Compare.FailOn == compare.FailOnNever || c.Unconfirmed {
			annotate = a.gha.WithFieldsMap(map[string]string{"title": "wirebench regression (not enforced)"}).Warningf
		}
		annotate("%s %s: %s → %s (%+.1f%%)",
			c.Name, c.Unit, report.FormatValue(c.Baseline.Median, c.Unit), report.FormatValue(c.Candidate.Median, c.Unit), 100*c.Change())
	}
}

// update measures and stores the new baseline on the baseline branch
// through the Contents API, merging with whatever another run wrote
// meanwhile. Without a token it writes the workspace file.
func (a *actionRun) update(ctx context.Context) error {
	cand, err := a.candidate(ctx)
	if err != nil {
		return err
	}
	resultsPath := a.path("results.json")
	if err := cand.WriteFile(resultsPath); err != nil {
		return err
	}
	runID := runIdentity(a.e.getenv)
	path, branch := a.cfg.BaselinePath, a.baselineBranch()
	var stored *baseline.Baseline
	where := ""
	if a.api == nil {
		b, err := baseline.Load(path, a.suite())
		if err != nil && !errors.Is(err, baseline.ErrNotExist) {
			return badInput{err}
		}
		stored = baseline.Merge(baseline.New(cand, runID), orEmpty(b), a.cfg.History)
		if err := stored.Save(path); err != nil {
			return err
		}
		where = path + " in the workspace (no github-token: commit it yourself)"
		a.gha.Warningf("no github-token: wrote %s in the workspace only", path)
	} else {
		msg := fmt.Sprintf("wirebench: update baseline for %s [skip ci]", shortSHA(cand.Env.Commit))
		merge := func(old []byte, exists bool) ([]byte, error) {
			var prev *baseline.Baseline
			if exists {
				var err error
				if prev, err = baseline.Decode(fmt.Sprintf("%s@%s", path, branch), old, a.suite()); err != nil {
					return nil, err
				}
			}
			stored = baseline.Merge(baseline.New(cand, runID), orEmpty(prev), a.cfg.History)
			return stored.Encode()
		}
		commit, err := a.api.UpdateFile(ctx, a.ev.Owner, a.ev.Repo, path, branch, msg, merge)
		if err != nil {
			return fmt.Errorf("update the baseline %s on branch %s: %w", path, branch, err)
		}
		where = fmt.Sprintf("%s on branch %s (commit %s)", path, branch, shortSHA(commit))
	}
	line := fmt.Sprintf("Baseline updated: %s, %d benchmarks, %s in its history.", where, len(cand.Benchmarks), plural(len(stored.History), "run"))
	a.gha.Infof("wirebench: %s", line)
	var sb strings.Builder
	sb.WriteString("### wirebench: baseline updated\n\n" + line + "\n\n```\n")
	report.RunTable(&sb, cand)
	sb.WriteString("```\n")
	return a.finishRun(sb.String(), "updated", resultsPath)
}

// finishRun writes the report of a run that compared nothing (update,
// run) to the report file and the job summary, and sets the outputs.
func (a *actionRun) finishRun(md, verdict, resultsPath string) error {
	reportPath := a.path("report.md")
	if err := results.WriteFileAtomic(reportPath, []byte(md)); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	a.summary(md)
	if a.e.getenv("GITHUB_OUTPUT") != "" {
		a.gha.SetOutput("verdict", verdict)
		a.gha.SetOutput("regressions", "0")
		a.gha.SetOutput("improvements", "0")
		a.gha.SetOutput("results-path", resultsPath)
		a.gha.SetOutput("report-path", reportPath)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func orEmpty(b *baseline.Baseline) *baseline.Baseline {
	if b == nil {
		return &baseline.Baseline{}
	}
	return b
}

// run only measures and reports.
func (a *actionRun) run(ctx context.Context) error {
	if a.cfg.Run.Shard != "" {
		// Every shard reads the same baseline, so all compute the same
		// cost-balanced partition.
		b, _, err := a.loadBaseline(ctx)
		if err != nil {
			a.gha.Warningf("shards are balanced by name only: %v", err)
		} else if b != nil {
			a.cfg.Run.Reference = b.Reference
		}
	}
	cand, err := a.candidate(ctx)
	if err != nil {
		return err
	}
	resultsPath := a.path("results.json")
	if err := cand.WriteFile(resultsPath); err != nil {
		return err
	}
	var sb strings.Builder
	sb.WriteString("### wirebench: " + bench.SuiteName + " suite\n\n")
	for _, n := range a.notes {
		sb.WriteString(n + "\n\n")
	}
	sb.WriteString("```\n")
	report.RunTable(&sb, cand)
	sb.WriteString("```\n")
	report.RunTable(a.e.stdout, cand)
	return a.finishRun(sb.String(), "measured", resultsPath)
}
