package cli

import (
	"context"
	"regexp"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/worker"
)

// cmdWorker is `wirebench worker`: the same-runner A/B mode's worker, a
// long-lived process that prepares the suite and answers the orchestrator's
// requests on stdin/stdout (see internal/worker for the protocol). It is
// started by `wirebench ab`, not by people.
func cmdWorker(ctx context.Context, e *env, args []string) error {
	c, err := parse(e, config.Worker, args)
	if err != nil {
		return err
	}
	var sel bench.Selection
	if c.Filter != "" {
		sel.Filter = regexp.MustCompile(c.Filter) // checked by config
	}
	benches, err := bench.Prepare(sel, bench.Datasets())
	if err != nil {
		return badInput{Err: err}
	}
	s := worker.Suite{Name: bench.SuiteName, Env: bench.CaptureEnv(e.getenv)}
	for _, b := range benches {
		s.Benchmarks = append(s.Benchmarks, worker.Benchmark{Name: b.Name, Size: b.Size, Loop: b.Loop})
	}
	return worker.Serve(ctx, e.stdin, e.stdout, s, worker.Options{})
}
