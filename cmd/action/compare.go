package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
)

func cmdCompare(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: action compare [flags] BASELINE CANDIDATE\n\nEach side is a wirebench results or baseline JSON file, or Go benchmark text (go test -bench output).")
		fs.PrintDefaults()
	}
	var c compareConfig
	c.register(fs)
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "markdown", "json"}}, "format", "output: text (like benchstat), markdown or json")
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() != 2 {
		return badInputf("compare needs two files, BASELINE and CANDIDATE, got %d arguments", fs.NArg())
	}
	if err := c.validate(); err != nil {
		return err
	}
	base, history, err := loadSide(fs.Arg(0))
	if err != nil {
		return err
	}
	cand, _, err := loadSide(fs.Arg(1))
	if err != nil {
		return err
	}
	opts := c.Options
	if len(history) > 0 {
		opts.BetweenRun = &compare.Noise{Spread: (&baseline.Baseline{History: history}).BetweenRunNoise()}
	}
	res, err := compare.Compare(base, cand, opts)
	if err != nil {
		return badInputf("compare %s with %s: %v", fs.Arg(0), fs.Arg(1), err)
	}
	if err := writeComparison(e.stdout, format, report.Input{
		Result: res, Candidate: cand, History: history, BaselineSource: fs.Arg(0),
		Title: "wirebench: " + fs.Arg(1) + " against " + fs.Arg(0), FailOn: c.FailOn,
	}); err != nil {
		return err
	}
	if res.Failed(c.FailOn) {
		return errGate
	}
	return nil
}

// loadSide reads one side of a comparison: results (JSON or Go benchmark
// text) or a baseline file, whose reference run is used.
func loadSide(path string) (*results.Results, []baseline.Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, badInputf("read %s: %v", path, errors.Unwrap(err))
	}
	if looksLikeBaseline(data) {
		b, err := baseline.Decode(path, data, "")
		if err != nil {
			return nil, nil, badInput{err}
		}
		return b.Reference, b.History, nil
	}
	r, err := results.Read(path, data)
	if err != nil {
		return nil, nil, badInput{err}
	}
	return r, nil, nil
}

// looksLikeBaseline reports whether data is a baseline document (by its
// format field) rather than results.
func looksLikeBaseline(data []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == baseline.Format
}

func writeComparison(w io.Writer, format string, in report.Input) error {
	switch format {
	case "markdown":
		_, err := io.WriteString(w, report.Markdown(in, report.Options{}))
		return err
	case "json":
		return report.JSON(w, in.Result, in.FailOn)
	}
	return report.Text(w, in.Result)
}
