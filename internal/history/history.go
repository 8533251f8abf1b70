// Package history reads a baseline's history as series, one per
// benchmark and unit, one point per stored run (a process, never the
// samples within one), and finds the change points in them
// (internal/changepoint): where a benchmark's size, allocations, timing or
// any other metric stepped, at which run, by how much, whether the pull
// request merged there accepted it, and whether the push being reported
// is the first to see it. It also measures creep: how far each count
// moved since a reference run (a release, or some runs back) by steps
// none of which was a change point.
//
// Each series has a model by the kind of its metric (Model), read from
// its unit and from what the runs recorded, with no list of known units
// beyond the results package's kinds:
//
//   - Exact: the encoded size, and any metric (an allocation count) whose
//     samples agreed within every run. Any change between consecutive
//     runs is a step, found on the push that made it; no test, so no
//     false step and no share of the family's alpha.
//   - Counted: counts of executed instructions (and simulated cycles),
//     which move between runs by hundredths of a percent: each run is
//     tested as it arrives (changepoint.Steps), so that a step beyond the
//     effect floor is found by the first or second run after it (or a
//     later one, when few runs came before it and the family is large).
//   - EDivisive: timings and every other metric that varies, whose tails
//     are heavy: E-divisive means with a permutation test
//     (changepoint.Detect), from the 3rd to 5th run after a step.
//
// The series of the two statistical models that vary are the family: the
// level of each series' tests is Alpha divided by their number
// (Bonferroni), and a counted series divides its share again over its
// tests of a push (a step at the latest run, one at the first of the
// latest runs beyond the floor, the creep), so that the chance of any false change point or creep on a
// push, over the whole suite, stays below Alpha.
package history

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/changepoint"
	"github.com/wirebench/wirebench/internal/results"
)

// MinSize is the fewest runs on either side of an E-divisive change
// point. With three, a change is found once three runs measured it (if
// the test's level allows: see Options); fewer would let two unlucky runs
// in a row at the end look like a step far too often for the level to be
// reached anyway.
const MinSize = 3

// DefaultAlpha is the chance of any false change point (or creep) on a
// push when Options.Alpha is 0: the alpha of the comparisons.
const DefaultAlpha = 0.01

// Model is how a series' steps are found, by the kind of its metric.
type Model string

// The models.
const (
	Exact     Model = "exact"
	Counted   Model = "counted"
	EDivisive Model = "e-divisive"
)

// Series is one benchmark's metric over the runs of a history.
type Series struct {
	Key  string // the benchmark (baseline.Entry.Medians' key)
	Unit string
	// Runs are the indexes in the history of the runs that measured it,
	// oldest first, and Values their medians.
	Runs   []int
	Values []float64
	// Spread is each run's spread of its samples (baseline.Entry.Spread),
	// NaN where the run recorded none.
	Spread []float64
	// Model is how its steps are found.
	Model Model
}

// Varies reports whether the series has two different values.
func (s Series) Varies() bool {
	for _, v := range s.Values {
		if v != s.Values[0] {
			return true
		}
	}
	return false
}

// SeriesOf returns every series of h, by key and unit, each with its
// model.
func SeriesOf(h []baseline.Entry) []Series {
	type id struct{ key, unit string }
	byID := map[id]*Series{}
	for i, e := range h {
		for key, units := range e.Medians {
			for unit, v := range units {
				s := byID[id{key, unit}]
				if s == nil {
					s = &Series{Key: key, Unit: unit}
					byID[id{key, unit}] = s
				}
				sp, ok := e.Spread[key][unit]
				if !ok {
					sp = math.NaN()
				}
				s.Runs, s.Values, s.Spread = append(s.Runs, i), append(s.Values, v), append(s.Spread, sp)
			}
		}
	}
	ids := slices.SortedFunc(maps.Keys(byID), func(a, b id) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.unit, b.unit))
	})
	out := make([]Series, len(ids))
	for i, k := range ids {
		out[i] = *byID[k]
		out[i].Model = modelOf(out[i])
	}
	return out
}

