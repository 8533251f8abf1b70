package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/source"
)

// cmdMerge merges the results of a job matrix's shards and, when a
// baseline exists, compares and reports like check.
func cmdMerge(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Merge, args)
	if err != nil {
		return err
	}
	src := source.Shards{Paths: c.Args, Partial: c.MergePartial}
	merged, notes, err := check.Measure(ctx, src, source.Plan{})
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, "wirebench: "+strings.Join(notes, " "))
	st, base, err := loadFile(ctx, c, src)
	if err != nil {
		return err
	}
	in := report.Input{BaselineSource: st.Where(), Title: "wirebench: " + src.Title(), FailOn: c.FailCondition(), Notes: notes}
	o, err := check.Against(base, merged, c.CompareOptions(false), in)
	if err != nil {
		return badInput{Err: err}
	}
	d := local(e)
	d.ResultsPath, d.ReportPath = c.Out, c.Report
	d.FirstRun = fmt.Sprintf("no baseline at %s: the merged results are not compared", c.BaselinePath)
	if err := d.Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}
