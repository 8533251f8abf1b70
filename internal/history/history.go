// Package history reads a baseline's history as series, one per
// benchmark and unit, one point per stored run (a process, never the
// samples within one), and finds the change points in them
// (internal/changepoint): where a benchmark's size, allocations, timing or
// any other metric stepped, at which run, by how much, whether the pull
// request merged there accepted it, and whether the push being reported
// is the first to see it.
//
// Every unit is treated alike: there is no list of known units. A series
// whose runs all agree (an encoded size, an allocation count that never
// changed) cannot show a false change point and is not counted in the
// family; every series that varies is, and the level of each series'
// test is Alpha divided by their number (Bonferroni), so that the chance
// of any false change point on a push, over the whole suite, stays below
// Alpha.
package history

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/changepoint"
)

// MinSize is the fewest runs on either side of a change point. With three,
// a change is found once three runs measured it (if the test's level
// allows: see Options); fewer would let two unlucky runs in a row at the
// end look like a step far too often for the level to be reached anyway.
const MinSize = 3

// DefaultAlpha is the chance of any false change point on a push when
// Options.Alpha is 0: the alpha of the comparisons.
const DefaultAlpha = 0.01

// Series is one benchmark's metric over the runs of a history.
type Series struct {
	Key  string // the benchmark (baseline.Entry.Medians' key)
	Unit string
	// Runs are the indexes in the history of the runs that measured it,
	// oldest first, and Values their medians.
	Runs   []int
	Values []float64
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

// SeriesOf returns every series of h, by key and unit.
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
				s.Runs, s.Values = append(s.Runs, i), append(s.Values, v)
			}
		}
	}
	ids := slices.SortedFunc(maps.Keys(byID), func(a, b id) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.unit, b.unit))
	})
	out := make([]Series, len(ids))
	for i, k := range ids {
		out[i] = *byID[k]
	}
	return out
}

// ChangePoint is a step in a series.
type ChangePoint struct {
	Key, Unit string
	// Run is the index in the history of the first run after the step;
	// Commit and Time are that run's.
	Run    int
	Commit string
	Time   time.Time
	// Before and After are the medians of the runs on either side (up to
	// the neighbouring change points); Step is After/Before − 1.
	Before, After, Step float64
	// P is the permutation test's p-value, at the level Analysis.Level.
	P float64
	// Accepted is the acceptance recorded with the first run after the
	// step (or a run next to it: the estimate of where a step starts can
	// be one run off) that names this benchmark; nil when none does.
	Accepted *accept.Acceptance
	// Environment lists what differed between the runs on either side of
	// the step besides the code: the CPU, the Go version, the machine,
	// the harness settings. A step with one is not the code's for sure.
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
	// Alpha is the chance of any false change point in the whole history
	// (all its series), DefaultAlpha when 0.
	Alpha float64
	// Seed seeds the permutation tests (with each series' key and unit).
	Seed uint64
}

// Analysis is the change points of a history.
type Analysis struct {
	Runs   int      // runs in the history
	Series []Series // every series, by key and unit
	// Varying is how many series vary: the family Alpha is divided over,
	// and Level the level of each series' test, Alpha/Varying.
	Varying int
	Alpha   float64
	Level   float64
	// Points are the change points, by key, unit and run.
	Points []ChangePoint
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

// seriesSeed is the seed of a series' tests: the same for the same series
// whatever else the history holds.
func seriesSeed(seed uint64, key, unit string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", key, unit)
	return h.Sum64() ^ seed
}

// Analyze finds the change points of every series of h. previous, when
// not nil, is the history as it was before the push being reported (the
// stored one, without this run): a point is New unless previous showed
// one of its series at the same run or a run next to it (runs are
// matched by commit, time and run id, so a bounded history that dropped
// its oldest runs still lines up).
func Analyze(h, previous []baseline.Entry, o Options) *Analysis {
	alpha := o.Alpha
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	a := &Analysis{Runs: len(h), Series: SeriesOf(h), Alpha: alpha}
	for _, s := range a.Series {
		if s.Varies() {
			a.Varying++
		}
	}
	if a.Varying == 0 {
		return a
	}
	a.Level = alpha / float64(a.Varying)
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
		if !s.Varies() || len(s.Values) < 2*MinSize {
			continue
		}
		opts := TestOptions(a.Level, seriesSeed(o.Seed, s.Key, s.Unit))
		r := changepoint.Detect(s.Values, opts)
		if len(r.Points) == 0 {
			continue
		}
		var seen []int // runs (indexes in h) where previous had a point
		if prev, ok := prevSeries[s.Key+"\x00"+s.Unit]; ok && prev.Varies() {
			for _, p := range changepoint.Detect(prev.Values, opts).Points {
				if i, ok := position[runID(previous[prev.Runs[p.Index]])]; ok {
					seen = append(seen, i)
				}
			}
		}
		for _, p := range r.Points {
			run := s.Runs[p.Index]
			e := h[run]
			cp := ChangePoint{Key: s.Key, Unit: s.Unit, Run: run, Commit: e.Commit, Time: e.Time,
				Before: p.Before, After: p.After, Step: p.After/p.Before - 1, P: p.P,
				Environment: environment(h[s.Runs[p.Index-1]], e), New: previous != nil}
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
	return a
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

// environment lists what differs between runs a and b besides the code.
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
	return out
}
