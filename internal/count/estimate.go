package count

import (
	"fmt"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/human"
)

// How long a count takes is estimated before it starts, from the native
// calibration: a process under callgrind takes about processStart to
// start and end (Valgrind, the Go runtime, the worker's dirty heap, the
// code's first translation) and runs what it counts about slowdown times
// slower than natively (slowdownCacheSim with the cache simulation); a
// go test benchmark's worker adds testRequest a counted request (testing
// runs the benchmark function anew for each, and collects garbage
// first). The figures are this project's measurements
// (docs/design/counted.md, "Planning a count: where its constants come
// from"); a count says its estimate when it starts, and
// its progress lines scale what is left by how the finished processes
// compared with theirs.
const (
	processStart     = time.Second
	slowdown         = 60
	slowdownCacheSim = 120
	testRequest      = 80 * time.Millisecond
)

// MinProcesses is the fewest processes a budget cuts a count to: a
// count gates only with at least 3 processes a side (compare's rule for
// counts), since the processes are the replicates of the t-test.
const MinProcesses = 3

// jobTime is the estimated time of one counted process.
func (r *run) jobTime(j *job) time.Duration {
	f := float64(slowdown)
	if r.o.Callgrind.CacheSim {
		f = slowdownCacheSim
	}
	return processStart + time.Duration(f*j.plan.cost(r.o.Blocks)) + time.Duration(j.plan.testRequests(r.o.Blocks))*testRequest
}

// estimate is how long jobs take, run in their order Jobs at a time,
// each starting when a slot frees: the longest a slot is busy.
func (r *run) estimate(jobs []*job) time.Duration {
	slots := make([]time.Duration, max(r.o.Jobs, 1))
	for _, j := range jobs {
		i := slices.Index(slots, slices.Min(slots))
		slots[i] += r.jobTime(j)
	}
	return slices.Max(slots)
}

// fit cuts the count to what Settings.Budget allows, by the estimate of
// the jobs that jobsFor makes with them: first the blocks of each
// benchmark in a process (down to 1: blocks of one process hardly vary),
// then, unless Settings.FixedProcesses, the processes (down to
// MinProcesses: they are the replicates). It sets Processes and Blocks
// to the first plan whose estimate fits, or to the least one, and
// returns the jobs of that plan, its estimate, and a sentence for the
// report and progress when it cut anything or could not fit (empty
// otherwise).
func (r *run) fit(jobsFor func() []*job) ([]*job, time.Duration, string) {
	jobs := jobsFor()
	est := r.estimate(jobs)
	budget := r.o.Budget
	if budget <= 0 || est <= budget {
		return jobs, est, ""
	}
	procs, blocks, allocBlocks := r.o.Processes, r.o.Blocks, r.o.AllocBlocks
	least := MinProcesses
	if r.o.FixedProcesses {
		least = procs
	}
	for est > budget && (r.o.AllocBlocks > r.o.Blocks || r.o.Blocks > 1 || r.o.Processes > least) {
		switch {
		case r.o.AllocBlocks > r.o.Blocks:
			r.o.AllocBlocks--
		case r.o.Blocks > 1:
			r.o.Blocks--
			r.o.AllocBlocks = r.o.Blocks
		default:
			r.o.Processes--
		}
		jobs = jobsFor()
		est = r.estimate(jobs)
	}
	plan := fmt.Sprintf("%s of %s each", human.Plural(r.o.Processes, "process", "processes"), human.Plural(r.o.Blocks, "block", "blocks"))
	was := fmt.Sprintf("%d of %d", procs, blocks)
	if est > budget {
		if r.o.Processes == procs && r.o.Blocks == blocks && r.o.AllocBlocks == allocBlocks {
			return jobs, est, fmt.Sprintf("the count is expected to take about %s, more than the budget (%s), and cannot be cut: it counts %s", round(est), budget, plan)
		}
		return jobs, est, fmt.Sprintf("the count is expected to take about %s even at its least (%s, instead of %s), more than the budget (%s): counting at that", round(est), plan, was, budget)
	}
	return jobs, est, fmt.Sprintf("counting %s (instead of %s) to fit the budget (%s): expected about %s; fewer processes give wider intervals", plan, was, budget, round(est))
}

// round rounds an estimate for people: to the second, or to 10 s past
// two minutes.
func round(d time.Duration) time.Duration {
	if d >= 2*time.Minute {
		return d.Round(10 * time.Second)
	}
	return d.Round(time.Second)
}