// modelOf is the model of s: counted for a count; exact for the encoded
// size, and for a metric that is neither a timing nor a count whose
// every run recorded that its samples agreed (a spread of 0); E-divisive
// for everything else (timings, and metrics that vary within a run or
// whose runs did not say).
func modelOf(s Series) Model {
	switch {
	case results.IsCounted(s.Unit):
		return Counted
	case results.IsExact(s.Unit):
		return Exact
	case !baseline.Spreads(s.Unit):
		return EDivisive
	}
	for _, sp := range s.Spread {
		if sp != 0 {
			return EDivisive
		}
	}
	return Exact
}

// ChangePoint is a step in a series.
type ChangePoint struct {
	Key, Unit string
	// Model is how the step was found.
	Model Model
	// Run is the index in the history of the first run after the step;
	// Commit and Time are that run's, PullRequests the pull requests its
	// commit merged (when the run recorded them).
	Run          int
	Commit       string
	Time         time.Time
	PullRequests []int
	// Before and After are the medians of the runs on either side (up to
	// the neighbouring change points); Step is After/Before − 1.
	Before, After, Step float64
	// P is the test's p-value, at the level Analysis.Level (Counted:
	// Analysis.CountedLevel); 0 for an exact step, which needs none.
	P float64
	// Runs is how many runs after a counted step its test saw (1: a step
	// too large for the runs' noise to explain; 2: one confirmed by the
	// next run); 0 for the other models.
	Runs int
	// Accepted is the acceptance recorded with the first run after the
	// step (or a run next to it: the estimate of where a step starts can
	// be one run off) that names this benchmark; nil when none does.
	Accepted *accept.Acceptance
	// Environment lists what differed between the runs on either side of
	// the step besides the code: the CPU, the Go version, the machine,
	// the harness settings (a count's counter among them), an exact
	// metric's batch sizes. A step with one is not the code's for sure.
	Environment []string
	// New is set when the history before the push being reported showed
	// no change point of this series at (or next to) this run: this push
	// is the first to see it.
	New bool
}

// Explained reports whether the step is accepted or comes with a change
// of the environment.
func (c ChangePoint) Explained() bool { return c.Accepted != nil || len(c.Environment) > 0 }

// Options tune Analyze.
type Options struct {
	// Alpha is the chance of any false change point (or creep) on a push
	// in the whole history (all its series), DefaultAlpha when 0.
	Alpha float64
	// Seed seeds the permutation tests (with each series' key and unit).
	Seed uint64
	// Floor is the effect floor of a counted step (relative: 0.01 is
	// 1%), DefaultFloor when 0: a smaller step is no change point,
	// however certain, and may add up to a creep.
	Floor float64
	// Creep says how creep is looked for; a zero Limit looks for none.
	Creep CreepOptions
}

// DefaultFloor is a counted step's effect floor when Options.Floor is 0:
// the counted comparisons' threshold.
const DefaultFloor = 0.01

// Analysis is the change points of a history.
type Analysis struct {
	Runs   int      // runs in the history
	Series []Series // every series, by key and unit
	// Varying is how many series of a statistical model (Counted,
	// EDivisive) vary: the family Alpha is divided over, and Level the
	// level of each such series' tests, Alpha/Varying. A counted series
	// makes CountedTests tests a push, each at CountedLevel,
	// Level/CountedTests.
	Varying      int
	Alpha        float64
	Level        float64
	CountedTests int
	CountedLevel float64
	// Floor is the effect floor of a counted step.
	Floor float64
	// Points are the change points, by key, unit and run.
	Points []ChangePoint
	// Creep is what creep was looked for and found; nil when it was not
	// looked for.
	Creep *Creeps
}

// NewPoints returns the points this push is the first to see.
func (a *Analysis) NewPoints() []ChangePoint {
	var out []ChangePoint
	for _, p := range a.Points {
		if p.New {
			out = append(out, p)
		}
	}
	return out
}

// Models counts the series of each model, and how many of them vary.
func (a *Analysis) Models() map[Model][2]int {
	out := map[Model][2]int{}
	for _, s := range a.Series {
		c := out[s.Model]
		c[0]++
		if s.Varies() {
			c[1]++
		}
		out[s.Model] = c
	}
	return out
}

