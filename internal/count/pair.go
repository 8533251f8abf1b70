package count

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
)

// Pair is two builds, a base and a head, counted with one plan: the
// benchmarks both have, each in blocks of the size the base's native
// warm-up gave (or Settings.Iterations'), in the same number of fresh
// processes of each build, process k of both with the same seed. Counts
// do not depend on what runs beside them, so unlike a timed comparison
// there is no pairing in time: the processes are the replicates.
type Pair struct {
	r                     *run
	base, head            Build
	calB, calH            *calibration
	planB, planH          *plan
	names, missing, added []string
	again                 int // the processes of each build counted so far beyond the first Processes
	// first is the processes of each build Count counts every benchmark
	// in (stage); 0 before Count decides it.
	first int
}

// NewPair calibrates both builds natively (base first) and plans their
// count. The builds must run the same suite and have a benchmark in
// common.
func NewPair(ctx context.Context, base, head Build, o Options) (*Pair, error) {
	r, err := newRun(o)
	if err != nil {
		return nil, err
	}
	p := &Pair{r: r, base: base, head: head}
	if p.calB, err = r.calibrate(ctx, "base", base); err != nil {
		return nil, err
	}
	if p.calH, err = r.calibrate(ctx, "head", head); err != nil {
		return nil, err
	}
	if p.calB.hello.Suite != p.calH.hello.Suite {
		return nil, fmt.Errorf("the base build runs suite %q and the head build suite %q: compare builds of the same suite", p.calB.hello.Suite, p.calH.hello.Suite)
	}
	p.names, p.missing, p.added = program.Intersect(p.calB.names, p.calH.names)
	if p.r.o.Select != nil {
		if len(p.names) == 0 {
			p.plan()
			return p, nil // a shard whose part holds no benchmark both builds have
		}
		// A shard's counted processes start only the test binaries of
		// its part's packages: under callgrind a start costs seconds.
		p.base.Program, p.head.Program = p.base.Program.ForKeys(p.names), p.head.Program.ForKeys(p.names)
		// It counts in stages when the whole would (the whole's verdicts
		// are the merge's): the threshold scaled by its share of the
		// benchmarks both builds list.
		if all, _, _ := program.Intersect(p.calB.hello.Benchmarks, p.calH.hello.Benchmarks); p.r.o.StageFrom > 0 && len(all) > 0 {
			p.r.o.StageFrom = max(1, time.Duration(float64(p.r.o.StageFrom)*float64(len(p.names))/float64(len(all))))
		}
	}
	if len(p.names) == 0 {
		return nil, fmt.Errorf("the base build (%d benchmarks) and the head build (%d) have no benchmark in common", len(p.calB.names), len(p.calH.names))
	}
	p.plan()
	return p, nil
}

// plan plans the count of both builds with the run's settings.
func (p *Pair) plan() {
	p.planB = p.r.planFor(p.names, p.calB)
	p.planH = p.r.planFor(p.names, p.calH)
	p.planH.iterations = p.planB.iterations // both builds count blocks of one size
}

// Benchmarks are the benchmarks the pair counts (both builds have them),
// those only the base has, and those only the head has.
func (p *Pair) Benchmarks() (common, onlyBase, onlyHead []string) {
	return p.names, p.missing, p.added
}

// Listed are the benchmarks each build's worker listed, all of them
// (before Options.Select kept a shard's part), by key.
func (p *Pair) Listed() (base, head []string) {
	return p.calB.hello.Benchmarks, p.calH.hello.Benchmarks
}

// None is each build's results when the pair has no benchmark to count
// (a shard whose part holds none both builds have): nothing counted,
// the troubles and the counter recorded.
func (p *Pair) None() (base, head *results.Results) {
	return p.r.results("base", p.base, p.calB, p.planB, nil), p.r.results("head", p.head, p.calH, p.planH, nil)
}

// Processes is how many processes of each build Count and Rest count
// in, together.
func (p *Pair) Processes() int { return p.r.o.Processes }

// First is how many processes of each build Count counts in: Processes,
// or Settings.First when that is fewer and the count in full is
// expected to take Settings.StageFrom or longer (Rest counts the
// others).
func (p *Pair) First() int {
	if p.first > 0 {
		return min(p.first, p.r.o.Processes)
	}
	return min(p.r.o.First, p.r.o.Processes)
}

