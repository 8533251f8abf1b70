package check

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/results"
)

// countPair compares the head build against the base build by their counted
// work (count.Pair): every benchmark both builds have, in blocks of the
// base's sizes, in Settings.Processes fresh processes of each under
// callgrind; the two sets of processes are compared with compare.Compare,
// where a counted metric is tested on the processes, process k of the
// base with process k of the head, which had the same seed
// (compare.TestPairedT), and sizes and allocations exactly. What that flags
// is counted again in as many fresh processes of each build and judged
// on all of them (settle, the one confirmation rule) before it fails the run or is claimed. why
// says why the run was made this way, for the report.
//
// Counts do not depend on what runs beside them, so unlike the timed
// comparison (ab.Run) there is no pairing in time, no generations and no
// A/A check: the processes are the replicates, and the test's spread is
// theirs.
func countPair(ctx context.Context, base, head count.Build, o count.Options, opts compare.Options, why string) (*ab.Outcome, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	p, err := count.NewPair(ctx, base, head, o)
	if err != nil {
		return nil, err
	}
	var out *ab.Outcome
	if common, _, _ := p.Benchmarks(); len(common) == 0 {
		// A shard's part with nothing both builds have: what it listed
		// and the troubles are still its part of the merge.
		out = &ab.Outcome{Result: &compare.Result{Options: opts}}
		out.Base, out.Head = p.None()
	} else if out, err = judgeCounts(ctx, p, opts); err != nil {
		return nil, err
	}
	if o.Select != nil {
		out.ListedBase, out.ListedHead = p.Listed()
	}
	res := out.Result
	_, res.Missing, res.New = p.Benchmarks()
	res.NoteTroubles(out.Base, out.Head)
	res.Method = compare.MethodCounted
	res.Why = why
	out.Base.Settings.Elapsed, out.Head.Settings.Elapsed = p.Elapsed(), p.Elapsed()
	out.Elapsed = p.Elapsed()
	// The processes every benchmark not settled early was counted in.
	out.Rounds = p.Processes()
	if c := out.Head.Settings.Counter; c != nil && c.Processes > 0 {
		out.Rounds = c.Processes
	}
	out.Generations = out.Rounds
	return out, nil
}

// counts is what judgeCounts counts with: count.Pair, or a simulation of
// it.
type counts interface {
	// Count counts every benchmark in the first processes of each build.
	Count(ctx context.Context) (base, head *results.Results, err error)
	// Rest counts the benchmarks names in the processes Count left out
	// (nil results when there are none).
	Rest(ctx context.Context, names []string) (base, head *results.Results, err error)
	// Again counts the benchmarks names in as many fresh processes again;
	// More does the same for benchmarks whose verdict the plan left open
	// (nil results when it counts none).
	Again(ctx context.Context, names []string) (base, head *results.Results, err error)
	More(ctx context.Context, names []string) (base, head *results.Results, err error)
	// First and Processes are the processes of each build Count counts
	// in and the plan's number.
	First() int
	Processes() int
}

// judgeCounts counts in stages and judges: every benchmark in the first
// processes of each build; the benchmarks those do not settle
// (unsettled: a gated metric whose interval still straddles the floor)
// in the rest of the plan's; those still open after the plan in as many
// fresh processes again (open); then the counted changes again in as
// many fresh processes (settle). A benchmark settled early is judged on
// its first processes, with the run's confidence: its interval at
// compare.SettleConfidence was inside the floor, or clear of it and its
// change significant, so at a lower level it is too; a change settled
// early is counted again before it fails, as any other.
func judgeCounts(ctx context.Context, p counts, opts compare.Options) (*ab.Outcome, error) {
	return judgeStaged(ctx, p, opts, unsettled)
}

// stageWatcher is told what each stage of judgeCounts judged, when the
// counts it counts with implement it (the simulation of the stages, for
// the false alarms and power of each): stage "first" (the first
// processes, at compare.SettleConfidence), "plan" (the plan's), "beyond"
// (with the open ones counted beyond it) and "confirmed" (what the run
// reports, the confirmation settled).
type stageWatcher interface {
	judged(stage string, res *compare.Result)
}

