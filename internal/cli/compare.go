package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/wirebench/wirebench/internal/outcome"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/bounded"
	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/results"
)

// cmdCompare compares two files: results JSON, baseline JSON or Go
// benchmark text on either side.
func cmdCompare(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Compare, args)
	if err != nil {
		return err
	}
	oldPath, newPath := c.Args[0], c.Args[1]
	base, baseProcs, err := loadSide(oldPath)
	if err != nil {
		return err
	}
	cand, candProcs, err := loadSide(newPath)
	if err != nil {
		return err
	}
	opts := check.CountedResultsOptions(c, c.CompareOptions(false), base.Reference, cand.Reference)
	opts.History = processHistory(base, baseProcs, candProcs)
	in := outcome.Report{BaselineSource: oldPath, Title: "wirebench: " + newPath + " against " + oldPath, FailOn: c.FailCondition()}
	o, err := check.Against(base, cand.Reference, opts, in)
	if err != nil {
		return badInput{Err: err}
	}
	d := local(e)
	d.Format = c.Format
	if err := d.Deliver(ctx, o); err != nil {
		return err
	}
	return gate(o.Failed())
}

// loadSide reads one side of a comparison: results (JSON or Go benchmark
// text), as a baseline of that run alone, or a baseline file, whose
// history then informs the comparison. Go benchmark text is the pool of
// its go test processes (its header lines repeat per process), which are
// returned too.
func loadSide(path string) (*baseline.Baseline, []*results.Results, error) {
	data, err := bounded.ReadFile(path, results.MaxFileBytes)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, nil, badInput{Err: err}
	}
	if err != nil {
		return nil, nil, badInputf("read %s: %w", path, unwrapPath(err))
	}
	if looksLikeBaseline(data) {
		b, err := baseline.Decode(path, data, "")
		if err != nil {
			return nil, nil, badInput{Err: err}
		}
		return b, nil, nil
	}
	r, err := results.Read(path, data)
	if err != nil {
		return nil, nil, badInput{Err: err}
	}
	var procs []*results.Results
	if data := bytes.TrimSpace(data); len(data) > 0 && data[0] != '{' {
		if procs, err = results.ReadBenchProcesses(data, path); err != nil {
			return nil, nil, badInputf("read %s: %w", path, err)
		}
	}
	return &baseline.Baseline{Suite: r.Suite, Reference: r}, procs, nil
}

// processHistory is what judges the timings of a comparison with base:
// its stored history, or, when BASELINE is Go benchmark text, its go test
// processes, each a run of one code (the same new-run test as a stored
// history's, compare.History.Processes, which gates with 5 of them); with
// the candidate's processes, when its text has several, each one more run
// of its code.
func processHistory(base *baseline.Baseline, baseProcs, candProcs []*results.Results) *compare.History {
	h := check.History(base)
	if len(baseProcs) > 0 {
		h.Runs, h.Processes = nil, true
		for _, p := range baseProcs {
			h.Runs = append(h.Runs, compare.RunOf(p))
		}
	}
	for _, p := range candProcs {
		h.Candidate = append(h.Candidate, compare.RunOf(p))
	}
	return h
}

// looksLikeBaseline reports whether data is a baseline document (by its
// format field) rather than results.
func looksLikeBaseline(data []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == baseline.Format
}

// unwrapPath drops the *fs.PathError around err (the message names the
// path already), keeping the cause in the chain.
func unwrapPath(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}
