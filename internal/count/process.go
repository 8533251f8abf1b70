package count

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/stats"
	"github.com/wirebench/wirebench/internal/worker"
)

// counter runs the parts of a program counted (program.Counter): under
// callgrind, each process's dumps in a directory of its own under dir,
// which the sandbox's user owns.
type counter struct {
	valgrind callgrind.Valgrind
	options  callgrind.Options
	dir      string
	sandbox  *sandbox.Sandbox
	mu       sync.Mutex
	started  int
}

// Wrap returns cmd run by callgrind and the file its dumps go to.
func (c *counter) Wrap(cmd worker.Command, label string) (worker.Command, string, error) {
	c.mu.Lock()
	c.started++
	n := c.started
	c.mu.Unlock()
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(label))
	dir := filepath.Join(c.dir, fmt.Sprintf("%03d-%s", n, safe))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cmd, "", fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	if err := c.sandbox.Own(dir); err != nil {
		return cmd, "", fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	out := filepath.Join(dir, "callgrind.out")
	cmd.Args = c.options.Args(out, cmd.Path, cmd.Args)
	cmd.Path = c.valgrind.Path
	cmd.Env = callgrind.Env(cmd.Env)
	return cmd, out, nil
}

// processCounts is what one process counted: per benchmark, its value of
// every unit (values) and where its work went, the self cost per
// operation of every function (profiles; a benchmark whose dumps could
// not be read so has none).
type processCounts struct {
	values   map[string]map[string]float64
	profiles map[string]map[string]results.Cost
	// seeds are the seed of the process that counted each benchmark
	// (a replicate split into parts has one process, and seed, a part).
	seeds map[string]uint64
}

func newProcessCounts() processCounts {
	return processCounts{values: map[string]map[string]float64{}, profiles: map[string]map[string]results.Cost{}, seeds: map[string]uint64{}}
}

// add adds o's benchmarks to pc's: another part of the same replicate.
func (pc processCounts) add(o processCounts) {
	maps.Copy(pc.values, o.values)
	maps.Copy(pc.profiles, o.profiles)
	maps.Copy(pc.seeds, o.seeds)
}

// countProcess counts every benchmark of p in one fresh process of b
// under callgrind, in an order drawn from rng.
func (r *run) countProcess(ctx context.Context, side, label string, b Build, p *plan, seed uint64) (processCounts, error) {
	rng := rand.New(rand.NewPCG(seed, 0x636f756e74))
	env := b.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(slices.Clip(env), worker.RuntimeSeedVar+"="+strconv.FormatUint(seed, 10))
	start := func() (*program.Worker, worker.CountWay, error) {
		w, err := program.Start(ctx, side, label, b.Program.ForKeys(p.names), env, program.StartOptions{Stderr: r.o.Stderr, Sandbox: r.o.Sandbox, Counter: r.counter}, r.lists)
		if err != nil {
			return nil, worker.CountWay{}, err
		}
		if err := w.Countable(); err != nil {
			w.Close()
			return nil, worker.CountWay{}, err
		}
		way := w.CountWay()
		r.noteWay(side, way)
		return w, way, nil
	}
	w, way, err := start()
	if err != nil {
		return processCounts{}, err
	}
	defer func() {
		if w != nil {
			w.Close()
		}
	}()
	out := newProcessCounts()
	order := rng.Perm(len(p.names))
	// crashed are the benchmarks that ended this process (a crash, no
	// reply); after one, the process started again is not the seed's
	// alone (its state differs from the other build's process of the
	// seed), so what it counts is left unpaired.
	var crashed []string
	for k, i := range order {
		name := p.names[i]
		if r.troubled(side, name) {
			continue // not counted in an earlier process: not here either
		}
		nextCostly := k+1 < len(order) && r.costly(p, p.names[order[k+1]])
		v, prof, err := r.countBenchmark(ctx, w, side, name, p, nextCostly)
		if err != nil {
			t, alive, ok := countTrouble(ctx, name, err)
			if !ok {
				return processCounts{}, err
			}
			r.noteTrouble(side, t)
			if alive {
				continue
			}
			if len(crashed) == maxRestarts {
				return processCounts{}, restartError(err, crashed)
			}
			crashed = append(crashed, name)
			w.Kill()
			w.Close()
			if w, way, err = start(); err != nil {
				return processCounts{}, err
			}
			continue
		}
		out.values[name] = v
		if way.Random == worker.SeededRandom && len(crashed) == 0 {
			out.seeds[name] = seed // its inputs were the seed's: it pairs
		}
		if prof != nil {
			out.profiles[name] = prof
		}
		r.countedOne()
	}
	return out, nil
}

