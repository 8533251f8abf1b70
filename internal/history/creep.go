package history

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/stats"
)

// CreepOptions say how creep is looked for: how far each count moved
// from a reference run to the latest by steps none of which was a change
// point (each below the effect floor, or too small for its noise), which
// no pull request's gate can see.
type CreepOptions struct {
	// Limit is the relative change beyond which a creep is reported
	// (0.02: 2%); 0 looks for none.
	Limit float64
	// Runs is how many runs before the latest the reference run is (0:
	// the oldest stored); fewer stored, the oldest.
	Runs int
	// Release, when not empty, names the release whose run is the
	// reference instead: the newest run whose commit InRelease reports
	// in it (the release's commit or one before it; the runs are taken
	// to follow the branch, those in the release first).
	Release   string
	InRelease func(commit string) bool
}

// Creeps is what creep a history was searched for and found.
type Creeps struct {
	// Limit is CreepOptions.Limit.
	Limit float64
	// Reference is the index in the history of the run the latest is
	// compared with; Release names the release it is the run of ("" when
	// it is RunsBack runs back), Note says why a release asked for is
	// not the reference.
	Reference int
	Release   string
	RunsBack  int
	Note      string
	// Tested is how many counted series were tested.
	Tested int
	// Found are the creeps beyond the limit, by key and unit.
	Found []Creep
}

// Creep is a count's cumulative change, over runs since a reference, by
// steps none of which was a change point.
type Creep struct {
	Key, Unit string
	// From and To are the indexes in the history of the first run of the
	// window (the reference, or the first run after a change of the
	// environment since) and of the latest; Runs how many runs of the
	// window measured the benchmark.
	From, To, Runs int
	// Change is the change the window's trend makes from its first run to
	// its latest (relative: 0.041 is +4.1%), with the steps Left out, and
	// Lo and Hi its interval at the test's level; P is the trend test's
	// p-value (stats.Trend), at Analysis.CountedLevel.
	Change, Lo, Hi, P float64
	// Total is the change from the window's first run to its latest, the
	// steps left out included.
	Total float64
	// Left are the steps of the window left out of the creep: change
	// points (reported as such) and accepted changes.
	Left []LeftOut
	// Largest is the index in the history of the run whose step, of
	// those in the creep, was the largest in its direction, and
	// LargestStep that step (relative).
	Largest     int
	LargestStep float64
	// AboveFloor is set when a step in the creep was itself beyond the
	// effect floor (not a change point all the same: too small against
	// its runs' noise).
	AboveFloor bool
	// New is set when the history before this push showed no creep of
	// this series in this direction.
	New bool
}

// LeftOut is a step left out of a creep: at the run Run (an index in
// the history), of Step (relative), and why.
type LeftOut struct {
	Run      int
	Step     float64
	Accepted *accept.Acceptance // nil for a change point
}

// creeps searches the counted series of a for creep since o.Creep's
// reference, and marks those previous did not show as New.
func (a *Analysis) creeps(h, previous []baseline.Entry, o Options) *Creeps {
	c := &Creeps{Limit: o.Creep.Limit, RunsBack: o.Creep.Runs}
	c.Reference, c.Release, c.Note = reference(h, o.Creep)
	var prev map[string]Series
	prevRef := -1
	if previous != nil {
		prev = map[string]Series{}
		for _, s := range SeriesOf(previous) {
			prev[s.Key+"\x00"+s.Unit] = s
		}
		prevRef, _, _ = reference(previous, o.Creep)
	}
	for _, s := range a.Series {
		if s.Model != Counted || !s.Varies() {
			continue
		}
		cr, tested := a.creep(h, s, c.Reference, a.pointsOf(s), c.Limit)
		if tested {
			c.Tested++
		}
		if cr == nil {
			continue
		}
		cr.New = true
		if ps, ok := prev[s.Key+"\x00"+s.Unit]; ok && ps.Varies() {
			ps.Model = Counted
			var points []int
			for _, p := range a.detect(ps, o.Seed) {
				points = append(points, ps.Runs[p.Index])
			}
			if pc, _ := a.creep(previous, ps, prevRef, points, c.Limit); pc != nil && (pc.Change > 0) == (cr.Change > 0) {
				cr.New = false
			}
		}
		c.Found = append(c.Found, *cr)
	}
	return c
}

// pointsOf are the runs (indexes in h) of a's change points of s.
func (a *Analysis) pointsOf(s Series) []int {
	var out []int
	for _, p := range a.Points {
		if p.Key == s.Key && p.Unit == s.Unit {
			out = append(out, p.Run)
		}
	}
	return out
}

