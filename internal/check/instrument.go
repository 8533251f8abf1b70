package check

import (
	"context"
	"fmt"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/cpus"
	"github.com/wirebench/wirebench/internal/results"
)

// Instrument resolves the metric setting of c into how to measure: nil to
// time, or how to count under callgrind; with a note for the report when
// auto chose, or could not count. ref, when not nil, is the stored
// reference a check is judged against: auto takes its metric (a check
// measures what its baseline measured, as it takes its budget and
// samples), and a counted run keeps its block sizes and processes.
//
// An explicit counted metric without a working valgrind is one error
// naming the install command; auto then times, and says so. clock says
// the run times beside a count under auto (clocked: an A/B comparison,
// a check or an update), which takes the budget setting.
func Instrument(ctx context.Context, c *config.Config, ref *results.Results, clock bool) (*count.Settings, string, error) {
	metric := c.Metric
	var note string
	if auto(c) {
		switch {
		case ref != nil && ref.Settings.Counter != nil && ref.Settings.Counter.CacheSim:
			metric, note = config.MetricCycles, "Counted est-cycles/op, as the baseline was (metric auto)."
		case ref != nil && ref.Settings.Counter != nil:
			metric, note = config.MetricInstructions, "Counted instructions/op, as the baseline was (metric auto)."
		case ref != nil && refTimed(ref):
			return nil, "Timed, as the baseline was (metric auto): a baseline stored with metric auto where valgrind runs counts instructions, which this machine's noise does not move.", nil
		default:
			metric = config.MetricInstructions
		}
		if _, err := callgrind.Find(ctx); err != nil {
			return nil, fmt.Sprintf("Timed, not counted (metric auto): %v.", err), nil
		}
	}
	if metric == config.MetricTime {
		return nil, note, nil
	}
	vg, err := callgrind.Find(ctx)
	if err != nil {
		return nil, "", badInputf("--metric %s counts under valgrind: %v", metric, err)
	}
	ct := &count.Settings{Valgrind: vg, Callgrind: callgrind.Options{CacheSim: metric == config.MetricCycles}, Processes: c.Processes, Seed: c.Seed}
	ct.Jobs, ct.JobsWhy = cpus.Job()
	// A budget given bounds the count, unless the run times beside it
	// (metric auto in ab, check, update): then it is the wall-time
	// check's. The count is cut to fit by its estimate (count.Settings.Budget).
	if c.Given("budget") && !(clock && auto(c)) {
		ct.Budget, ct.FixedProcesses = c.Budget, c.Given("processes")
	}
	// Processes given are every benchmark's; by default the costly ones
	// get fewer (count.DefaultCostlyProcesses).
	ct.CostlyProcesses = c.Processes
	if ref != nil && ref.Settings.Counter != nil {
		if ct.Processes == 0 {
			ct.Processes = ref.Settings.Counter.Processes
		}
		ct.Iterations = blockSizes(ref)
	}
	return ct, note, nil
}

// refTimed reports whether ref holds timings.
func refTimed(ref *results.Results) bool {
	for _, b := range ref.Benchmarks {
		if b.Metric(results.UnitNsPerOp) != nil {
			return true
		}
	}
	return false
}

// blockSizes are the block sizes of a counted run's benchmarks, by key:
// those whose processes all counted one size.
func blockSizes(r *results.Results) map[string]int {
	out := map[string]int{}
	for _, b := range r.Benchmarks {
		if len(b.Iterations) == 0 {
			continue
		}
		n := b.Iterations[0]
		same := true
		for _, x := range b.Iterations {
			same = same && x == n
		}
		if same && n > 0 {
			out[b.Key()] = int(n)
		}
	}
	return out
}

// clocked reports whether a run counted as ct also times natively beside
// the count (an A/B comparison both builds, a check or an update its
// benchmarks): metric auto (an explicit counted metric counts only).
func clocked(c *config.Config, ct *count.Settings) bool { return ct != nil && auto(c) }

// auto reports whether c leaves the metric to wirebench.
func auto(c *config.Config) bool { return c.Metric == "" || c.Metric == config.MetricAuto }

// CountedOptions are the comparison's options for a run counted as ct
// (nil: timed, o as it is): the counted unit that gates, and the counted
// effect floor unless the threshold setting gives one.
func CountedOptions(c *config.Config, o compare.Options, ct *count.Settings) compare.Options {
	if ct == nil {
		return o
	}
	return countedUnitOptions(c, o, ct.Callgrind.CacheSim)
}

// CountedResultsOptions are CountedOptions for two runs read from files
// (compare): when both were counted, the unit the candidate's counter
// gates on (est-cycles/op when it simulated the cache) and the counted
// effect floor, as the check that measured them used; otherwise o as it
// is. Without it, two counted runs would be judged against the timings'
// 5%, and a count that moved +1.5% [+0.9%, +2.1%] called unchanged.
func CountedResultsOptions(c *config.Config, o compare.Options, base, cand *results.Results) compare.Options {
	if base == nil || cand == nil || base.Settings.Counter == nil || cand.Settings.Counter == nil {
		return o
	}
	return countedUnitOptions(c, o, cand.Settings.Counter.CacheSim)
}

// countedUnitOptions sets the counted unit that gates and, unless the
// threshold setting gives one, the counted effect floor.
func countedUnitOptions(c *config.Config, o compare.Options, cacheSim bool) compare.Options {
	o.CountedUnit = results.UnitInstructionsPerOp
	if cacheSim {
		o.CountedUnit = results.UnitEstCyclesPerOp
	}
	if c.Threshold < 0 {
		o.Threshold = config.CountedThreshold
	}
	return o
}
