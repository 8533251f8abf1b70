package ab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
)

// task is one benchmark measured in every round: each visit is a block of
// every worker (base, head and, with the A/A check, the second base
// worker), adjacent in time. The head is compared with the base, and the
// second base worker with the base (the A/A check), pair by pair.
type task struct {
	bench int // index into the common benchmarks
	// n is the iterations of one block, the same in every worker, and pre
	// the untimed iterations before it.
	n, pre int
	// reps is how many visits the task gets per round.
	reps int
}

// step is one visit of a task: a block of each worker, adjacent in time,
// in the order given (indexes into the run's workers: wBase, wHead,
// wBase2).
type step struct {
	task  int
	order []int
}

// orders2 and orders3 are the block orders of a visit, used in turn. With
// two workers the order flips from one visit to the next (ABBA). With the
// second base worker of the A/A check, the six orders of three are used
// in turn, arranged so that the base still precedes the head in every
// other visit, and over six visits every worker takes every position
// twice.
var (
	orders2 = [][]int{{wBase, wHead}, {wHead, wBase}}
	orders3 = [][]int{
		{wBase, wHead, wBase2}, {wHead, wBase, wBase2},
		{wBase, wBase2, wHead}, {wHead, wBase2, wBase},
		{wBase2, wBase, wHead}, {wBase2, wHead, wBase},
	}
)

// schedule returns round's steps: every task reps times, in an order
// shuffled afresh by rng; the j-th visit (from 0) of a task in round k
// uses orders[(k+j) % len(orders)], so the base runs before the head iff
// k+j is even. A task with one visit per round therefore alternates round
// by round, and one with an even number of visits is balanced within every
// round.
func schedule(tasks []task, round int, workers int, rng *rand.Rand) []step {
	orders := orders2
	if workers == 3 {
		orders = orders3
	}
	var steps []step
	for i, t := range tasks {
		for range max(t.reps, 1) {
			steps = append(steps, step{task: i})
		}
	}
	rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	seen := make([]int, len(tasks))
	for i := range steps {
		t := steps[i].task
		steps[i].order = orders[(round+seen[t])%len(orders)]
		seen[t]++
	}
	return steps
}

// blockIterations sizes a block to about target of work at nsPerOp,
// at least one iteration, and at most what keeps the block's garbage
// under bound (bytesPerOp > 0).
func blockIterations(target time.Duration, nsPerOp, bytesPerOp float64, bound int64) int {
	n := max(1, int(math.Round(float64(target)/max(nsPerOp, 1))))
	if bytesPerOp > 0 && bound > 0 {
		n = min(n, max(1, int(float64(bound)/bytesPerOp)))
	}
	return n
}

// planReps decides how many pairs each task gets per round. pairCost[i] is
// the time one pair of task i takes (both blocks and their overhead). Every
// task gets about the same time t per round, except those whose single pair
// already takes longer (they get one pair): t is chosen by water-filling so
// that targetRounds rounds fill the time available, then held between
// minShare and maxShare — short rounds keep the interleaving fine, and a
// cap keeps cheap benchmarks from crowding out expensive ones when the
// budget is generous (the run then simply does more rounds).
func planReps(pairCost []time.Duration, available time.Duration, targetRounds int, minShare, maxShare time.Duration) []int {
	costs := make([]float64, len(pairCost))
	for i, c := range pairCost {
		costs[i] = float64(c)
	}
	t := bench.WaterLevel(costs, float64(available)/float64(max(targetRounds, 1)))
	t = min(max(t, float64(minShare)), float64(maxShare))
	reps := make([]int, len(pairCost))
	for i, c := range costs {
		reps[i] = max(1, int(math.Round(t/max(c, 1))))
	}
	return reps
}

