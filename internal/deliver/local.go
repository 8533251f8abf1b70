package deliver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/plot"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/updatereport"
)

// HistoryDir is where an update writes the PNG charts of every
// benchmark's history, under the results directory.
const HistoryDir = "history"

// SummaryMaxChars bounds the job summary and the report file: GitHub
// accepts 1 MiB of summary per step. The comment has its own, smaller
// bound (report.DefaultMaxChars).
const SummaryMaxChars = 900_000

// Local delivers to files and the terminal: the command line.
type Local struct {
	Stdout, Stderr io.Writer
	// ResultsPath and ReportPath are where the results JSON and the
	// Markdown report go; "" writes none.
	ResultsPath, ReportPath string
	// Format is what stdout gets: text (a table of a run, a comparison
	// like benchstat), markdown, json or bench (the Go benchmark format of
	// a run).
	Format string
	// Plots, when set, is a directory for the run's PNG charts.
	Plots string
	// FirstRun is the line printed when there is no baseline yet.
	FirstRun string
	// Own is the directory of wirebench's own output (the command line's
	// wirebench-results): a file written into it brings a .gitignore that
	// ignores all of it, so a check in a repository leaves git status as
	// it found it. "" for none.
	Own string
}

// gitignore is what Own's .gitignore says.
const gitignore = "# Written by wirebench: its results and reports, which are not to be committed.\n*\n"

// own gives Own its .gitignore when path is in it and it has none; a
// .gitignore already there is left alone.
func (l Local) own(path string) error {
	if l.Own == "" || filepath.Clean(filepath.Dir(path)) != filepath.Clean(l.Own) {
		return nil
	}
	ignore := filepath.Join(l.Own, ".gitignore")
	if _, err := os.Lstat(ignore); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := results.WriteFileAtomic(ignore, []byte(gitignore)); err != nil {
		return fmt.Errorf("keep %s out of git: %w", l.Own, err)
	}
	return nil
}

// Deliver writes o.
func (l Local) Deliver(ctx context.Context, o *outcome.Outcome) error {
	in := o.Report
	if err := l.writeResults(in.Candidate); err != nil {
		return err
	}
	if err := l.writePlots(in.Candidate); err != nil {
		return err
	}
	switch {
	case o.Broken != "":
		return l.deliverBroken(o)
	case o.Verdict == outcome.Measured:
		return writeRun(l.Stdout, in.Candidate, l.Format)
	case o.Verdict == outcome.Updated:
		if _, err := fmt.Fprintf(l.Stdout, "baseline %s updated: %s, %s in its history\n", o.Updated,
			human.Plural(len(in.Candidate.Benchmarks), "benchmark", "benchmarks"), human.Plural(len(o.Stored.History), "run", "runs")); err != nil {
			return err
		}
		return l.writeChangePoints(in.ChangePoints, o.Stored.History)
	case o.Verdict == outcome.NoBaseline:
		if err := l.writeReport(in); err != nil {
			return err
		}
		fmt.Fprintln(l.Stdout, l.FirstRun)
		return report.RunTable(l.Stdout, in.Candidate)
	}
	if err := l.writeReport(in); err != nil {
		return err
	}
	if err := writeComparison(l.Stdout, l.Format, in); err != nil {
		return err
	}
	if o.Failed() {
		failing, regs := len(in.Result.Failing()), in.Result.Count(compare.Regression)
		line := fmt.Sprintf("wirebench: the gate failed: %s against %s", human.Plural(failing, "regression", "regressions"), in.BaselineSource)
		if regs > failing {
			line += fmt.Sprintf(" (%s more reported, not enforced)", human.Count(regs-failing))
		}
		fmt.Fprintln(l.Stderr, line)
	}
	return nil
}

