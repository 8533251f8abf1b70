package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
)

// mergeShards reads the shards' results from paths (files, or directories
// searched for *.json, as actions/download-artifact lays them out) and
// merges them. The returned note describes the merge for the report.
func mergeShards(paths []string, partial bool) (*results.Results, string, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, "", badInputf("merge: %v", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, "", badInputf("merge: %v", err)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, "", badInputf("merge: no results files in %s: download the shards' artifacts first", strings.Join(paths, ", "))
	}
	parts := make([]*results.Results, 0, len(files))
	for _, f := range files {
		r, err := results.Load(f)
		if err != nil {
			return nil, "", badInput{err}
		}
		parts = append(parts, r)
	}
	m, err := shard.Merge(parts, files, shard.MergeOptions{AllowPartial: partial})
	if err != nil {
		return nil, "", badInput{err}
	}
	var note strings.Builder
	fmt.Fprintf(&note, "Merged from %d shards of a job matrix (slowest shard %s):", len(m.Results.Shards), m.Results.Settings.Elapsed.Round(1e8))
	for _, s := range m.Results.Shards {
		fmt.Fprintf(&note, " shard %d/%d measured %d benchmarks on machine %s (%s);", s.Index, s.Count, s.Benchmarks, orDash(s.Env.Machine), orDash(s.Env.CPU))
	}
	if len(m.MissingShards) > 0 {
		fmt.Fprintf(&note, " **shard(s) %v missing: their benchmarks are not in this report.**", m.MissingShards)
	}
	return m.Results, strings.TrimSuffix(note.String(), ";") + ".", nil
}

func cmdMerge(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: action merge [flags] SHARD_RESULTS...\n\nMerges the results of the shards of a job matrix (files, or directories of *.json)\nand, when a baseline exists, compares and reports like check.")
		fs.PrintDefaults()
	}
	var cc compareConfig
	cc.register(fs)
	partial := fs.Bool("partial", false, "merge even if shards are missing (the report shows the gap)")
	out := fs.String("out", defaultResultFile, "write the merged results here")
	basePath := fs.String("baseline", baseline.DefaultPath, "baseline file to compare with (skipped if absent)")
	reportPath := fs.String("report", defaultReportFile, "write the Markdown report here")
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() == 0 {
		return badInputf("merge needs the shards' results files or directories")
	}
	if err := cc.validate(); err != nil {
		return err
	}
	merged, note, err := mergeShards(fs.Args(), *partial)
	if err != nil {
		return err
	}
	if err := writeResultsFile(e, *out, merged); err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, "wirebench: "+note)
	base, err := baseline.Load(*basePath, bench.SuiteName)
	if errors.Is(err, baseline.ErrNotExist) {
		return report.RunTable(e.stdout, merged)
	}
	if err != nil {
		return badInput{err}
	}
	opts := cc.Options
	opts.BetweenRun = &compare.Noise{Spread: base.BetweenRunNoise()}
	res, err := compare.Compare(base.Reference, merged, opts)
	if err != nil {
		return badInputf("compare with %s: %v", *basePath, err)
	}
	in := report.Input{Result: res, Candidate: merged, History: base.History, BaselineSource: *basePath + " (local file)",
		Title: "wirebench: " + bench.SuiteName + " suite (merged shards)", FailOn: cc.FailOn, Notes: []string{note}}
	if err := writeReport(e, *reportPath, in); err != nil {
		return err
	}
	if err := report.Text(e.stdout, res); err != nil {
		return err
	}
	if res.Failed(cc.FailOn) {
		return errGate
	}
	return nil
}
