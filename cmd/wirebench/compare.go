package main

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/bounded"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/pipeline"
	"github.com/wirebench/wirebench/internal/report"
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
	base, err := loadSide(oldPath)
	if err != nil {
		return err
	}
	cand, err := loadSide(newPath)
	if err != nil {
		return err
	}
	in := report.Input{BaselineSource: oldPath, Title: "wirebench: " + newPath + " against " + oldPath, FailOn: c.FailCondition()}
	o, err := pipeline.Against(base, cand.Reference, c.CompareOptions(false), in)
	if err != nil {
		return badInput{err}
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
// history then informs the comparison.
func loadSide(path string) (*baseline.Baseline, error) {
	data, err := bounded.ReadFile(path, results.MaxFileBytes)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, badInput{err}
	}
	if err != nil {
		return nil, badInputf("read %s: %w", path, unwrapPath(err))
	}
	if looksLikeBaseline(data) {
		b, err := baseline.Decode(path, data, "")
		if err != nil {
			return nil, badInput{err}
		}
		return b, nil
	}
	r, err := results.Read(path, data)
	if err != nil {
		return nil, badInput{err}
	}
	return &baseline.Baseline{Suite: r.Suite, Reference: r}, nil
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
