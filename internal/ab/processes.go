package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/worker"
)

// StartOptions say how to start the generations of worker processes:
// where, with which environments, with the A/A check's worker or not,
// and how each process starts (program.StartOptions: its diagnostics, the
// sandbox, the CPUs; with CPUs, all of them on the same CPUs, so that the
// blocks of a visit meet the same neighbours).
type StartOptions struct {
	program.StartOptions
	// Dir is where each generation's copies of the binaries go; "" runs
	// the binaries in place (tests).
	Dir string
	// BaseEnv and HeadEnv are the workers' environments, secrets always
	// dropped (see sandbox.Environ); nil means the current one.
	BaseEnv, HeadEnv []string
	// AA starts second base workers for the A/A check.
	AA bool
}

// Processes returns a Spawner that starts the worker processes of the two
// programs, the base's and the head's (the names a spawner is given are
// ignored: every generation serves the whole selection). With o.Dir,
// every generation runs fresh copies of the binaries, one per worker
// process (the second base worker's too), removed when the generation
// closes: see Spawner for why.
func Processes(base, head program.Program, o StartOptions) Spawner {
	gen := 0
	lists := program.NewLists()
	return func(ctx context.Context, _ []string, aa bool) (*Generation, error) {
		suffix := ""
		if gen > 0 {
			suffix = fmt.Sprintf(" #%d", gen+1)
		}
		gen++
		progs := []program.Program{base, head, base}
		labels := []string{"base", "head", "base2"}
		if !(aa && o.AA) {
			progs, labels = progs[:2], labels[:2]
		}
		var dir string
		if o.Dir != "" {
			dir = filepath.Join(o.Dir, fmt.Sprintf("gen%d", gen))
			for i := range progs {
				fresh, err := copyProgram(progs[i], filepath.Join(dir, labels[i]))
				if err != nil {
					os.RemoveAll(dir)
					return nil, fmt.Errorf("%w: copy the %s binaries: %v", program.ErrSetup, labels[i], err)
				}
				progs[i] = fresh
			}
		}
		g, err := start(ctx, progs, o, suffix, lists)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if dir != "" {
			closeWorkers := g.Close
			g.Close = func() error {
				err := closeWorkers()
				os.RemoveAll(dir)
				return err
			}
		}
		return g, nil
	}
}

// start starts the workers of one generation at the same time (each
// prepares its benchmarks, a second or two for the whole suite) and waits
// for their handshakes: progs are the base's, the head's and, for the A/A
// check, the base's again. An incompatible build gives an error wrapping
// worker.ErrIncompatible; on any error no worker is left running.
func start(ctx context.Context, progs []program.Program, o StartOptions, suffix string, lists *program.Lists) (*Generation, error) {
	labels := []string{"base" + suffix, "head" + suffix, "base (A/A)" + suffix}
	sides := []string{"base", "head", "base"}
	envs := [][]string{o.BaseEnv, o.HeadEnv, o.BaseEnv}
	ws := make([]*program.Worker, len(progs))
	errs := make([]error, len(progs))
	var wg sync.WaitGroup
	for i, p := range progs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws[i], errs[i] = program.Start(ctx, sides[i], labels[i], p, envs[i], o.StartOptions, lists)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, w := range ws {
			if w != nil {
				w.Kill()
			}
		}
		// The head's failure is the pull request's: report it alone, as
		// also an incompatible build, which explains the rest.
		for _, e := range errs {
			if program.Side(e) == "head" {
				return nil, e
			}
		}
		for _, e := range errs {
			if errors.Is(e, worker.ErrIncompatible) {
				return nil, e
			}
		}
		return nil, err
	}
	g := &Generation{Base: ws[0], Head: ws[1]}
	if len(ws) > 2 {
		g.Base2 = ws[2]
	}
	g.Close = func() error {
		var errs []error
		for _, w := range ws {
			errs = append(errs, w.Close())
		}
		return errors.Join(errs...)
	}
	return g, nil
}