// countBenchmark counts one benchmark in worker w: Blocks counted blocks
// (one for a benchmark whose single operation fills a block, AllocBlocks
// for one that allocates: plan.blocksOf), the first
// after an uncounted block of the same size and the others after one
// uncounted operation (for a worker whose blocks follow the benchmark's
// timer none, but a quarter of a block before a single one: warmup), each
// reduced to counts per operation, the collector's work counted after
// the last alone; their median per unit is
// the process's value, and where the work of the block whose
// instructions are that median went (of two, the lower) the process's
// profile: a block that was counted, whose functions add up to its
// count.
//
// Instrumentation stays on after a block unless what comes next is
// costly (its uncounted operation, run instrumented, would cost as much
// as counting it): switching it on and off re-translates all the code the
// process runs, which measured here took half the time of counting the
// suite's medium and large datasets.
//
// The first block of the first process of a build that counts the
// benchmark keeps its dumps with Options.Keep (keepDir).
func (r *run) countBenchmark(ctx context.Context, w *program.Worker, side, name string, p *plan, nextCostly bool) (map[string]float64, map[string]results.Cost, error) {
	n := p.iterations[name]
	blocks := p.blocksOf(name, r.o.Blocks)
	per := map[string][]float64{}
	var profiles []map[string]results.Cost
	for k := range blocks {
		pre := 1
		switch {
		case p.warmed && k == 0 && blocks == 1:
			pre = warmup(n)
		case p.warmed:
			pre = 0
		case k == 0:
			pre = n
		}
		var v map[string]float64
		var prof map[string]results.Cost
		var err error
		into := ""
		if k == 0 {
			into = r.keepDir(side, name)
		}
		// The collector's work is counted after the last block alone.
		collect := k+1 == blocks
		if p.difference {
			v, prof, err = differenceBlock(ctx, w, name, n, pre, p.nsPerOp[name], collect, into)
		} else {
			keep := !nextCostly
			if k+1 < blocks {
				keep = !r.costly(p, name)
			}
			v, prof, err = plainBlock(ctx, w, name, worker.CountRequest{N: n, Pre: pre, Timeout: timeout(p.nsPerOp[name], n+pre), Keep: keep, NoCollection: !collect}, into)
		}
		var unread *profileError
		switch {
		case errors.As(err, &unread):
			r.noteProfile(name, unread.err)
		case err != nil:
			return nil, nil, err
		}
		for u, x := range v {
			per[u] = append(per[u], x)
		}
		profiles = append(profiles, prof)
	}
	out := map[string]float64{}
	for u, xs := range per {
		out[u], _ = stats.Median(xs)
	}
	return out, profiles[medianBlock(per[results.UnitInstructionsPerOp])], nil
}

// warmup is the uncounted iterations before the first counted block of
// n iterations in a worker whose blocks follow the benchmark's timer: a
// benchmark that uses b.Loop runs its n iterations in testing's first
// run, so without them its count would hold what its first iterations
// do once in a process (a lazy table, a pool's first objects, a
// buffer's growth); of several blocks the median leaves the first out.
// A quarter of the block, at least one.
func warmup(n int) int { return max(1, n/4) }

// medianBlock is the index of the block whose value xs holds is the
// median (of an even number, the lower of the middle two), the first of
// equal ones.
func medianBlock(xs []float64) int {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	return order[(len(xs)-1)/2]
}

// profileError is a block whose counts were read but not where its work
// went: the block stands, without a profile.
type profileError struct{ err error }

func (e *profileError) Error() string { return e.err.Error() }

// noteProfile says, once a run, that where a benchmark's work went could
// not be read, or named (the first benchmark and why): its count stands.
func (r *run) noteProfile(name string, err error) {
	r.mu.Lock()
	said := r.profileSaid
	r.profileSaid = true
	r.mu.Unlock()
	if !said {
		r.progressf("warning: where the work of %s went could not be read or named (%v); its count stands", name, err)
	}
}

// perOp is the self cost per operation of every function of a block of
// n operations.
func perOp(p callgrind.Profile, n int) map[string]results.Cost {
	out := make(map[string]results.Cost, len(p))
	for fn, c := range p {
		out[fn] = results.Cost{Instructions: float64(c.Ir) / float64(n), EstCycles: c.EstCycles() / float64(n)}
	}
	return out
}

// timeout bounds a counted request that runs iters iterations of a
// benchmark costing ns per operation natively.
func timeout(ns float64, iters int) time.Duration {
	return worker.DefaultTimeout + time.Duration(countSlowdown*ns*float64(iters))
}

