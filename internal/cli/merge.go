package cli

import (
	"context"
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/bounded"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
	"github.com/wirebench/wirebench/internal/source"
)

// cmdMerge merges the results of a job matrix's shards and, when a
// baseline exists, compares and reports like check; the shards of a
// same-runner A/B comparison (ab --shard) are judged as one comparison
// and reported like ab.
func cmdMerge(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Merge, args)
	if err != nil {
		return err
	}
	src := source.Shards{Paths: c.Args, Partial: c.MergePartial}
	if files, err := src.Files(); err == nil {
		if ab, err := abShardFiles(files); err != nil {
			return badInput{Err: err}
		} else if ab {
			return mergeABCommand(ctx, e, c, files)
		}
	}
	merged, notes, err := check.Measure(ctx, src, source.Plan{})
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, "wirebench: "+strings.Join(notes, " "))
	st, base, err := loadFile(ctx, c, src)
	if err != nil {
		return err
	}
	in := outcome.Report{BaselineSource: st.Where(), Title: "wirebench: " + src.Title(), FailOn: c.FailCondition(), Notes: notes}
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

// abShardFiles reports whether files are the shards of a same-runner A/B
// comparison (ab --shard), and refuses a mix of those and of runs'
// results.
func abShardFiles(files []string) (bool, error) {
	var abs, runs []string
	for _, f := range files {
		data, err := bounded.ReadFile(f, results.MaxFileBytes)
		if err != nil {
			return false, fmt.Errorf("merge: %w", err)
		}
		if shard.IsABPart(data) {
			abs = append(abs, f)
		} else {
			runs = append(runs, f)
		}
	}
	if len(abs) > 0 && len(runs) > 0 {
		return false, fmt.Errorf("merge: %s is an A/B shard's file (ab --shard) but %s is not: merge the files of one matrix at a time", abs[0], runs[0])
	}
	return len(abs) > 0, nil
}

// mergeAB reads the shard files of a same-runner A/B comparison, joins
// them (shard.JoinAB: one comparison, every benchmark once) and judges
// the union as one run (check.MergeAB) with c's options: the merge's own,
// not what a shard's file might claim.
//
// base and head, when not "", are the commits the shards must have built
// (the action's event names them): a shard's file of other commits is
// refused, and shards that recorded none are noted.
func mergeAB(c *config.Config, files []string, base, head string) (*ab.Outcome, []string, error) {
	parts := make([]*shard.ABPart, 0, len(files))
	for _, f := range files {
		p, err := shard.ReadABFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("merge: %w", err)
		}
		parts = append(parts, p)
	}
	j, err := shard.JoinAB(parts, files, shard.MergeOptions{AllowPartial: c.MergePartial})
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	switch {
	case head == "" && base == "":
	case j.HeadCommit == "" && j.BaseCommit == "":
		notes = append(notes, "The shards did not record which commits they built; the merge could not check them against the pull request's.")
	case j.HeadCommit != head || j.BaseCommit != base:
		return nil, nil, fmt.Errorf("merge: the shards compared %s with %s, this pull request is %s on %s: the artifacts are of another run; download this run's (actions/download-artifact without run-id)", j.HeadCommit, j.BaseCommit, head, base)
	}
	opts := check.CountedResultsOptions(c, c.CompareOptions(true), j.Base, j.Head)
	n := parts[0].Spec().Count
	why := fmt.Sprintf("same-runner A/B split over %d shards of a job matrix: each built both trees and counted its part of the benchmarks on its own runner; the merge judged all of them together", n)
	o, err := check.MergeAB(j, opts, why)
	if err != nil {
		return nil, nil, err
	}
	var note strings.Builder
	fmt.Fprintf(&note, "Merged from %d A/B shards (slowest %s):", len(j.Shards), j.Elapsed.Round(1e8))
	for _, s := range j.Shards {
		fmt.Fprintf(&note, " shard %d/%d counted %d benchmarks on %s (%s);", s.Index, s.Count, s.Benchmarks, orDash(s.Env.Machine), orDash(s.Env.CPU))
	}
	if len(j.MissingShards) > 0 {
		fmt.Fprintf(&note, " shard(s) %v missing: their benchmarks are not in this report, and the verdict is of the others only.", j.MissingShards)
	}
	return o, append([]string{strings.TrimSuffix(note.String(), ";") + "."}, notes...), nil
}

// mergeABCommand is merge of A/B shards on the command line: one report
// and exit code, as an unsharded ab would give.
func mergeABCommand(ctx context.Context, e *env, c *config.Config, files []string) error {
	o, notes, err := mergeAB(c, files, "", "")
	if err != nil {
		return badInput{Err: err}
	}
	fmt.Fprintln(e.stderr, "wirebench: "+strings.Join(notes, " "))
	in := outcome.Report{BaselineSource: "the base build", Title: "wirebench: same-runner A/B, merged shards", FailOn: c.FailCondition(), Notes: notes}
	out := check.Paired(o, nil, in)
	d := local(e)
	d.ResultsPath, d.ReportPath, d.Format = c.Out, c.Report, c.Format
	if err := d.Deliver(ctx, out); err != nil {
		return err
	}
	return gate(out.Failed())
}
