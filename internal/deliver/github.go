package deliver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/githubapi"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/logsafe"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/plot"
	"github.com/wirebench/wirebench/internal/relay"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/updatereport"
)

// GitHub delivers a run of the action: the results and the report in the
// workspace (where later steps and artifacts find them), the report in the
// job summary and, on pull requests, as one sticky comment, the step's
// outputs, an annotation per regression, and the comparison on stdout for
// the log.
type GitHub struct {
	GHA   *githubactions.Action
	Event *event.Event
	// API is nil without a token: then nothing is commented.
	API *githubapi.Client
	// OutDir is where results.json and report.md go, relative to the
	// workspace.
	OutDir string
	// Comment is the comment input: always, on-change or never.
	Comment string
	// Marker identifies this suite's sticky comment, of suite Suite.
	Marker, Suite string
	// Summary is set when the runner gives a job summary file.
	Summary bool
	// Outputs is set when the runner gives an outputs file.
	Outputs bool
	// Log receives what the step prints (the comparison or the run's
	// table): the job log. Deliver writes it through logsafe, since
	// benchmark names may come from a pull request.
	Log interface{ Write([]byte) (int, error) }
}

// Deliver writes o.
func (g GitHub) Deliver(ctx context.Context, o *outcome.Outcome) error {
	log := logsafe.NewWriter(g.Log, "")
	defer log.Flush()
	g.Log = log
	in := o.Report
	resultsPath, reportPath := filepath.Join(g.OutDir, "results.json"), filepath.Join(g.OutDir, "report.md")
	if err := in.Candidate.WriteFile(resultsPath); err != nil {
		return err
	}
	var md string
	switch {
	case o.Broken != "":
		md = report.BrokenMarkdown(in.Title, o.Broken, o.Cause, in.Notes)
		g.commentText(ctx, md, o)
	case o.Verdict == outcome.Measured:
		md = report.RunMarkdown(in.Title, in.Notes, in.Candidate)
		if err := report.RunTable(g.Log, in.Candidate); err != nil {
			return err
		}
	case o.Verdict == outcome.Updated:
		line := fmt.Sprintf("Baseline updated: %s, %d benchmarks, %s in its history.", o.Updated, len(in.Candidate.Benchmarks), human.Plural(len(o.Stored.History), "run", "runs"))
		g.info("wirebench: %s", line)
		if a := in.ChangePoints; a != nil {
			dir := filepath.Join(g.OutDir, HistoryDir)
			files, err := plot.WriteHistory(dir, a)
			if err != nil {
				return fmt.Errorf("draw the history charts: %w", err)
			}
			if len(files) > 0 {
				line += fmt.Sprintf(" Charts of every benchmark's history: %s in %s.", human.Plural(len(files), "PNG", "PNGs"), dir)
			}
			g.annotateChangePoints(a, o.FailsOnChangePoint)
			g.annotateCreep(a, o.Stored.History, o.FailsOnCreep)
		}
		md = updatereport.Markdown(updatereport.Update{Line: line, Notes: in.Notes, MarkdownNotes: in.MarkdownNotes,
			Candidate: in.Candidate, History: in.History, Analysis: in.ChangePoints})
	default:
		// The comment is bounded below GitHub's 65,536-character limit;
		// the job summary (1 MiB a step) and the report file get
		// everything.
		md = report.Markdown(in, report.Options{MaxChars: SummaryMaxChars})
		g.commentText(ctx, report.Markdown(in, report.Options{}), o)
	}
	if err := writeMarkdown(reportPath, md); err != nil {
		return err
	}
	if err := g.writeRelay(o); err != nil {
		return err
	}
	if g.Summary {
		g.GHA.AddStepSummary(md)
	}
	g.outputs(o, reportPath, resultsPath)
	if res := in.Result; res != nil {
		g.annotate(res, in.FailOn)
		return report.Text(g.Log, res)
	}
	return nil
}