// judgeStaged is judgeCounts with the rule left that picks the
// benchmarks the first processes leave open (unsettled, or in the
// simulation the rule before it).
func judgeStaged(ctx context.Context, p counts, opts compare.Options, unsettled func(*compare.Result) []string) (*ab.Outcome, error) {
	watch := func(string, *compare.Result) {}
	if w, ok := p.(stageWatcher); ok {
		watch = w.judged
	}
	out := &ab.Outcome{}
	var err error
	if out.Base, out.Head, err = p.Count(ctx); err != nil {
		return nil, err
	}
	res, err := compare.Compare(out.Base, out.Head, opts)
	if err != nil {
		return nil, err
	}
	if p.First() < p.Processes() {
		early := opts
		early.Confidence = compare.SettleConfidence
		first, err := compare.Compare(out.Base, out.Head, early)
		if err != nil {
			return nil, err
		}
		watch("first", first)
		left := unsettled(first)
		processes := p.First()
		if len(left) > 0 {
			all, err := recount(ctx, out, p.Rest, left, opts)
			if err != nil {
				return nil, err
			}
			if all != nil {
				res, processes = all, p.Processes()
			}
		}
		eachCounter(out, func(c *results.Counter) {
			c.Processes, c.First, c.Settled = processes, p.First(), countedBenchmarks(first)-len(left)
		})
	}
	watch("plan", res)
	if names := open(res, p.Processes(), opts.Threshold, opts.Confidence); len(names) > 0 {
		all, err := recount(ctx, out, p.More, names, opts)
		if err != nil {
			return nil, err
		}
		if all != nil {
			res = all
			eachCounter(out, func(c *results.Counter) { c.Further = len(names) })
		}
	}
	watch("beyond", res)
	if names := confirmables(res); len(names) > 0 {
		judgedBase, judgedHead := out.Base.Clone(), out.Head.Clone()
		again := func(ctx context.Context, names []string) (*results.Results, *results.Results, error) {
			b, h, err := p.Again(ctx, names)
			if b != nil {
				out.AgainBase, out.AgainHead = b.Clone(), h.Clone()
			}
			return b, h, err
		}
		all, err := recount(ctx, out, again, names, opts)
		if err != nil {
			return nil, err
		}
		if all != nil {
			out.JudgedBase, out.JudgedHead = judgedBase, judgedHead
			_, _, used := settle(res, all)
			out.Confirmations = append(out.Confirmations, used...)
			out.ConfirmRounds = p.Processes()
		}
	}
	watch("confirmed", res)
	out.Result = res
	return out, nil
}

// recount counts the benchmarks names in further processes of both
// builds (stage: counts.Rest, More or Again), joins them to out's
// results (results.AddProcesses) and compares all of them; nil when the
// stage counted none.
func recount(ctx context.Context, out *ab.Outcome, stage func(context.Context, []string) (*results.Results, *results.Results, error), names []string, opts compare.Options) (*compare.Result, error) {
	b, h, err := stage(ctx, names)
	if err != nil || b == nil {
		return nil, err
	}
	out.Base.AddProcesses(b)
	out.Head.AddProcesses(h)
	return compare.Compare(out.Base, out.Head, opts)
}

// eachCounter calls f with the counter settings of both builds' results,
// where they have them.
func eachCounter(out *ab.Outcome, f func(*results.Counter)) {
	for _, r := range []*results.Results{out.Base, out.Head} {
		if c := r.Settings.Counter; c != nil {
			f(c)
		}
	}
}

