package count

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/heartbeat"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// run is a count under way: its options, the processes' dumps, what the
// test binaries listed, and its progress.
type run struct {
	o       Options
	counter *counter
	lists   *program.Lists
	start   time.Time
	mu      sync.Mutex
	done    int
	total   int
	// counted and toCount are the benchmarks counted so far, and to count,
	// over the processes of the current runJobs; said is when the last
	// progress line was written.
	counted, toCount int
	said             time.Time
	// jobsStart is when the current runJobs began, expected its estimate;
	// took and predicted sum the finished processes' times and their
	// estimates, which scale what is left (left).
	jobsStart       time.Time
	expected        time.Duration
	took, predicted time.Duration
	// estimated is what the main count (not a confirmation) was expected
	// to take, recorded in the results (results.Counter.Estimate); cutFor
	// the budget its plan was cut for (fit), 0 when it was not cut.
	estimated, cutFor time.Duration
	// beat is heartbeatEvery, shorter in tests.
	beat time.Duration
	// ways is, per side ("" for One), the worker.CountWay its counted
	// processes announced: each field one value when they all agreed,
	// "" otherwise.
	ways map[string]worker.CountWay
	// profileSaid is set once a warning said that a block's profile could
	// not be read (noteProfile).
	profileSaid bool
	// kept are the directories of the blocks whose dumps are kept
	// (keepDir).
	kept map[string]bool
	// troubles are, by side and benchmark, those not counted
	// (noteTrouble).
	troubles map[string]map[string]results.Trouble
}

// newRun starts a count with o, its defaults filled in.
func newRun(o Options) (*run, error) {
	o.defaults()
	if o.Valgrind.Path == "" {
		return nil, fmt.Errorf("%w: counting needs valgrind: install it with %s", program.ErrSetup, callgrind.InstallHint)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	if err := o.Sandbox.Own(o.Dir); err != nil {
		return nil, fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	return &run{o: o, counter: &counter{valgrind: o.Valgrind, options: o.Callgrind, dir: o.Dir, sandbox: o.Sandbox},
		lists: program.NewLists(), start: time.Now()}, nil
}

// noteWay records the CountWay of one counted process of side.
func (r *run) noteWay(side string, way worker.CountWay) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ways == nil {
		r.ways = map[string]worker.CountWay{}
	}
	if prev, ok := r.ways[side]; ok {
		way = prev.Agree(way)
	}
	r.ways[side] = way
}

// way is the CountWay side's counted processes agreed on.
func (r *run) way(side string) worker.CountWay {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ways[side]
}

// job is one counted process to run: which build, with which plan.
type job struct {
	side, label string
	build       Build
	plan        *plan
	seed        uint64
	// replicate is which of the Processes replicates the process
	// belongs to (One may split one into several processes).
	replicate int
	out       processCounts
}

// runJobs runs the jobs in their order, at most Jobs at a time. The
// first error ends the others; a head's error is preferred, since it is
// the pull request's.
func (r *run) runJobs(ctx context.Context, jobs []*job) error {
	r.mu.Lock()
	r.done, r.total = 0, len(jobs) // a confirmation's processes count from 1 again
	r.counted, r.toCount = 0, 0
	for _, j := range jobs {
		r.toCount += len(j.plan.names)
	}
	r.jobsStart, r.expected, r.took, r.predicted = time.Now(), r.estimate(jobs), 0, 0
	r.mu.Unlock()
	stop := r.heartbeat()
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, r.o.Jobs)
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		// A slot is taken here, not in the goroutine, so that jobs start
		// in order (the longest first, base and head alternating).
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			for k := i; k < len(jobs); k++ {
				errs[k] = ctx.Err()
			}
			wg.Wait()
			return firstError(errs)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			t0 := time.Now()
			out, err := r.countProcess(ctx, j.side, j.label, j.build, j.plan, j.seed)
			if err != nil {
				errs[i] = underValgrind(err)
				cancel()
				return
			}
			j.out = out
			took := time.Since(t0)
			done, left := r.finished(took, r.jobTime(j))
			r.progressf("counted %s in %s (%d of %d processes, %s elapsed%s)", j.label, took.Round(100*time.Millisecond), done, r.total, time.Since(r.start).Round(time.Second), left)
		}()
	}
	wg.Wait()
	return firstError(errs)
}