// ChangeIndexes returns the indexes, in s, of the first runs after the
// change points of s: where its stretches between change points begin.
func (a *Analysis) ChangeIndexes(s Series) []int {
	var out []int
	for _, p := range a.Points {
		if p.Key == s.Key && p.Unit == s.Unit {
			if i := slices.Index(s.Runs, p.Run); i >= 0 {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestOptions are the options of a series' permutation test at level:
// what Analyze detects with (docs/experiments/changepoint-synthetic
// measures them).
func TestOptions(level float64, seed uint64) changepoint.Options {
	// Three times the shuffles the level needs: a change whose exact
	// p-value is well below the level is found whatever the draw.
	return changepoint.Options{Alpha: level, MinSize: MinSize, Permutations: int(math.Ceil(3/level)) - 1, Seed: seed}
}

// StepOptions are the options of a counted series' step tests at level
// with the effect floor: what Analyze detects with.
func StepOptions(level, floor float64) changepoint.StepOptions {
	return changepoint.StepOptions{Alpha: level, Floor: floor, MinBefore: MinBefore}
}

// MinBefore is the fewest runs since the last step a counted series'
// test compares a new run with: two give the spread one degree of
// freedom, so that a step is found from the third run of a history on.
const MinBefore = 2

// seriesSeed is the seed of a series' tests: the same for the same series
// whatever else the history holds.
func seriesSeed(seed uint64, key, unit string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", key, unit)
	return h.Sum64() ^ seed
}

// Analyze finds the change points of every series of h, each by its
// model, and the creep of its counts when o.Creep asks. previous, when
// not nil, is the history as it was before the push being reported (the
// stored one, without this run): a point is New unless previous showed
// one of its series at the same run or a run next to it (runs are
// matched by commit, time and run id, so a bounded history that dropped
// its oldest runs still lines up), and so is a creep previous did not
// show.
func Analyze(h, previous []baseline.Entry, o Options) *Analysis {
	alpha := o.Alpha
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	floor := o.Floor
	if floor <= 0 {
		floor = DefaultFloor
	}
	a := &Analysis{Runs: len(h), Series: SeriesOf(h), Alpha: alpha, Floor: floor, CountedTests: 2}
	if o.Creep.Limit > 0 {
		a.CountedTests = 3
	}
	for _, s := range a.Series {
		if s.Model != Exact && s.Varies() {
			a.Varying++
		}
	}
	if a.Varying > 0 {
		a.Level = alpha / float64(a.Varying)
		a.CountedLevel = a.Level / float64(a.CountedTests)
	}
	var prevSeries map[string]Series
	if previous != nil {
		prevSeries = map[string]Series{}
		for _, s := range SeriesOf(previous) {
			prevSeries[s.Key+"\x00"+s.Unit] = s
		}
	}
	position := map[string]int{}
	for i, e := range h {
		position[runID(e)] = i
	}
	for _, s := range a.Series {
		if !s.Varies() {
			continue
		}
		found := a.detect(s, o.Seed)
		if len(found) == 0 {
			continue
		}
		var seen []int // runs (indexes in h) where previous had a point
		if prev, ok := prevSeries[s.Key+"\x00"+s.Unit]; ok && prev.Varies() {
			prev.Model = s.Model // as the series is judged now
			for _, p := range a.detect(prev, o.Seed) {
				if i, ok := position[runID(previous[prev.Runs[p.Index]])]; ok {
					seen = append(seen, i)
				}
			}
		}
		for _, p := range found {
			run := s.Runs[p.Index]
			e := h[run]
			cp := ChangePoint{Key: s.Key, Unit: s.Unit, Model: s.Model, Run: run, Commit: e.Commit, Time: e.Time, PullRequests: e.PullRequests,
				Before: p.Before, After: p.After, Step: p.After/p.Before - 1, P: p.P, Runs: p.Runs,
				Environment: environment(h[s.Runs[p.Index-1]], e), New: previous != nil}
			if s.Model == Exact {
				cp.Environment = append(cp.Environment, batchChange(h[s.Runs[p.Index-1]], e, s)...)
			}
			if p.Before == 0 {
				cp.Step = math.Inf(1)
			}
			for _, i := range seen {
				if abs(i-run) <= 1 {
					cp.New = false
				}
			}
			cp.Accepted = acceptedNear(h, run, s.Key)
			a.Points = append(a.Points, cp)
		}
	}
	if o.Creep.Limit > 0 {
		a.Creep = a.creeps(h, previous, o)
	}
	return a
}

// detect finds the change points of s by its model.
func (a *Analysis) detect(s Series, seed uint64) []changepoint.Point {
	switch s.Model {
	case Exact:
		return exactSteps(s.Values)
	case Counted:
		if a.CountedLevel == 0 {
			return nil
		}
		return changepoint.Steps(s.Values, s.Spread, StepOptions(a.CountedLevel, a.Floor))
	}
	if a.Level == 0 || len(s.Values) < 2*MinSize {
		return nil
	}
	return changepoint.Detect(s.Values, TestOptions(a.Level, seriesSeed(seed, s.Key, s.Unit))).Points
}

// exactSteps are the steps of an exact series: every run whose value
// differs from the run's before it, with the values on either side.
func exactSteps(x []float64) []changepoint.Point {
	var out []changepoint.Point
	for i := 1; i < len(x); i++ {
		if x[i] != x[i-1] {
			out = append(out, changepoint.Point{Index: i, Before: x[i-1], After: x[i]})
		}
	}
	return out
}

// batchChange says, for an exact metric that is not the encoded size,
// when the runs a and b measured it in batch sizes that cannot tell the
// code's change from a fixed cost amortised over more or fewer
// operations: no batch size in common, and one of them measured in a
// single one (compare's rule for exact metrics).
func batchChange(a, b baseline.Entry, s Series) []string {
	if results.IsExact(s.Unit) {
		return nil
	}
	x, y := a.Batches[s.Key], b.Batches[s.Key]
	if len(x) == 0 || len(y) == 0 {
		return nil
	}
	for _, n := range x {
		if slices.Contains(y, n) {
			return nil
		}
	}
	if len(x) >= 2 && len(y) >= 2 {
		return nil
	}
	return []string{fmt.Sprintf("batch size %s → %s iterations (a per-operation average of a fixed cost moves with it)", batchText(x), batchText(y))}
}

func batchText(v []int64) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, "/")
}

func abs(x int) int { return max(x, -x) }

// runID identifies a run of a history, as baseline.Merge does.
func runID(e baseline.Entry) string {
	return e.Time.UTC().Format(time.RFC3339Nano) + "\x00" + e.Commit + "\x00" + e.RunID
}

// acceptedNear is the acceptance of key recorded with run, or else with
// the run before or after it.
func acceptedNear(h []baseline.Entry, run int, key string) *accept.Acceptance {
	for _, i := range []int{run, run - 1, run + 1} {
		if i < 0 || i >= len(h) {
			continue
		}
		if a, ok := accept.Set(h[i].Accepted).Match(key); ok {
			return &a
		}
	}
	return nil
}

// environment lists what differs between runs a and b besides the code:
// the machine and its CPU, Go, the harness settings, and how a count was
// made (results.Counter.Diff).
func environment(a, b baseline.Entry) []string {
	var out []string
	diff := func(what, x, y string) {
		if x != y && x != "" && y != "" {
			out = append(out, fmt.Sprintf("%s %s → %s", what, x, y))
		}
	}
	diff("CPU", a.CPU, b.CPU)
	diff("Go", a.Go, b.Go)
	diff("machine", a.Machine, b.Machine)
	if a.Harness != nil && b.Harness != nil {
		for _, d := range a.Harness.Diff(*b.Harness) {
			out = append(out, d.String())
		}
	}
	if a.Counter != nil && b.Counter != nil {
		for _, d := range a.Counter.Diff(b.Counter) {
			out = append(out, "counted differently: "+d.String())
		}
	}
	return out
}