// unsettled are the benchmarks of res (the first processes, compared at
// compare.SettleConfidence), by key, whose verdict more processes could
// still change: a benchmark is open while one of its comparisons is
// (settled is false). What is settled is not counted further, whichever
// way it went: a clear change is counted again only to confirm it
// (confirmables), and a metric that does not gate, however noisy, does
// not hold the others open.
func unsettled(res *compare.Result) []string {
	m := tested(res)
	var names []string
	for _, c := range res.Comparisons {
		if !settled(res, c, m) && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

// settled reports whether c, one comparison of res, needs no more
// processes for its verdict:
//
//   - an exact one (the encoded size, an allocation count every process
//     agreed on), judged exactly;
//   - a noisy one that does not gate (reported beside the gating unit,
//     counted differently) for a reason more processes would not change:
//     one counted in fewer than compare.MinProcesses a side is open;
//   - unchanged: its interval inside the floor;
//   - a counted change whose interval lies wholly past the floor and
//     whose change is significant (compare.Decide: a regression or
//     improvement) whatever the other comparisons' p-values: its own
//     times m, the comparisons adjusted with it, below alpha (Holm's
//     adjusted p-value, and Benjamini-Hochberg's, are at most that), so
//     that the other benchmarks' further processes cannot take its
//     verdict away when the run is judged on all of them.
//
// Anything else (an interval that straddles the floor, a change
// significant but not clear of it, no test at all) is open.
func settled(res *compare.Result, c compare.Comparison, m int) bool {
	if c.Kind != compare.Noisy {
		return true
	}
	if !res.Enforced(c) {
		return c.Baseline.N >= compare.MinProcesses && c.Candidate.N >= compare.MinProcesses
	}
	t := res.Options.Threshold
	switch c.Verdict {
	case compare.Unchanged:
		return true
	case compare.Regression, compare.Improvement:
		return c.Counted() && (c.Lo > 1+t || c.Hi < 1-t) && c.P*float64(m) < res.Options.Alpha
	}
	return false
}

// tested is how many comparisons of res gate with a p-value: the family
// its gating p-values were adjusted in.
func tested(res *compare.Result) int {
	m := 0
	for _, c := range res.Comparisons {
		if c.Kind == compare.Noisy && res.Enforced(c) && !math.IsNaN(c.P) {
			m++
		}
	}
	return m
}

// open are the benchmarks of res, by key, counted in the plan's
// processes (not fewer: a costly benchmark stays at its own number) whose
// count is still inconclusive there (its interval straddles the floor,
// or an estimate beyond it is not significant) and that as many
// processes again could settle: judgeCounts counts them beyond the plan
// and judges them on all. Whether they could is judged by the interval's
// half-width shrunk as twice the processes would shrink it at the same
// spread (by √2 and the t quantile of the larger degrees of freedom):
// it would lie inside the floor or clear of it. A count whose spread
// twice the processes cannot overcome (a bimodal one, msgpack's float
// encoding: 15% wide after 5) is left inconclusive, not counted on.
func open(res *compare.Result, processes int, floor, confidence float64) []string {
	q := func(df float64) float64 {
		return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - (1-confidence)/2)
	}
	var names []string
	for _, c := range res.Comparisons {
		if !c.Counted() || c.Verdict != compare.Inconclusive || c.Baseline.N < processes || c.Candidate.N < processes || slices.Contains(names, c.Name) {
			continue
		}
		df := float64(c.Baseline.N + c.Candidate.N - 2)
		if c.Test == compare.TestPairedT {
			df = float64(min(c.Baseline.N, c.Candidate.N) - 1)
		}
		if df < 1 || math.IsNaN(c.Lo) || math.IsNaN(c.Hi) || math.IsInf(c.Hi, 0) {
			continue
		}
		half := (c.Hi - c.Lo) / 2 * q(2*df+1) / q(df) / math.Sqrt2
		mid := math.Abs((c.Hi+c.Lo)/2 - 1)
		if mid+half < floor || mid-half > floor {
			names = append(names, c.Name)
		}
	}
	return names
}

// countedBenchmarks is how many benchmarks res compares.
func countedBenchmarks(res *compare.Result) int {
	var names []string
	for _, c := range res.Comparisons {
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return len(names)
}
