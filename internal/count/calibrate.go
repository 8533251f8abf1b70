package count

import (
	"context"

	"github.com/wirebench/wirebench/internal/program"
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
}

// calibrate starts b natively and warms every benchmark up briefly, to
// learn what it costs and how large its counted blocks should be. Only
// the native clock decides block sizes: under Valgrind a clock reads
// tens of times slow, and iteration counts there must be fixed.
func (r *run) calibrate(ctx context.Context, side string, b Build) (*calibration, error) {
	w, err := program.Start(ctx, side, side, b.Program, b.Env, program.StartOptions{Stderr: r.o.Stderr, Sandbox: r.o.Sandbox}, r.lists)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	h := w.Handshake()
	c := &calibration{hello: h, names: h.Benchmarks, sizes: map[string]int{}, nsPerOp: map[string]float64{}, bytesOp: map[string]float64{},
		parallel: map[string]bool{}}
	for _, name := range c.names {
		c.parallel[name] = w.Parallel(name)
		s, err := w.Warmup(ctx, name, calibrationWarmup)
		if err != nil {
			return nil, err
		}
		c.nsPerOp[name] = s.NsPerOp()
		c.bytesOp[name] = float64(s.Bytes) / float64(max(s.Iterations, 1))
		if c.sizes[name], err = w.Size(ctx, name); err != nil {
			return nil, err
		}
	}
	return c, nil
}
