package count

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// One counts the benchmarks of one build, for a comparison with a stored
// baseline: it sizes the blocks from a native warm-up (or keeps
// Settings.Iterations'), then counts every benchmark in Settings.Processes
// fresh processes under callgrind, Settings.Jobs at a time. The result has
// one sample of every unit per process.
func One(ctx context.Context, b Build, o Options) (*results.Results, error) {
	r, err := newRun(o)
	if err != nil {
		return nil, err
	}
	cal, err := r.calibrate(ctx, "", b)
	if err != nil {
		return nil, err
	}
	if len(cal.names) == 0 {
		return nil, fmt.Errorf("the benchmarks selected are none")
	}
	names := r.selected(cal.names)
	if len(names) == 0 {
		return nil, fmt.Errorf("none of the %d benchmarks to count (%s) is in the build, which lists %s%s", len(r.o.Only), strings.Join(r.o.Only, ", "), strings.Join(cal.names, ", "), troubleList(cal.troubles))
	}
	var p *plan
	jobs, est, fitted := r.fit(func() []*job {
		p = r.planFor(names, cal)
		return r.oneJobs(b, p)
	})
	if fitted != "" {
		r.progressf("%s", fitted)
		r.cutFor = r.o.Budget
	}
	how := fmt.Sprintf("%d processes", r.o.Processes)
	if len(jobs) > r.o.Processes {
		how = fmt.Sprintf("%d replicates (%d processes: each replicate's benchmarks split between processes of equal cost)", r.o.Processes, len(jobs))
	}
	r.progressf("counting %s in %s %s; expected to take about %s", benchmarks(len(p.names)), how, r.under(), round(est))
	r.estimated = est
	if err := r.runJobs(ctx, jobs); err != nil {
		return nil, err
	}
	procs := make([]processCounts, r.o.Processes)
	for _, j := range jobs {
		if procs[j.replicate].values == nil {
			procs[j.replicate] = newProcessCounts()
		}
		procs[j.replicate].add(j.out)
	}
	return r.results("", b, cal, p, procs), nil
}

// oneJobs is the counted processes of One, longest first. Each of the
// Processes replicates is one process, unless Processes is not a
// multiple of Jobs: then every replicate is split into Jobs processes of
// about equal cost, so that no CPU waits through a last round alone (5
// processes 2 at a time take 3 rounds whole, 2.5 in halves). A
// benchmark is still counted in as many distinct processes as before:
// a replicate is a set of processes no other replicate shares.
func (r *run) oneJobs(b Build, p *plan) []*job {
	parts := 1
	if r.o.Jobs > 1 && r.o.Processes%r.o.Jobs != 0 {
		parts = r.o.Jobs
	}
	var jobs []*job
	for k := range r.o.Processes {
		split := p.forProcess(k).split(parts, r.o.Blocks)
		for i, q := range split {
			label := fmt.Sprintf("process %d", k+1)
			if len(split) > 1 {
				label = fmt.Sprintf("process %d (part %d of %d)", k+1, i+1, len(split))
			}
			jobs = append(jobs, &job{label: label, build: b, plan: q, seed: r.o.Seed + uint64(k) + uint64(i)<<32, replicate: k})
		}
	}
	costs := map[*job]float64{}
	for _, j := range jobs {
		costs[j] = j.plan.cost(r.o.Blocks)
	}
	slices.SortStableFunc(jobs, func(a, b *job) int { return cmp.Compare(costs[b], costs[a]) })
	return jobs
}

// troubleList says, for an error, which benchmarks a build listed but
// could not run natively, and why ("" when none).
func troubleList(ts []results.Trouble) string {
	if len(ts) == 0 {
		return ""
	}
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%s (%s: %s)", t.Name, t.Kind, t.Why))
	}
	return "; listed, but not run natively: " + strings.Join(out, ", ")
}