// plainBlock is one counted block of n iterations after pre uncounted
// ones: its counts over n, and where its work went per operation (an
// error wrapping *profileError, with the counts, when that could not be
// read), as b asks (b.N is n); into (when set) keeps its dumps in
// into/block.
func plainBlock(ctx context.Context, w *program.Worker, name string, b worker.CountRequest, into string) (map[string]float64, map[string]results.Cost, error) {
	n := b.N
	r, err := w.Count(ctx, name, b, sub(into, keptBlock))
	if err != nil {
		return nil, nil, err
	}
	c := r.Block
	v := map[string]float64{results.UnitInstructionsPerOp: float64(c.Ir) / float64(n)}
	if c.CacheSim {
		v[results.UnitEstCyclesPerOp] = c.EstCycles() / float64(n)
	}
	v = withSample(v, r)
	if c.ProfileErr != nil {
		return v, nil, &profileError{c.ProfileErr}
	}
	return v, perOp(c.Profile, n), nil
}

// differenceBlock counts a benchmark whose blocks include its own setup
// (a go test benchmark function, run whole with -test.benchtime=Nx): a
// block of n iterations and one of 2n, whose difference over n is the
// count of n operations alone, and per function the difference of its
// self costs over n (a function of the setup alone comes out about 0,
// one that moved between the blocks by chance may come out below). The
// allocations and the units the benchmark reported are the testing
// package's, per operation, from the larger block, and so is the
// collection counted after it, when collect asks for one. into (when
// set) keeps their dumps in into/n and into/2n.
func differenceBlock(ctx context.Context, w *program.Worker, name string, n, pre int, ns float64, collect bool, into string) (map[string]float64, map[string]results.Cost, error) {
	r1, err := w.Count(ctx, name, worker.CountRequest{N: n, Pre: pre, Timeout: timeout(ns, n+pre), NoCollection: true}, sub(into, keptN))
	if err != nil {
		return nil, nil, err
	}
	r2, err := w.Count(ctx, name, worker.CountRequest{N: 2 * n, Timeout: timeout(ns, 2*n), NoCollection: !collect}, sub(into, kept2N))
	if err != nil {
		return nil, nil, err
	}
	c1, c2 := r1.Block, r2.Block
	v := map[string]float64{results.UnitInstructionsPerOp: math.Max(0, float64(c2.Ir)-float64(c1.Ir)) / float64(n)}
	if c1.CacheSim && c2.CacheSim {
		v[results.UnitEstCyclesPerOp] = math.Max(0, c2.EstCycles()-c1.EstCycles()) / float64(n)
	}
	v = withSample(v, r2)
	if err := cmp.Or(c1.ProfileErr, c2.ProfileErr); err != nil {
		return v, nil, &profileError{err}
	}
	return v, differenceProfile(c1.Profile, c2.Profile, n), nil
}

// differenceProfile is the self cost per operation of every function of
// n operations, from profiles of blocks of n and 2n: its difference over
// n.
func differenceProfile(p1, p2 callgrind.Profile, n int) map[string]results.Cost {
	prof := perOp(p2, n)
	for fn, c := range perOp(p1, n) {
		d := prof[fn]
		prof[fn] = results.Cost{Instructions: d.Instructions - c.Instructions, EstCycles: d.EstCycles - c.EstCycles}
	}
	return prof
}

// withSample adds to a block's counts v what its sample says per
// operation: allocations, the units the benchmark reported, and the
// collector's work (gcPerOp).
func withSample(v map[string]float64, r program.Counted) map[string]float64 {
	s := r.Sample
	v[results.UnitAllocsPerOp], v[results.UnitBytesPerOp] = s.AllocsPerOp(), s.BytesPerOp()
	for u, x := range s.Metrics {
		v[u] = x
	}
	if g, ok := gcPerOp(r.Collection, s.BytesPerOp()); ok {
		v[results.UnitGCInstructionsPerOp] = g
	}
	return v
}

// gcPerOp is the collector's instructions an operation
// (results.UnitGCInstructionsPerOp): the collection counted after the
// block, c, once every heap room's worth of the bytes an operation
// allocates. A block that allocated nothing causes no collection; one
// with the collector off (no room) or without a counted collection has
// no value.
func gcPerOp(c *program.CollectionCount, bytesPerOp float64) (float64, bool) {
	if c == nil || c.HeapRoom == 0 || bytesPerOp <= 0 || c.Ir == 0 {
		return 0, false
	}
	return float64(c.Ir) * bytesPerOp / float64(c.HeapRoom), true
}