// jobs are the jobs of the first n processes of both builds, process k
// of both with the seed Settings.Seed+k (pairJobs).
func (p *Pair) jobs(n int) []*job {
	r := p.r
	var jobs []*job
	for k := range n {
		jobs = append(jobs, p.pairJobs(k, r.o.Seed+uint64(k), p.planB.forProcess(k), p.planH, "")...)
	}
	return sortPairs(jobs, r.o.Blocks)
}

// pairJobs are replicate k's jobs of both builds with seed, counting the
// benchmarks of pb (the base's plan; the head's is ph): one process per
// package (plan.byPackage) of each build, base first; kind names them
// in the progress ("base kind process k").
func (p *Pair) pairJobs(k int, seed uint64, pb, ph *plan, kind string) []*job {
	parts := pb.byPackage()
	var jobs []*job
	for _, q := range parts {
		label := fmt.Sprintf(" process %d", k+1)
		if kind != "" {
			label = " " + kind + label
		}
		if pkg, _ := results.SplitKey(q.names[0]); len(parts) > 1 && pkg != "" {
			label += " (" + pkg + ")"
		}
		jobs = append(jobs,
			&job{side: "base", label: "base" + label, build: p.base, plan: q, seed: seed, replicate: k},
			&job{side: "head", label: "head" + label, build: p.head, plan: q.withBuild(ph), seed: seed, replicate: k})
	}
	return jobs
}

