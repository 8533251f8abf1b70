package check

import (
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// Harness is how long and how often a run measures: the harness settings
// a check can take from its baseline.
type Harness struct {
	Budget  time.Duration
	Samples int
}

// MeasureLike is what a check against the reference ref measures with:
// each of the budget and samples the user gave (non-zero in given), else
// the one ref was measured with, else fallback's; with a note for the
// report when the baseline's were taken. Timings depend on the batch sizes
// these settings choose, so a candidate measured otherwise is reported,
// not enforced (compare.TimingGate); taking the baseline's by default is
// what keeps a check comparable without the user knowing them.
func MeasureLike(ref *results.Results, given, fallback Harness) (Harness, string) {
	m := fallback
	var taken []string
	switch {
	case given.Budget > 0:
		m.Budget = given.Budget
	case ref != nil && ref.Settings.Budget > 0:
		m.Budget = ref.Settings.Budget
		taken = append(taken, "budget "+m.Budget.String())
	}
	switch {
	case given.Samples > 0:
		m.Samples = given.Samples
	case ref != nil && ref.Settings.Samples > 0:
		m.Samples = ref.Settings.Samples
		taken = append(taken, human.Plural(m.Samples, "sample", "samples"))
	}
	if len(taken) == 0 {
		return m, ""
	}
	note := "Measured with the baseline's " + strings.Join(taken, " and ")
	if m.Budget == ref.Settings.Budget && m.Samples == ref.Settings.Samples {
		note += ", so that its timings are comparable with the baseline's"
	}
	return m, note + "."
}

// Plan is how c says to measure, with progress on h's.
func Plan(h Host, c *config.Config, ab bool) source.Plan {
	return source.Plan{
		Budget: c.MeasureBudget(ab), Samples: c.MeasureSamples(), Filter: c.Filter, Seed: c.Seed, Shard: c.Shard,
		Progress: h.Progress(), Verbose: c.Verbose, Getenv: h.Getenv,
	}
}

// PlanLike is Plan for measuring against the stored reference ref (nil:
// none): the budget and samples c does not give are ref's (MeasureLike),
// with the note that says so, if any.
func PlanLike(h Host, c *config.Config, ref *results.Results) (source.Plan, string) {
	p := Plan(h, c, false)
	p.Reference = ref
	m, note := MeasureLike(ref, Harness{Budget: c.Budget, Samples: c.Samples}, Harness{Budget: p.Budget, Samples: p.Samples})
	p.Budget, p.Samples = m.Budget, m.Samples
	p.Known = knownHashes(c, ref)
	return p, note
}

// knownHashes is the stored reference's package hashes a check may skip
// packages by (source.Plan.Known): those of a go test reference of the
// same --bench, or of an embedded suite reference of the same --filter
// (its one hash, the wirebench executable's: source.SuitePackage),
// unless c measures all.
func knownHashes(c *config.Config, ref *results.Results) map[string]string {
	switch {
	case ref == nil || c.MeasureAll:
		return nil
	case c.Bench != "" && ref.Suite == source.GoTestSuite && ref.Settings.Filter == c.Bench:
		return ref.Hashes
	case c.Bench == "" && ref.Suite == bench.SuiteName && ref.Settings.Filter == c.Filter:
		return ref.Hashes
	}
	return nil
}