// writeRelay writes, on a pull request, the relay a workflow_run job
// comments from when this run's token cannot (a fork's): the comparison
// as its JSON report, or what could not be measured. Nothing is written
// when nothing was compared (no baseline yet).
func (g GitHub) writeRelay(o *outcome.Outcome) error {
	if !g.Event.IsPullRequest() {
		return nil
	}
	pr := relay.PullRequest{Number: g.Event.PR.Number, HeadSHA: g.Event.PR.HeadSHA, HeadRepo: g.Event.PR.HeadRepo}
	switch {
	case o.Broken != "":
		cause := o.Cause.Error()
		if len(cause) > relay.MaxBroken {
			cause = cause[:relay.MaxBroken]
		}
		return relay.Write(g.OutDir, pr, g.Suite, o.Report.Title, nil, &relay.Broken{What: o.Broken, Error: strings.ToValidUTF8(cause, "?")})
	case o.Report.Result != nil:
		var b bytes.Buffer
		if err := report.JSON(&b, o.Report.Result, o.Report.FailOn); err != nil {
			return err
		}
		return relay.Write(g.OutDir, pr, g.Suite, o.Report.Title, b.Bytes(), nil)
	}
	return nil
}

// Relayed posts the sticky comment that the workflow_run job of a fork's
// pull request renders from its relay, and writes it to the job summary.
// Unlike a check's comment, a failure to post fails the job: posting is
// all that job does.
func (g GitHub) Relayed(ctx context.Context, number int, md string, changed bool) error {
	if g.Summary {
		g.GHA.AddStepSummary(md)
	}
	if g.Comment == "never" {
		g.info("wirebench: input comment is never: the comment for #%d is in the job summary only", number)
		return nil
	}
	c, err := g.post(ctx, number, md, changed)
	switch {
	case err != nil && errors.Is(err, githubapi.ErrForbidden):
		return fmt.Errorf("comment on #%d: %w (the workflow_run job needs permissions: pull-requests: write)", number, err)
	case err != nil:
		return fmt.Errorf("comment on #%d: %w", number, err)
	case c.ID != 0:
		g.info("wirebench: report at %s", c.URL)
	}
	return nil
}

// post writes md as the sticky comment of pull request number, behind the
// marker: created or updated, or with comment on-change and nothing
// changed only updated when there is one.
func (g GitHub) post(ctx context.Context, number int, md string, changed bool) (githubapi.Comment, error) {
	owner, repo, body := g.Event.Owner, g.Event.Repo, g.Marker+"\n"+md
	if g.Comment == "on-change" && !changed {
		return g.API.UpdateComment(ctx, owner, repo, number, g.Marker, body)
	}
	return g.API.UpsertComment(ctx, owner, repo, number, g.Marker, body)
}

// comment posts or refreshes the sticky comment as the comment input says.
// A failure is a warning, never a failed check: on pull requests from forks
// the token is read-only, and the report is in the job summary anyway.
func (g GitHub) commentText(ctx context.Context, md string, o *outcome.Outcome) {
	if !g.Event.IsPullRequest() || g.Comment == "never" {
		return
	}
	if g.API == nil {
		g.GHA.Warningf("no github-token: the report is in the job summary only")
		return
	}
	regs, imps := o.Counts()
	c, err := g.post(ctx, g.Event.PR.Number, md, regs+imps > 0 || o.Broken != "")
	switch {
	case err != nil && errors.Is(err, githubapi.ErrForbidden) && g.Event.PR.Fork:
		g.GHA.Warningf("cannot comment on a pull request from a fork (the token is read-only); the report is in the job summary. See the README, 'Fork pull requests', for the safe two-workflow pattern.")
	case err != nil:
		g.GHA.Warningf("could not post the PR comment; the report is in the job summary: %v", err)
	case c.ID != 0:
		g.info("wirebench: report at %s", c.URL)
	}
}

// info writes a plain line to the log, neutralised by logsafe: its
// arguments (a path, a URL, a benchmark name) must not start a workflow
// command on a line of their own.
func (g GitHub) info(format string, args ...any) {
	g.GHA.Infof("%s", logsafe.Text(fmt.Sprintf(format, args...)))
}

