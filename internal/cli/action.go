package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/deliver"
	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/githubapi"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
	"github.com/wirebench/wirebench/internal/source"
	"github.com/wirebench/wirebench/internal/store"
)

// commentMarker identifies this suite's sticky comment.
func commentMarker(suite string) string { return "<!-- wirebench:suite=" + suite + " -->" }

// actionRun is one execution of the action.
type actionRun struct {
	e   *env
	gha *githubactions.Action
	cfg *config.Config
	ev  *event.Event
	api *githubapi.Client // nil without a token
	src source.Source
	// outDir is where the report and results go, relative to the
	// workspace (the working directory), so later steps find them.
	outDir string
	notes  []string
	// abCounted is how a same-runner A/B run counts, with the note that
	// says why (check resolves it first: a metric that cannot be had is
	// bad input, not the pull request's failure).
	abCounted *count.Settings
	abNote    string
	// accepts is what the pull request accepts, read once (accept).
	accepts prAccepts
	// abPart is the shard of a same-runner A/B comparison this job
	// counts (abShard; zero: the whole), abRun the comparison as run.
	abPart shard.Spec
	abRun  check.AB
}

// cmdAction runs wirebench as a GitHub Action: the inputs are read into
// the same config as the command line's flags, once, before anything
// else.
func cmdAction(ctx context.Context, e *env) error {
	gha := githubactions.New(githubactions.WithGetenv(e.getenv), githubactions.WithWriter(e.stdout))
	cfg, err := config.FromInputs(e.getenv)
	if err == nil {
		err = cfg.Validate(config.Action)
	}
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			gha.Errorf("%s", line)
		}
		return badInputf("bad action inputs (see the errors above)")
	}
	if cfg.Token != "" {
		gha.AddMask(cfg.Token)
	}
	ev, err := event.Read(e.getenv)
	if err != nil {
		return badInput{Err: err}
	}
	a := &actionRun{e: e, gha: gha, cfg: cfg, ev: ev, outDir: config.OutDir, src: actionSource(cfg, ev, e.getenv)}
	// Fail in a second, not after the measurement, if the workspace is
	// not writable (e.g. an image built with a USER line).
	if err := os.MkdirAll(a.outDir, 0o755); err != nil {
		return fmt.Errorf("cannot write results to the workspace (%v): the container must run as root, as Docker actions do", err)
	}
	if cfg.Token != "" && ev.Owner != "" {
		a.api, err = githubapi.New(githubapi.Options{BaseURL: e.getenv("GITHUB_API_URL"), Token: cfg.Token, CommentLogin: cfg.CommentAuthor})
		if err != nil {
			return badInput{Err: err}
		}
	}
	if cfg.Mode == "merge" {
		files, err := source.Shards{Paths: []string{cfg.MergePath}}.Files()
		if err == nil {
			if abShards, err := abShardFiles(files); err != nil {
				return badInput{Err: err}
			} else if abShards {
				gha.Infof("wirebench: mode merge: the shards of a same-runner A/B comparison (event %s)", orDash(ev.Name))
				return a.mergeAB(ctx, files)
			}
		}
	}
	mode := a.resolveMode()
	gha.Infof("wirebench: mode %s (event %s)", mode, orDash(ev.Name))
	switch mode {
	case "ab-shard":
		return a.abShard(ctx)
	case "check", "compare":
		return a.check(ctx)
	case "update":
		return a.update(ctx)
	case "comment":
		return a.comment(ctx)
	default:
		return a.run(ctx)
	}
}

// actionSource is where the action's benchmarks come from: the shards of
// a matrix (mode merge), the user's benchmark file, or the embedded suite.
func actionSource(c *config.Config, ev *event.Event, getenv func(string) string) source.Source {
	switch {
	case c.MergePath != "":
		return source.Shards{Paths: []string{c.MergePath}, Partial: c.MergePartial}
	case c.BenchmarkFile != "":
		return inputFile{source.File{Path: c.BenchmarkFile, Commit: ev.SHA, Ref: getenv("GITHUB_REF_NAME")}}
	case c.Bench != "":
		return source.GoTest{Packages: c.PackageList(), Bench: c.Bench, BuildFlags: c.BuildFlagList()}
	}
	return source.Embedded{}
}