// reference is the index in h of the run creep is measured from, the
// release it is the run of, and a note when the release asked for could
// not be used.
func reference(h []baseline.Entry, o CreepOptions) (int, string, string) {
	back := 0
	if o.Runs > 0 {
		back = max(0, len(h)-1-o.Runs)
	}
	if o.Release == "" || o.InRelease == nil {
		return back, "", ""
	}
	// The runs follow the branch, so those in the release come first:
	// the newest of them is found by bisection (a handful of questions,
	// each a git command or an API call, for 50 runs).
	in := func(i int) bool { return h[i].Commit != "" && o.InRelease(h[i].Commit) }
	if n := sort.Search(len(h), func(i int) bool { return !in(i) }); n > 0 {
		return n - 1, o.Release, ""
	}
	return 0, "", fmt.Sprintf("none of the %d stored runs is of %s or before it (the release is older than the history, or not on this branch): creep is measured from the oldest stored run", len(h), o.Release)
}

// MinCreepRuns is the fewest runs of a window creep is tested on: the
// trend needs two degrees of freedom beyond its levels and slope.
const MinCreepRuns = 4

// creep is the creep of s in h since the run ref, with the change points
// of s at the runs points left out; nil when it is not beyond limit or
// not significant. tested reports whether the window was long enough to
// test.
func (a *Analysis) creep(h []baseline.Entry, s Series, ref int, points []int, limit float64) (*Creep, bool) {
	last := len(s.Runs) - 1
	if last < 0 || s.Runs[last] != len(h)-1 {
		return nil, false // the latest run did not measure it
	}
	from := slices.IndexFunc(s.Runs, func(r int) bool { return r >= ref })
	if from < 0 {
		return nil, false
	}
	for i := from + 1; i <= last; i++ {
		if len(environment(h[s.Runs[i-1]], h[s.Runs[i]])) > 0 {
			from = i // measured otherwise before: the window starts here
		}
	}
	n := last - from + 1
	if n < MinCreepRuns {
		return nil, false
	}
	t, x, seg := make([]float64, n), make([]float64, n), make([]int, n)
	cr := &Creep{Key: s.Key, Unit: s.Unit, From: s.Runs[from], To: s.Runs[last], Runs: n}
	for k := range n {
		i := from + k
		if !(s.Values[i] > 0) {
			return nil, false
		}
		t[k], x[k] = float64(k), math.Log(s.Values[i])
		if k == 0 {
			continue
		}
		seg[k] = seg[k-1]
		run := s.Runs[i]
		acc, accepted := accept.Set(h[run].Accepted).Match(s.Key)
		if slices.Contains(points, run) || accepted {
			seg[k]++
			l := LeftOut{Run: run, Step: math.Exp(x[k]-x[k-1]) - 1}
			if accepted && !slices.Contains(points, run) {
				l.Accepted = &acc
			}
			cr.Left = append(cr.Left, l)
		}
	}
	if n-(seg[n-1]+1)-1 < 2 {
		return nil, false
	}
	level := a.CountedLevel
	floor := rmsSpread(s.Spread[from : last+1])
	res, err := stats.Trend(t, x, seg, floor, 1-level)
	switch {
	case err == nil:
		cr.Change, cr.Lo, cr.Hi, cr.P = math.Expm1(res.Estimate), math.Expm1(res.Lo), math.Expm1(res.Hi), res.P
	case errors.Is(err, stats.ErrAllEqual):
		// Every run on its segment's line and no spread known: a
		// deterministic count, whose trend is certain.
		d := 0.0
		for k := 1; k < n; k++ {
			if seg[k] == seg[k-1] {
				d += x[k] - x[k-1]
			}
		}
		cr.Change, cr.Lo, cr.Hi, cr.P = math.Expm1(d), math.Expm1(d), math.Expm1(d), 0
		if d == 0 {
			cr.P = 1
		}
	default:
		return nil, false
	}
	cr.Total = math.Exp(x[n-1]-x[0]) - 1
	if math.Abs(cr.Change) <= limit || cr.P > level {
		return nil, true
	}
	sign := math.Copysign(1, cr.Change)
	cr.Largest = -1
	for k := 1; k < n; k++ {
		if seg[k] != seg[k-1] {
			continue
		}
		d := math.Expm1(x[k] - x[k-1])
		if cr.Largest < 0 || d*sign > cr.LargestStep*sign {
			cr.Largest, cr.LargestStep = s.Runs[from+k], d
		}
		if math.Abs(d) >= a.Floor {
			cr.AboveFloor = true
		}
	}
	return cr, true
}

// rmsSpread is the root mean square of the known spreads (not NaN), 0
// when none is known.
func rmsSpread(sp []float64) float64 {
	var ss float64
	n := 0
	for _, v := range sp {
		if v >= 0 {
			ss += v * v
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(ss / float64(n))
}
