package count

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/heartbeat"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// calibration is what a native run of a build says before it is
// counted: its handshake and benchmarks, their encoded sizes and their
// cost per operation.
type calibration struct {
	hello   worker.Hello
	names   []string
	sizes   map[string]int
	nsPerOp map[string]float64
	bytesOp map[string]float64
	// parallel are the benchmarks that call RunParallel.
	parallel map[string]bool
	// troubles are the benchmarks that skipped or failed natively, by
	// key: not in names, each its own row.
	troubles []results.Trouble
}

// calibrate starts b natively and warms every benchmark up briefly, to
// learn what it costs and how large its counted blocks should be. Only
// the native clock decides block sizes: under Valgrind a clock reads
// tens of times slow, and iteration counts there must be fixed.
func (r *run) calibrate(ctx context.Context, side string, b Build) (*calibration, error) {
	doing := r.calibrating(side)
	defer doing.stop()
	w, err := program.Start(ctx, side, side, b.Program, b.Env, program.StartOptions{Stderr: r.o.Stderr, Sandbox: r.o.Sandbox}, r.lists)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	h := w.Handshake()
	c := &calibration{hello: h, sizes: map[string]int{}, nsPerOp: map[string]float64{}, bytesOp: map[string]float64{},
		parallel: map[string]bool{}, troubles: slices.Clone(w.Troubles())}
	listed := h.Benchmarks
	if r.o.Select != nil {
		listed = r.o.Select(side, listed)
	}
	for i, name := range listed {
		doing.set(fmt.Sprintf("warming up benchmark %d of %d, %s", i+1, len(listed), name))
		c.parallel[name] = w.Parallel(name)
		s, err := w.Warmup(ctx, name, calibrationWarmup)
		var reply *worker.ReplyError
		if errors.As(err, &reply) && reply.Trouble != "" {
			// It ran once when listed, and fails when run longer: as it
			// does under go test -bench. Its own row.
			c.troubles = append(c.troubles, results.NewTrouble(name, results.TroubleFailed, reply.Msg))
			continue
		}
		if err != nil {
			return nil, err
		}
		c.names = append(c.names, name)
		c.nsPerOp[name] = s.NsPerOp()
		c.bytesOp[name] = float64(s.Bytes) / float64(max(s.Iterations, 1))
		if c.sizes[name], err = w.Size(ctx, name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// calibration's progress: what calibrate is doing, said every beat
// (heartbeat.Every) while it runs, since starting the workers (a test
// binary lists its benchmarks by running each once) and warming every
// benchmark up natively say nothing of their own, and a package's can
// take minutes.
type calibrationProgress struct {
	mu    sync.Mutex
	doing string
	stop  func()
}

// calibrating starts saying what the calibration of side is doing.
func (r *run) calibrating(side string) *calibrationProgress {
	c := &calibrationProgress{doing: "starting the workers, which list their benchmarks by running each once"}
	start := time.Now()
	what := "calibrating natively"
	if side != "" {
		what = "calibrating the " + side + " natively"
	}
	c.stop = heartbeat.Start(cmp.Or(r.beat, heartbeat.Every), func() {
		c.mu.Lock()
		doing := c.doing
		c.mu.Unlock()
		r.progressf("%s: %s; %s elapsed", what, doing, time.Since(start).Round(time.Second))
	})
	return c
}

// set says what the calibration does now.
func (c *calibrationProgress) set(doing string) {
	c.mu.Lock()
	c.doing = doing
	c.mu.Unlock()
}