// task sizes benchmark i's blocks: about a Block of work (a
// ParallelBlock for one that calls RunParallel), at most what keeps a
// block's garbage under GCBound, with Pre of it run untimed before
// (blocks of fewer than 4 iterations have none).
func (r *run) task(i int) task {
	block := r.opts.Block
	if r.parallel(r.names[i]) {
		block = r.opts.ParallelBlock
	}
	n := blockIterations(block, r.nsPerOp[i], r.bytesOp[i], r.opts.GCBound)
	pre := 0
	if n >= 4 && r.opts.Pre > 0 {
		pre = int(math.Round(float64(n) * r.opts.Pre))
	}
	return task{bench: i, n: n, pre: pre}
}

// parallel reports whether either build's worker says the benchmark
// name calls RunParallel.
func (r *run) parallel(name string) bool {
	for _, w := range r.ws[:wHead+1] {
		if p, ok := w.(ParallelWorker); ok && p.Parallel(name) {
			return true
		}
	}
	return false
}

// plan sets every task's visits per round for the time available, or to
// fixed when fixed > 0, and says what the plan amounts to. Before any
// visit, a visit's cost is modelled: its blocks' work at the warm-up's
// time per operation, plus Overhead per block.
func (r *run) plan(available time.Duration, fixed int) {
	if fixed > 0 {
		for i := range r.tasks {
			r.tasks[i].reps = fixed
		}
		return
	}
	k := time.Duration(len(r.ws))
	cost := make([]time.Duration, len(r.tasks))
	for i, t := range r.tasks {
		cost[i] = k * (time.Duration(float64(t.n+t.pre)*r.nsPerOp[t.bench]) + r.opts.Overhead)
	}
	round := r.setReps(cost, available)
	r.chatterf(true, "plan: %s", r.planText(round, available))
	if rounds := int(available / max(round, 1)); rounds < r.opts.MinRounds && r.opts.Rounds == 0 {
		r.progressf(true, "the budget fits fewer than %d rounds: the run will take longer (about %s)", r.opts.MinRounds, (time.Duration(r.opts.MinRounds) * round).Round(time.Second))
	}
}

// replan redoes the plan, once, after the first round, for the time left
// until replanUntil, from what each task's visits took (r.spent): the
// model of plan leaves out what a visit costs beyond its blocks' work
// (round trips, memory statistics, the collections a block sets off, a
// go test benchmark running its function once more before every block),
// which measured 2.2 times the model's round on a package of 100 small
// benchmarks and made the run overrun its budget. It returns the round's
// predicted duration under the new plan (what the next round is expected
// to take), or last, the first round's, when nothing was measured.
func (r *run) replan(last time.Duration) time.Duration {
	until := r.replanUntil
	r.replanUntil = time.Time{}
	cost := make([]time.Duration, len(r.tasks))
	for i := range r.tasks {
		if r.visited[i] == 0 {
			return last
		}
		cost[i] = r.spent[i] / time.Duration(r.visited[i])
	}
	available, was := time.Until(until), r.planned
	round := r.setReps(cost, available)
	r.chatterf(true, "re-planned from the first round's visits (%s, planned %s): %s", last.Round(time.Millisecond), was.Round(time.Millisecond), r.planText(round, available))
	return round
}

// setReps sets every task's visits per round for the time available from
// cost, the time one visit of each task takes, and returns the round's
// duration that makes (also kept as r.planned).
func (r *run) setReps(cost []time.Duration, available time.Duration) time.Duration {
	k := time.Duration(len(r.ws))
	reps := planReps(cost, available, r.opts.TargetRounds, k*(r.opts.Block+r.opts.Overhead), r.opts.MaxShare)
	var round time.Duration
	for i := range r.tasks {
		r.tasks[i].reps = reps[i]
		round += time.Duration(reps[i]) * cost[i]
	}
	r.planned = round
	return round
}

// planText says what the tasks' visits per round amount to: a round's
// length, the range of visits, and the rounds that fit in available.
func (r *run) planText(round, available time.Duration) string {
	lo, hi := math.MaxInt, 0
	for _, t := range r.tasks {
		lo, hi = min(lo, t.reps), max(hi, t.reps)
	}
	return fmt.Sprintf("rounds of about %s (%d to %d visits a benchmark), about %d rounds in %s",
		round.Round(time.Millisecond), lo, hi, int(available/max(round, 1)), available.Round(time.Second))
}
