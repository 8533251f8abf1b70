package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/source"
	"github.com/wirebench/wirebench/internal/store"
)

// cmdCheck measures, compares with the baseline file and reports. The
// baseline is read before measuring, so a corrupt file fails in a second,
// not after a minute of benchmarks.
func cmdCheck(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Check, args)
	if err != nil {
		return err
	}
	src := commandSource(c, e)
	st, base, err := loadFile(ctx, c, src)
	if err != nil {
		return err
	}
	in := outcome.Report{BaselineSource: st.Where(), Title: "wirebench: " + src.Title(), FailOn: c.FailCondition()}
	o, err := check.Stored{Host: e, Config: c, Source: src, Base: base, Input: in, Dumps: check.DumpsDir(c.Out)}.Run(ctx)
	if err != nil {
		return err
	}
	if o.Broken != "" {
		return deliverBroken(ctx, e, c, o)
	}
	update := updateCommand(c)
	if o.Verdict == outcome.NoBaseline {
		o.Report.Notes = append(o.Report.Notes, fmt.Sprintf("No baseline at %s yet: nothing to compare with, so the check passes. `%s` on the default branch creates it.", c.BaselinePath, update))
	}
	d := local(e)
	d.ResultsPath, d.ReportPath, d.Format = c.Out, c.Report, c.Format
	d.FirstRun = fmt.Sprintf("no baseline yet at %s: the check passes; `%s` creates one", c.BaselinePath, update)
	if err := d.Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}

// loadFile reads the baseline file c names for src's suite; one that
// cannot be read is bad input (an update never overwrites it: its history
// would be lost).
func loadFile(ctx context.Context, c *config.Config, src source.Source) (store.File, *baseline.Baseline, error) {
	st := store.File{Path: c.BaselinePath, Suite: src.Suite()}
	base, err := st.Load(ctx)
	if err != nil {
		return st, nil, badInput{Err: err}
	}
	return st, base, nil
}

// deliverBroken writes the report of a check whose code could not be
// measured (check.Broken) where c says, and fails the gate unless
// fail-on says never.
func deliverBroken(ctx context.Context, e *env, c *config.Config, o *outcome.Outcome) error {
	d := local(e)
	d.ReportPath = c.Report
	if err := d.Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}

// updateCommand is the update that makes the baseline check c compares
// with: the same benchmarks, baseline file and measurement settings.
func updateCommand(c *config.Config) string {
	cmd := []string{config.Program, string(config.Update)}
	add := func(flag, value, unless string) {
		if value != unless {
			cmd = append(cmd, "--"+flag, shellQuote(value))
		}
	}
	add("bench", c.Bench, "")
	add("packages", c.Packages, "./...")
	add("build-flags", c.BuildFlags, "")
	add("filter", c.Filter, "")
	add("baseline", c.BaselinePath, baseline.DefaultPath)
	add("metric", c.Metric, config.MetricAuto)
	if c.Processes > 0 {
		add("processes", strconv.Itoa(c.Processes), "")
	}
	if c.Budget > 0 {
		add("budget", c.Budget.String(), "")
	}
	if c.Samples > 0 {
		add("samples", strconv.Itoa(c.Samples), "")
	}
	return strings.Join(cmd, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '.' || r == '/' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// cmdUpdate measures and stores the run as the new reference, adding it to
// the history. An unreadable existing baseline is an error, never
// overwritten: its history would be lost.
func cmdUpdate(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Update, args)
	if err != nil {
		return err
	}
	src := commandSource(c, e)
	st, _, err := loadFile(ctx, c, src)
	if err != nil {
		return err
	}
	if c.Filter != "" {
		fmt.Fprintf(e.stderr, "wirebench: warning: --filter %q stores a partial reference; checks will list the other benchmarks as new\n", c.Filter)
	}
	p := check.Plan(e, c, false)
	ct, note, err := check.Instrument(ctx, c, nil, true)
	if err != nil {
		return err
	}
	p.Count = ct
	cand, notes, err := check.Measure(ctx, src, p)
	if err != nil {
		return err
	}
	if _, _, err := check.TimeBeside(ctx, e, c, src, p, nil, cand, false); err != nil {
		return err
	}
	notes = check.WithNote(notes, note)
	u := check.UpdateOptions{RunID: runIdentity(e.getenv), History: c.History, Alpha: c.Alpha, FailOnChangePoint: c.FailOnChangePoint}
	creepOptions(c, &u, gitRelease("."))
	o, err := check.Update(ctx, st, cand, u, outcome.Report{Title: "wirebench: " + src.Title(), Notes: notes})
	if err != nil {
		return badInput{Err: err}
	}
	d := local(e)
	d.ResultsPath, d.Plots = c.Out, c.Plots
	if err := d.Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}

// runIdentity names the run for history entries: the CI run and attempt
// when known, otherwise this process's moment, so that two local updates
// in one second are two runs (a baseline keeps a run once, by its
// identity, so that a write retried after a lost answer adds nothing).
func runIdentity(getenv func(string) string) string {
	id := getenv("GITHUB_RUN_ID")
	if id == "" {
		return "local-" + time.Now().UTC().Format("20060102T150405.000000000")
	}
	if a := getenv("GITHUB_RUN_ATTEMPT"); a != "" {
		id += "." + a
	}
	return id
}