// outputs sets the step's outputs, the one place they are set.
func (g GitHub) outputs(o *outcome.Outcome, reportPath, resultsPath string) {
	if !g.Outputs {
		return
	}
	regs, imps := o.Counts()
	g.GHA.SetOutput("verdict", string(o.Verdict))
	g.GHA.SetOutput("regressions", strconv.Itoa(regs))
	g.GHA.SetOutput("improvements", strconv.Itoa(imps))
	g.GHA.SetOutput("report-path", reportPath)
	g.GHA.SetOutput("results-path", resultsPath)
}

// maxAnnotations is how many annotations GitHub shows per step.
const maxAnnotations = 10

// annotateChangePoints marks each change point this push is the first to
// see: a warning when nothing explains it (an error when the update
// fails on one), a notice when an acceptance or a change of the
// environment does.
func (g GitHub) annotateChangePoints(a *history.Analysis, fails bool) {
	for i, p := range a.NewPoints() {
		if i == maxAnnotations {
			g.GHA.Warningf("… and %d more new change points: see the job summary", len(a.NewPoints())-maxAnnotations)
			break
		}
		msg := logsafe.Text(updatereport.ChangePointLine(p))
		switch {
		case p.Explained():
			g.GHA.WithFieldsMap(map[string]string{"title": "wirebench change point (explained)"}).Noticef("%s", msg)
		case fails:
			g.GHA.WithFieldsMap(map[string]string{"title": "wirebench change point"}).Errorf("%s", msg)
		default:
			g.GHA.WithFieldsMap(map[string]string{"title": "wirebench change point"}).Warningf("%s", msg)
		}
	}
}

// annotateCreep marks each creep this push is the first to see: a
// warning when it is upward (an error when the update fails on it), a
// notice when it is an improvement.
func (g GitHub) annotateCreep(a *history.Analysis, h []baseline.Entry, fails bool) {
	if a.Creep == nil {
		return
	}
	n := 0
	for _, c := range a.Creep.Found {
		if !c.New {
			continue
		}
		if n == maxAnnotations {
			g.GHA.Warningf("… and more new creeps: see the job summary")
			break
		}
		n++
		msg := logsafe.Text(updatereport.CreepLine(c, a, h))
		fields := g.GHA.WithFieldsMap(map[string]string{"title": "wirebench creep"})
		switch {
		case c.Change < 0:
			fields.Noticef("%s", msg)
		case fails:
			fields.Errorf("%s", msg)
		default:
			fields.Warningf("%s", msg)
		}
	}
}

// annotate marks each regression with an error annotation, the largest
// first; regressions that do not fail the run are warnings.
func (g GitHub) annotate(res *compare.Result, failOn compare.FailOn) {
	regs := res.Regressions()
	compare.Sort(regs)
	for i, c := range regs {
		if i == maxAnnotations {
			g.GHA.Errorf("… and %d more regressions: see the job summary", len(regs)-maxAnnotations)
			break
		}
		annotate := g.GHA.WithFieldsMap(map[string]string{"title": "wirebench regression"}).Errorf
		why := ""
		switch {
		case c.Accepted != nil:
			annotate = g.GHA.WithFieldsMap(map[string]string{"title": "wirebench regression (accepted)"}).Warningf
			why = "; accepted: " + c.Accepted.String()
		case failOn == compare.FailOnNever || !res.Fails(c):
			annotate = g.GHA.WithFieldsMap(map[string]string{"title": "wirebench regression (not enforced)"}).Warningf
		}
		// go-githubactions escapes the message's line breaks; logsafe
		// also breaks an old-style "##[" command a name (or a reason of
		// the pull request's) may hold.
		annotate("%s", logsafe.Text(fmt.Sprintf("%s %s: %s → %s (%+.1f%%)%s",
			c.Name, c.Unit, report.FormatValue(c.Baseline.Median, c.Unit), report.FormatValue(c.Candidate.Median, c.Unit), 100*c.Change(), why)))
	}
}