// firstError is the error of a set of jobs that stopped at the first:
// the head's own failure when it has one (the pull request's doing), else
// the first that is not the cancellation the first error caused.
func firstError(errs []error) error {
	var first, cancelled error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled):
			// A head process that the base's failure stopped is not the
			// head's fault.
			cancelled = cmp.Or(cancelled, err)
		case program.Side(err) == "head":
			return err
		default:
			first = cmp.Or(first, err)
		}
	}
	return cmp.Or(first, cancelled)
}

// underValgrind explains a process that Valgrind stopped with SIGILL:
// the benchmark ran natively (its block was sized outside Valgrind), so
// the instruction is one the CPU has and Valgrind does not implement
// (AVX-512 among them). Valgrind's own diagnosis of it is not shown:
// callgrind runs with -q, so that its output is only the program's.
func underValgrind(err error) error {
	if !strings.Contains(err.Error(), "SIGILL") {
		return err
	}
	return fmt.Errorf("%w\n(the process crashed under Valgrind with SIGILL, after running natively: it runs an instruction this CPU has and Valgrind does not implement, such as AVX-512. Select such code by CPU feature (golang.org/x/sys/cpu: Valgrind reports the features it implements), or measure this benchmark with --metric time)", err)
}

// finished notes a process done in took, estimated at predicted, and
// returns how many are done and what is left (left).
func (r *run) finished(took, predicted time.Duration) (int, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	r.took += took
	r.predicted += predicted
	if r.done == r.total {
		return r.done, ""
	}
	return r.done, r.leftLocked()
}

// leftLocked is ", about 1m10s left": the estimate of the current
// runJobs, scaled by how long its finished processes took against their
// estimates, less the time it has run; r.mu is held.
func (r *run) leftLocked() string {
	if r.expected <= 0 {
		return ""
	}
	scale := 1.0
	if r.predicted > 0 {
		scale = float64(r.took) / float64(r.predicted)
	}
	left := time.Duration(scale*float64(r.expected)) - time.Since(r.jobsStart)
	if left < time.Second {
		return ", finishing"
	}
	return ", about " + round(left).String() + " left"
}

func (r *run) progressf(format string, args ...any) {
	r.mu.Lock()
	r.said = time.Now()
	r.mu.Unlock()
	if r.o.Progress != nil {
		fmt.Fprintf(r.o.Progress, "wirebench: "+format+"\n", args...)
	}
}

// heartbeat writes a progress line whenever heartbeat.Every (r.beat in
// tests) has passed without one, until the returned stop is called.
func (r *run) heartbeat() (stop func()) {
	if r.o.Progress == nil {
		return func() {}
	}
	beat := cmp.Or(r.beat, heartbeat.Every)
	return heartbeat.Start(beat/10, func() {
		r.mu.Lock()
		quiet := time.Since(r.said) >= beat-beat/10 // the ticks come every tenth
		finished, total, counted, toCount, left := r.done, r.total, r.counted, r.toCount, r.leftLocked()
		r.mu.Unlock()
		if quiet {
			r.progressf("counting: %d of %d benchmark counts done, %d of %d processes finished, %s elapsed%s",
				counted, toCount, finished, total, time.Since(r.start).Round(time.Second), left)
		}
	})
}

// countedOne notes one benchmark counted in a process.
func (r *run) countedOne() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counted++
}

// selected is names without those Settings.Only leaves out.
func (r *run) selected(names []string) []string {
	if len(r.o.Only) == 0 {
		return names
	}
	var out []string
	for _, n := range names {
		if slices.Contains(r.o.Only, n) {
			out = append(out, n)
		}
	}
	return out
}

// under describes the counter for progress lines: callgrind's version
// and cache simulation, and how many processes run at once.
func (r *run) under() string {
	sim := "off"
	if r.o.Callgrind.CacheSim {
		sim = r.o.Callgrind.Geometry()
	}
	at := fmt.Sprintf("%d at a time", r.o.Jobs)
	if r.o.JobsWhy != "" {
		at += " (" + r.o.JobsWhy + ")"
	}
	return fmt.Sprintf("under callgrind (valgrind %s, cache simulation %s), %s", r.o.Valgrind.Version, sim, at)
}

// benchmarks is n benchmarks, for progress lines.
func benchmarks(n int) string { return human.Plural(n, "benchmark", "benchmarks") }