// inputFile is the results file of input benchmark-file: its errors
// name the input, wherever it is read.
type inputFile struct{ source.File }

// Results reads the file.
func (f inputFile) Results(ctx context.Context, p source.Plan) (*results.Results, []string, error) {
	r, notes, err := f.File.Results(ctx, p)
	if err != nil {
		return nil, nil, fmt.Errorf("input benchmark-file: %w", err)
	}
	return r, notes, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// note adds a note to the report and to the log.
func (a *actionRun) note(format string, args ...any) {
	a.notes = append(a.notes, fmt.Sprintf(format, args...))
	a.gha.Noticef("%s", a.notes[len(a.notes)-1])
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
	if a.cfg.Shard != "" && a.ev.IsPullRequest() && strings.TrimSpace(a.cfg.BasePath) != "" {
		a.note("Shard %s of a same-runner A/B comparison: this job builds both trees and counts its part; the merge job judges, comments and fails or passes.", a.cfg.Shard)
		return "ab-shard"
	}
	if a.cfg.Shard != "" {
		a.note("Shard %s: this job only measures; the merge job compares, comments and refreshes the baseline.", a.cfg.Shard)
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
	a.note("Mode auto on a %s event runs the suite without comparing: checks run on pull requests and the baseline is refreshed on pushes to %s.", orDash(a.ev.Name), orDash(a.ev.DefaultBranch))
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

// store is where the baseline lives: the baseline branch through the API,
// or without a token the workspace file.
func (a *actionRun) store(message string) store.Store {
	if a.api == nil {
		return store.File{Path: a.cfg.BaselinePath, Suite: a.src.Suite(),
			Describe: a.cfg.BaselinePath + " in the workspace (no github-token: the pull request's own copy)"}
	}
	return store.GitHub{API: a.api, Owner: a.ev.Owner, Repo: a.ev.Repo, Path: a.cfg.BaselinePath, Branch: a.baselineBranch(),
		Suite: a.src.Suite(), Message: message}
}

// loadBaseline reads the baseline a pull request is judged against: from
// the baseline branch through the API, never from the pull request's own
// checkout (a pull request must not be able to weaken its own gate). Only
// without a token does it fall back to the workspace file, and says so.
func (a *actionRun) loadBaseline(ctx context.Context) (*baseline.Baseline, string, error) {
	st := a.store("")
	if gh, ok := st.(store.GitHub); ok {
		b, blob, err := gh.LoadBlob(ctx)
		if err != nil {
			return nil, st.Where(), err
		}
		return b, st.Where() + " at blob " + blob, nil
	}
	b, err := st.Load(ctx)
	if err != nil {
		return nil, st.Where(), badInput{Err: err}
	}
	if b != nil {
		a.gha.Warningf("no github-token: comparing with %s from the workspace, which a pull request can change", a.cfg.BaselinePath)
	}
	return b, st.Where(), nil
}

// candidate measures or reads the candidate of an update or a run (cmd),
// as the source says: against the stored reference ref (nil: none, as in
// update) with ref's budget and samples where the inputs give none. An
// update's count is timed beside (check.TimeBeside). A check measures
// its own (check.Stored).
func (a *actionRun) candidate(ctx context.Context, ref *results.Results, cmd config.Command) (*results.Results, error) {
	p, like := check.PlanLike(a.e, a.cfg, ref)
	p.Known = nil // only a check skips what its baseline measured
	_, measures := a.src.(source.Buildable)
	if measures {
		ct, note, err := check.Instrument(ctx, a.cfg, ref, cmd == config.Update)
		if err != nil {
			return nil, err
		}
		p.Count = ct
		if ct != nil {
			like = "" // the budget and samples time; a count takes neither
		}
		if note != "" {
			a.notes = append(a.notes, note)
		}
	}
	if measures && like != "" {
		a.notes = append(a.notes, like)
	}
	r, notes, err := check.Measure(ctx, a.src, p)
	if err != nil {
		return nil, err
	}
	a.notes = append(a.notes, notes...)
	if measures && a.ev.SHA != "" {
		r.Env.Commit = a.ev.SHA // the PR head, not the test merge commit
	}
	if measures && cmd == config.Update {
		if _, _, err := check.TimeBeside(ctx, a.e, a.cfg, a.src, p, ref, r, false); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// input is what every report of this run says about itself.
func (a *actionRun) input(src string) outcome.Report {
	return outcome.Report{BaselineSource: src, Title: "wirebench: " + a.src.Title(), FailOn: a.cfg.FailCondition(), Notes: a.notes, Details: a.runURL()}
}

func (a *actionRun) runURL() string {
	server, repo, id := a.e.getenv("GITHUB_SERVER_URL"), a.e.getenv("GITHUB_REPOSITORY"), a.e.getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// suite names the sticky comment's suite.
func (a *actionRun) suite() string { return a.src.Suite() + a.cfg.BenchmarkFile }

// delivery is the action's delivery.
func (a *actionRun) delivery() deliver.GitHub {
	return deliver.GitHub{
		GHA: a.gha, Event: a.ev, API: a.api, OutDir: a.outDir, Comment: a.cfg.Comment,
		Marker: commentMarker(a.suite()), Suite: a.suite(),
		Summary: a.e.getenv("GITHUB_STEP_SUMMARY") != "", Outputs: a.e.getenv("GITHUB_OUTPUT") != "",
		Log: a.e.stdout,
	}
}

// check judges a pull request: same-runner A/B when the base is checked
// out (check.AB, docs/ab-mode.md), otherwise against the stored
// baseline, which also supplies the history.
func (a *actionRun) check(ctx context.Context) error {
	base, src, err := a.loadBaseline(ctx)
	if err != nil {
		return err
	}
	var o *outcome.Outcome
	if a.ev.IsPullRequest() && strings.TrimSpace(a.cfg.BasePath) != "" {
		if a.abCounted, a.abNote, err = check.Instrument(ctx, a.cfg, nil, true); err != nil {
			return err
		}
	}
	abOut, why, failed := a.sameRunnerAB(ctx)
	if failed != nil {
		if ctx.Err() != nil {
			return failed
		}
		o = check.Broken(a.input("the base build at "+a.cfg.BasePath), "The pull request's build could not be measured", failed)
		a.gha.Errorf("the pull request's build could not be measured: %s", firstLine(failed.Error()))
	} else if abOut != nil {
		in := a.input("the base build at " + a.cfg.BasePath)
		var history []baseline.Entry
		if base != nil {
			history = base.History
		}
		o = check.Paired(abOut, history, in)
		a.accept(ctx, o)
	} else {
		o, err = check.Stored{Host: a.e, Config: a.cfg, Source: a.src, Base: base, Input: a.input(src),
			Dumps: filepath.Join(a.outDir, check.DumpsSubdir), Commit: a.ev.SHA, Accept: a.accept,
			Broken: "The pull request's benchmarks could not be measured"}.Run(ctx)
		if err != nil {
			return err
		}
		switch {
		case o.Broken != "":
			a.gha.Errorf("the pull request's benchmarks could not be measured: %s", firstLine(o.Cause.Error()))
		case o.Verdict == outcome.NoBaseline:
			if why != "" {
				o.Report.Notes = append(o.Report.Notes, "Stored-baseline comparison: "+why+".")
			}
			o.Report.Notes = append(o.Report.Notes, fmt.Sprintf("No baseline yet (%s): this run passes and is not compared. A push to %s with mode auto creates the baseline.", src, a.baselineBranch()))
		default:
			o.Report.Result.Why = why // same-runner A/B: why the stored baseline was used
		}
	}
	if err := a.delivery().Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}

// update measures and stores the new baseline on the baseline branch
// through the Contents API, merging with whatever another run wrote
// meanwhile. Without a token it writes the workspace file.
func (a *actionRun) update(ctx context.Context) error {
	cand, err := a.candidate(ctx, nil, config.Update)
	if err != nil {
		return err
	}
	st := a.store(fmt.Sprintf("wirebench: update baseline for %s [skip ci]", store.ShortSHA(cand.Env.Commit)))
	accepted, prs, notes := a.mergedAcceptances(ctx)
	a.notes = append(a.notes, notes...)
	for _, acc := range accepted {
		a.notes = append(a.notes, "Recorded in the history with this run, as accepted by the merged pull request: "+acc.String()+".")
	}
	u := check.UpdateOptions{RunID: runIdentity(a.e.getenv), History: a.cfg.History, Accepted: accepted, PullRequests: prs,
		Alpha: a.cfg.Alpha, FailOnChangePoint: a.cfg.FailOnChangePoint}
	creepOptions(a.cfg, &u, a.apiRelease)
	o, err := check.Update(ctx, st, cand, u, a.input(st.Where()))
	if err != nil {
		if a.api == nil {
			return badInput{Err: err}
		}
		return err
	}
	if a.api == nil {
		o.Updated = a.cfg.BaselinePath + " in the workspace (no github-token: commit it yourself)"
		a.gha.Warningf("no github-token: wrote %s in the workspace only", a.cfg.BaselinePath)
	}
	if err := a.delivery().Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}

// run only measures and reports.
func (a *actionRun) run(ctx context.Context) error {
	var ref *results.Results
	if a.cfg.Shard != "" {
		// Every shard reads the same baseline, so all compute the same
		// cost-balanced partition.
		b, _, err := a.loadBaseline(ctx)
		if err != nil {
			a.gha.Warningf("shards are balanced by name only: %v", err)
		} else if b != nil {
			ref = b.Reference
		}
	}
	cand, err := a.candidate(ctx, ref, config.Run)
	if err != nil {
		return err
	}
	return a.delivery().Deliver(ctx, check.Run(cand, a.input("")))
}

// sameRunnerAB runs the same-runner A/B comparison for the action's check
// on a pull request, when the workflow checked the base commit out at the
// input base-path (docs/ab-mode.md). It returns nil and the reason when the
// check falls back to the stored baseline: no base checkout, trees that
// are not of the selected benchmarks, a base that cannot be built or run
// (older than the A/B protocol, say): none of them the pull request's
// doing. Whatever the head causes (it does not build, its worker crashes,
// hangs or breaks the protocol, its go.mod wants a toolchain that cannot
// be had) is returned as failed: the check fails closed, never passes on
// code it could not measure.
func (a *actionRun) sameRunnerAB(ctx context.Context) (o *ab.Outcome, why string, failed error) {
	basePath := strings.TrimSpace(a.cfg.BasePath)
	buildable, ok := a.src.(source.Buildable)
	switch {
	case !a.ev.IsPullRequest():
		return nil, "", nil
	case a.cfg.BenchmarkFile != "":
		return nil, "input benchmark-file compares your own `go test -bench` output with the stored baseline", nil
	case basePath == "":
		return nil, "no checkout of the base commit (input base-path is empty; see docs/ab-mode.md for the second actions/checkout)", nil
	case !ok:
		return nil, "the benchmarks of " + a.src.Title() + " cannot be built from a checkout", nil
	}
	sb, err := newSandbox()
	if err != nil {
		return nil, "", err
	}
	defer sb.Close()
	if !sb.Active {
		a.notes = append(a.notes, "The pull request's code was not sandboxed: "+sb.Why+".")
	}
	p := check.Plan(a.e, a.cfg, true)
	p.Sandbox, p.Count = sb, a.abCounted
	target := buildable.Target(p)
	if err := target.CheckTree(basePath); err != nil {
		return nil, fmt.Sprintf("input base-path %s: %v", basePath, err), nil
	}
	if err := target.CheckTree("."); err != nil {
		return nil, fmt.Sprintf("the workspace: %v", err), nil
	}
	r := check.AB{Target: target, Base: basePath, Head: ".", Filter: a.cfg.Filter, AA: true, Pin: a.cfg.Pin, MeasureAll: a.cfg.MeasureAll, Sandbox: sb,
		HeadCommit: a.ev.SHA, BaseCommit: a.ev.PR.BaseSHA,
		Options: ab.Options{Budget: a.cfg.MeasureBudget(true), Compare: a.cfg.CompareOptions(true), Progress: a.e.stderr,
			Why: fmt.Sprintf("pull request with a checkout of its base commit at %s (input base-path)", basePath)},
	}
	if a.cfg.Bench != "" {
		r.Filter = a.cfg.Bench
	}
	r.WithCount(a.cfg, a.abCounted)
	r.Shard = a.abPart
	a.abRun = r
	r.Dumps = filepath.Join(a.outDir, check.DumpsSubdir)
	if a.abNote != "" {
		a.notes = append(a.notes, a.abNote)
	}
	a.gha.Infof("wirebench: same-runner A/B: base %s (%s) against the workspace (%s), budget %s", basePath, store.ShortSHA(r.BaseCommit), store.ShortSHA(r.HeadCommit), r.Options.Budget)
	o, err = r.Run(ctx, a.e.stderr)
	switch {
	case err == nil:
		return o, "", nil
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case program.Side(err) == "base" && !a.abPart.Whole():
		return nil, "", fmt.Errorf("shard %s: the base could not be built or run for the same-runner A/B comparison, and a shard cannot fall back to the stored baseline: %w", a.abPart, err)
	case program.Side(err) == "base":
		a.gha.Warningf("same-runner A/B comparison not possible, falling back to the stored baseline: %v", err)
		return nil, "the base could not be built or run for the same-runner A/B comparison: " + firstLine(err.Error()), nil
	}
	return nil, "", err
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// abShardFile is where a shard of a same-runner A/B comparison writes
// its part, in the output directory: the file the workflow uploads as
// the shard's artifact.
const abShardFile = "ab-shard.json"

// abShard is one job of a matrix splitting the same-runner A/B
// comparison of a pull request (input shard with input base-path): it
// builds both trees, counts its part of the benchmarks and writes it to
// abShardFile for the merge job (mergeAB). It judges nothing and
// comments nothing. Only a count is split (input metric instructions or
// cycles); a base that cannot be built fails the job rather than fall
// back to the stored baseline, which a shard cannot do for the others.
func (a *actionRun) abShard(ctx context.Context) error {
	spec, err := shard.Parse(a.cfg.Shard)
	if err != nil {
		return badInput{Err: fmt.Errorf("input shard: %w", err)}
	}
	if a.cfg.Metric != config.MetricInstructions && a.cfg.Metric != config.MetricCycles {
		return badInputf("input shard with input base-path splits a same-runner A/B comparison, which only a count can be: set input metric to instructions or cycles for the whole matrix (docs/shards.md)")
	}
	if a.abCounted, a.abNote, err = check.Instrument(ctx, a.cfg, nil, true); err != nil {
		return err
	}
	a.abPart = spec
	o, why, failed := a.sameRunnerAB(ctx)
	switch {
	case failed != nil:
		return failed
	case o == nil:
		return badInputf("shard %s: no same-runner A/B comparison: %s", spec, why)
	}
	path := filepath.Join(a.outDir, abShardFile)
	if err := writeABShard(a.e, check.ABShard(o, a.abRun), path); err != nil {
		return err
	}
	a.gha.Noticef("wirebench: shard %s counted; its part is in %s for the merge job (mode merge)", spec, path)
	return nil
}

// mergeAB is the merge job of a matrix that split a same-runner A/B
// comparison (mode merge over ab-shard files): it judges the shards as
// one comparison (check.MergeAB) and reports, comments and gates as the
// unsharded check of the pull request would.
func (a *actionRun) mergeAB(ctx context.Context, files []string) error {
	if a.cfg.Bench != "" {
		a.src = source.GoTest{Packages: a.cfg.PackageList(), Bench: a.cfg.Bench, BuildFlags: a.cfg.BuildFlagList()}
	} else {
		a.src = source.Embedded{}
	}
	head, base := "", ""
	if a.ev.IsPullRequest() {
		head, base = a.ev.SHA, a.ev.PR.BaseSHA
	}
	o, notes, err := mergeAB(a.cfg, files, base, head)
	if err != nil {
		return badInput{Err: err}
	}
	a.notes = append(a.notes, notes...)
	var history []baseline.Entry
	if base, _, err := a.loadBaseline(ctx); err == nil && base != nil {
		history = base.History
	}
	out := check.Paired(o, history, a.input("the base build (same-runner A/B, merged shards)"))
	a.accept(ctx, out)
	if err := a.delivery().Deliver(ctx, out); err != nil {
		return err
	}
	return gate(out.Failed())
}
