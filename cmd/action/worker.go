package main

import (
	"context"
	"flag"
	"regexp"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/worker"
)

// cmdWorker is `action worker`: the same-runner A/B mode's worker, a
// long-lived process that prepares the suite and answers the orchestrator's
// requests on stdin/stdout (see internal/worker for the protocol). It is
// started by `action ab`, not by people.
func cmdWorker(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	filter := fs.String("filter", "", "regular expression selecting benchmarks by name, as for run")
	if err := fs.Parse(args); err != nil {
		return badInput{err}
	}
	if fs.NArg() > 0 {
		return badInputf("worker takes no arguments, got %q", fs.Args())
	}
	var sel bench.Selection
	if *filter != "" {
		re, err := regexp.Compile(*filter)
		if err != nil {
			return badInputf("--filter %q is not a valid regular expression: %v", *filter, err)
		}
		sel.Filter = re
	}
	benches, err := bench.Prepare(sel, bench.Codecs(), bench.Datasets())
	if err != nil {
		return badInput{err}
	}
	s := worker.Suite{Name: bench.SuiteName, Env: bench.CaptureEnv(e.getenv)}
	for _, b := range benches {
		s.Benchmarks = append(s.Benchmarks, worker.Benchmark{Name: b.Name, Size: b.Size, Loop: b.Loop})
	}
	return worker.Serve(ctx, e.stdin, e.stdout, s, worker.Options{})
}