// writeChangePoints prints the change points and the creeps an update is
// the first to see, and draws every benchmark's history when Plots is
// set.
func (l Local) writeChangePoints(a *history.Analysis, h []baseline.Entry) error {
	if a == nil {
		return nil
	}
	for _, p := range a.NewPoints() {
		fmt.Fprintf(l.Stdout, "new change point: %s\n", updatereport.ChangePointLine(p))
	}
	if a.Creep != nil {
		for _, c := range a.Creep.Found {
			if c.New {
				fmt.Fprintf(l.Stdout, "new creep: %s\n", updatereport.CreepLine(c, a, h))
			}
		}
	}
	if l.Plots == "" {
		return nil
	}
	files, err := plot.WriteHistory(filepath.Join(l.Plots, HistoryDir), a)
	if err != nil {
		return fmt.Errorf("draw the history charts: %w", err)
	}
	fmt.Fprintf(l.Stderr, "wirebench: %d history charts written to %s\n", len(files), filepath.Join(l.Plots, HistoryDir))
	return nil
}

// deliverBroken writes the outcome of a check whose code could not be
// measured: the report, and on stdout what failed and why, once.
func (l Local) deliverBroken(o *outcome.Outcome) error {
	if l.ReportPath != "" {
		md := report.BrokenMarkdown(o.Report.Title, o.Broken, o.Cause, o.Report.Notes)
		if err := writeMarkdown(l.ReportPath, md); err != nil {
			return err
		}
		if err := l.own(l.ReportPath); err != nil {
			return err
		}
		fmt.Fprintf(l.Stderr, "wirebench: report written to %s\n", l.ReportPath)
	}
	verdict := "the gate failed"
	if !o.Failed() {
		verdict = "not failed (fail-on never)"
	}
	if l.Format == "json" {
		line, _, _ := strings.Cut(o.Cause.Error(), "\n")
		fmt.Fprintf(l.Stderr, "wirebench: %s: nothing was compared, %s: %s\n", o.Broken, verdict, line)
		return report.BrokenJSON(l.Stdout, o.Broken, o.Cause, o.Report.FailOn)
	}
	_, err := fmt.Fprintf(l.Stdout, "%s: nothing was compared, %s\n%v\n", o.Broken, verdict, o.Cause)
	return err
}

func (l Local) writeResults(r *results.Results) error {
	if l.ResultsPath == "" || r == nil {
		return nil
	}
	if err := r.WriteFile(l.ResultsPath); err != nil {
		return err
	}
	if err := l.own(l.ResultsPath); err != nil {
		return err
	}
	fmt.Fprintf(l.Stderr, "wirebench: results written to %s\n", l.ResultsPath)
	return nil
}

func (l Local) writePlots(r *results.Results) error {
	if l.Plots == "" || r == nil {
		return nil
	}
	files, err := plot.Write(l.Plots, r)
	if err != nil {
		return fmt.Errorf("draw plots: %w", err)
	}
	fmt.Fprintf(l.Stderr, "wirebench: %d plots written to %s\n", len(files), l.Plots)
	return nil
}

func (l Local) writeReport(in outcome.Report) error {
	if l.ReportPath == "" {
		return nil
	}
	if err := writeMarkdown(l.ReportPath, report.Markdown(in, report.Options{MaxChars: SummaryMaxChars})); err != nil {
		return err
	}
	if err := l.own(l.ReportPath); err != nil {
		return err
	}
	fmt.Fprintf(l.Stderr, "wirebench: report written to %s\n", l.ReportPath)
	return nil
}

func writeMarkdown(path, md string) error {
	if err := results.WriteFileAtomic(path, []byte(md)); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// writeRun writes a run's results in format.
func writeRun(w io.Writer, r *results.Results, format string) error {
	switch format {
	case "bench":
		return r.WriteBench(w)
	case "json":
		return r.Encode(w)
	}
	return report.RunTable(w, r)
}

// writeComparison writes a comparison in format.
func writeComparison(w io.Writer, format string, in outcome.Report) error {
	switch format {
	case "markdown":
		_, err := io.WriteString(w, report.Markdown(in, report.Options{}))
		return err
	case "json":
		return report.JSON(w, in.Result, in.FailOn)
	}
	return report.Text(w, in.Result)
}