// sortPairs orders jobs, pairs of a base's and a head's, the costliest
// pair first (by the base's estimate), so that the last to start are
// short and no CPU waits through a long one alone; pairs of equal cost
// keep their order.
func sortPairs(jobs []*job, blocks int) []*job {
	pairs := make([][2]*job, 0, len(jobs)/2)
	for i := 0; i+1 < len(jobs); i += 2 {
		pairs = append(pairs, [2]*job{jobs[i], jobs[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b [2]*job) int {
		return cmp.Compare(b[0].plan.cost(blocks), a[0].plan.cost(blocks))
	})
	out := make([]*job, 0, len(jobs))
	for _, pr := range pairs {
		out = append(out, pr[0], pr[1])
	}
	return out
}

// stage decides how many processes of each build Count counts every
// benchmark in: all of the plan's when the count in full is expected to
// take less than Settings.StageFrom, Settings.First otherwise. It
// returns the estimate of the count in full.
func (p *Pair) stage() time.Duration {
	r := p.r
	full := r.estimate(p.jobs(r.o.Processes))
	p.first = r.o.First
	if r.o.StageFrom >= 0 && full < r.o.StageFrom {
		p.first = r.o.Processes
	}
	return full
}

// Elapsed is the time since the pair was made, calibration included.
func (p *Pair) Elapsed() time.Duration { return time.Since(p.r.start) }

// Count counts every benchmark of the pair in First fresh processes of
// each build, Jobs at a time, base and head alternating, and returns
// each build's results: one sample of every unit per process.
func (p *Pair) Count(ctx context.Context) (base, head *results.Results, err error) {
	r := p.r
	full := p.stage()
	jobs, est, fitted := r.fit(func() []*job {
		p.plan()
		return p.jobs(p.First())
	})
	if fitted != "" {
		r.progressf("%s", fitted)
		r.cutFor = r.o.Budget
	}
	more := ""
	if first := p.First(); first < r.o.Processes {
		more = fmt.Sprintf(" first (up to %d for those whose verdict %d do not settle)", r.o.Processes, first)
	} else if r.o.First < r.o.Processes && r.o.StageFrom >= 0 {
		more = fmt.Sprintf(" (all of them: in full the count is expected to take %s, less than the %s from which it counts in stages)", round(full), r.o.StageFrom)
	}
	r.progressf("counting %s (%d only in the base, %d only in the head) in %d processes of each build%s %s; expected to take about %s",
		benchmarks(len(p.names)), len(p.missing), len(p.added), p.First(), more, r.under(), round(est))
	r.estimated = est
	return p.count(ctx, jobs, p.planB, p.planH)
}

// Rest counts the benchmarks names in the processes Count left out
// (First to Processes, process k of both builds with the seed the
// unstaged count would have given it, and a costly benchmark in no more
// than its CostlyProcesses), and returns those processes' results
// (results.AddProcesses joins them to Count's); nil results when none
// are left to count.
func (p *Pair) Rest(ctx context.Context, names []string) (base, head *results.Results, err error) {
	r := p.r
	pb, ph := p.planB.only(names), p.planH.only(names)
	var jobs []*job
	for k := p.First(); k < r.o.Processes; k++ {
		kb := pb.forProcess(k)
		if len(kb.names) == 0 {
			continue
		}
		jobs = append(jobs, p.pairJobs(k-p.First(), r.o.Seed+uint64(k), kb, ph, "")...)
	}
	jobs = sortPairs(jobs, r.o.Blocks)
	if len(jobs) == 0 {
		return nil, nil, nil
	}
	r.progressf("%s not settled by %d processes of each build: counting %s in up to %d more",
		benchmarks(len(names)), p.First(), them(len(names)), r.o.Processes-p.First())
	return p.count(ctx, jobs, pb, ph)
}

// Again counts the benchmarks names again, in Processes further fresh
// processes of each build with the pair's block sizes and seeds of their
// own, and returns those processes' results (results.AddProcesses joins
// them to Count's). A count can be bimodal by process (a code path
// chosen once per process: msgpack's float encoding, measured here, is
// ~5% apart between its modes), and two sets of five processes that
// landed in different modes would look like a certain change, either
// way: more processes show both modes.
func (p *Pair) Again(ctx context.Context, names []string) (base, head *results.Results, err error) {
	p.r.progressf("%s counted as changed: counting %s again in %d fresh processes of each build",
		benchmarks(len(names)), them(len(names)), p.r.o.Processes)
	return p.fresh(ctx, names, "confirmation")
}

// More counts the benchmarks names beyond the plan, in Processes further
// fresh processes of each build (as Again does), for benchmarks whose
// interval still straddles the floor after the plan's processes: their
// verdict is open, and more pairs narrow it.
func (p *Pair) More(ctx context.Context, names []string) (base, head *results.Results, err error) {
	p.r.progressf("%s still open after %d processes of each build (the interval straddles the floor): counting %s in %d more",
		benchmarks(len(names)), p.r.o.Processes, them(len(names)), p.r.o.Processes)
	return p.fresh(ctx, names, "further")
}

// fresh counts names in Processes fresh processes of each build, with
// seeds no earlier process of the pair had, process k of both builds
// with the same one; kind names them in the progress ("base kind
// process k").
func (p *Pair) fresh(ctx context.Context, names []string, kind string) (base, head *results.Results, err error) {
	r := p.r
	pb, ph := p.planB.only(names), p.planH.only(names)
	var jobs []*job
	for k := range r.o.Processes {
		p.again++
		jobs = append(jobs, p.pairJobs(k, r.o.Seed+uint64(r.o.Processes+p.again-1), pb, ph, kind)...)
	}
	return p.count(ctx, sortPairs(jobs, r.o.Blocks), pb, ph)
}

// count runs jobs, base and head, and returns each build's results: one
// process's counts per replicate (job.replicate, from 0), its packages'
// processes joined.
func (p *Pair) count(ctx context.Context, jobs []*job, planB, planH *plan) (base, head *results.Results, err error) {
	if err := p.r.runJobs(ctx, jobs); err != nil {
		return nil, nil, err
	}
	return p.r.results("base", p.base, p.calB, planB, replicates(jobs, "base")), p.r.results("head", p.head, p.calH, planH, replicates(jobs, "head")), nil
}

// replicates joins the counts of side's jobs by replicate, in the
// replicates' order: a replicate's processes (one per package) are one
// sample of each of their benchmarks.
func replicates(jobs []*job, side string) []processCounts {
	var out []processCounts
	for _, j := range jobs {
		if j.side != side {
			continue
		}
		for len(out) <= j.replicate {
			out = append(out, newProcessCounts())
		}
		out[j.replicate].add(j.out)
	}
	return out
}

// them is the pronoun for n benchmarks: "it" or "them".
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
