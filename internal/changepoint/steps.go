package changepoint

import (
	"errors"
	"fmt"
	"math"

	"github.com/wirebench/wirebench/internal/stats"
)

// StepOptions tune Steps.
type StepOptions struct {
	// Alpha is the level of each test: a run makes two (a step at itself,
	// a step at the run before it).
	Alpha float64
	// Floor is the smallest relative step that is a change point (0.01:
	// 1%): a smaller one, however certain, is none (it may add up with
	// others to a creep, which is the history's to see).
	Floor float64
	// MinBefore is the fewest runs since the last change point a test
	// compares the new ones with, at least 2 (one degree of freedom).
	MinBefore int
}

// Validate reports options Steps cannot work with.
func (o StepOptions) Validate() error {
	switch {
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("changepoint: step Alpha %v is not in (0, 1)", o.Alpha)
	case !(o.Floor >= 0) || math.IsInf(o.Floor, 1):
		return fmt.Errorf("changepoint: step Floor %v is not a finite number ≥ 0", o.Floor)
	case o.MinBefore < 2:
		return fmt.Errorf("changepoint: MinBefore %d is below 2", o.MinBefore)
	}
	return nil
}

// Steps finds the steps of a series of positive values whose run-to-run
// noise is small and close to normal on a log scale (a count of the
// instructions a benchmark executes, in 0.01-0.1% between processes),
// the way they would have been found run by run as the series grew. When
// run t arrives, two candidates are tested, each against the runs since
// the last change point found, by Student's t on their pooled spread
// (stats.NewRunsFloor on the logarithms), the older first: the first of
// the latest runs that are all beyond Floor on one side of the runs
// before them, when there are two or more (a step at the floor, found by
// the second run after it, or later, as more runs measure it), and run t
// itself as the first run after a step (a large step, found by the first
// run after it). A candidate is a change point when its test's p-value is
// at most Alpha, the estimated step is beyond Floor, and every run after
// it is beyond Floor on the same side: one run out of line (a process on
// its other path) is not a step that the next run confirms; and the step
// is abrupt, at least half of it between the run before it and the first
// after it: runs that drift a little each time (a creep) end up beyond
// the floor of the runs long before them without any one step. The
// series is then measured from that point on. A step found by one run is
// withdrawn when the next run is not beyond Floor on its side: the one
// run was out of line, and the series goes on as if it had not stepped
// (so the points of a series are those found as it grew, but for a last
// run's, which the next may withdraw).
//
// noise, when not nil, gives each run's own spread on a log scale (how
// far its median could move by the spread of its processes alone, their
// standard error: baseline.Entry.Spread; NaN or < 0 where unknown): the
// runs' spread is taken as at least the root mean square of those of the
// runs a test sees (stats.NewRunsFloor), since a run's median moves by
// that much even when the few runs at hand agree more closely (a count
// whose processes fall on two levels). Runs that agree exactly, with no
// spread known, differ for certain when they differ at all: a
// deterministic count.
//
// Under the model (independent normal log values, one spread), each test
// has level Alpha; the older candidate is chosen by the data (where the
// runs beyond the floor begin), which with a floor within a standard
// deviation or two of the noise lets a series without a step show a
// change point on a push somewhat more often than 2·Alpha (measured on
// 18,000 pushes: 0.025 a push at 2·Alpha 0.02 without a floor, 0.029
// with the floor at half the noise, 0.010 at twice it, none at ten times
// it: TestStepsLevel). With the floor far beyond the noise (1% against
// 0.03% between runs) the runs of a series without a step are never all
// beyond it. Before and After are the medians of the runs on either side
// up to the neighbouring change points, Stat the test's t, P its p-value,
// and Runs how many runs after the step it saw. A series with a
// value ≤ 0 has no change point. It panics on options Validate refuses.
func Steps(x, noise []float64, o StepOptions) []Point {
	if err := o.Validate(); err != nil {
		panic(err)
	}
	logs := make([]float64, len(x))
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return nil
		}
		logs[i] = math.Log(v)
	}
	var points []Point
	start, prevStart := 0, 0 // the first run since the last change point, and before it
	for t := range logs {
		// A step seen by one run stands only if the next run is beyond
		// the floor on its side too; otherwise it was one run out of
		// line, and the series goes on from where it was.
		if n := len(points); n > 0 && points[n-1].Runs == 1 && points[n-1].Index == t-1 {
			if !confirms(logs[t], logs[prevStart:t-1], points[n-1].Stat, o.Floor) {
				points, start = points[:n-1], prevStart
			}
		}
		// The older candidate first: the first of the runs up to t that
		// are all beyond the floor on one side, two or more of them.
		if c := sameSide(logs, start, t, o); c >= 0 && c < t {
			if p, ok := stepTest(logs, noise, start, c, t+1, o); ok {
				points = append(points, p)
				prevStart, start = start, c
				continue
			}
		}
		if t-start >= o.MinBefore {
			if p, ok := stepTest(logs, noise, start, t, t+1, o); ok {
				points = append(points, p)
				prevStart, start = start, t
			}
		}
	}
	for i := range points {
		lo, hi := 0, len(x)
		if i > 0 {
			lo = points[i-1].Index
		}
		if i+1 < len(points) {
			hi = points[i+1].Index
		}
		points[i].Before, _ = stats.Median(x[lo:points[i].Index])
		points[i].After, _ = stats.Median(x[points[i].Index:hi])
	}
	return points
}

// stepTest tests the runs [at, end) (one or two) as the first after a
// step, against the runs [start, at): the point and true when it is a
// change point.
func stepTest(logs, noise []float64, start, at, end int, o StepOptions) (Point, bool) {
	before, after := logs[start:at], logs[at:end]
	floor := rmsNoise(noise, start, end)
	res, err := stats.NewRunsFloor(after, before, nil, floor, 1-o.Alpha)
	var p, t float64
	switch {
	case err == nil:
		p, t = res.P, res.T
	case errors.Is(err, stats.ErrAllEqual):
		// Every run agreed within its group and none has a known
		// spread: equal groups are no step, different ones a certain one.
		shift := mean(after) - mean(before)
		if shift == 0 {
			return Point{}, false
		}
		p, t = 0, math.Copysign(math.Inf(1), shift)
	default:
		return Point{}, false // too few runs: no test
	}
	if p > o.Alpha {
		return Point{}, false
	}
	level := mean(before)
	beyond := func(v float64) int {
		switch r := math.Exp(v-level) - 1; {
		case r >= o.Floor && r > 0:
			return 1
		case -r >= o.Floor && r < 0:
			return -1
		}
		return 0
	}
	side := beyond(mean(after))
	if side == 0 {
		return Point{}, false
	}
	// A step is abrupt: at least half of it happens between the run
	// before it and the first after it. Runs that drift a little each
	// time end up beyond the floor of the runs long before them too, but
	// that is a creep, the history's to report as one.
	if jump, shift := logs[at]-logs[at-1], mean(after)-level; jump*shift <= 0 || math.Abs(jump) < math.Abs(shift)/2 {
		return Point{}, false
	}
	for _, v := range after {
		if beyond(v) != side {
			return Point{}, false
		}
	}
	return Point{Index: at, Stat: t, P: p, Runs: len(after)}, true
}

// sameSide is the earliest run c (at least MinBefore after start) such
// that every run from c to t is beyond the floor on one side of the mean
// of the runs [start, c): where a step that the runs since have kept
// would have begun; -1 when there is none.
func sameSide(logs []float64, start, t int, o StepOptions) int {
	for c := start + o.MinBefore; c <= t; c++ {
		level := mean(logs[start:c])
		side := 0
		ok := true
		for _, v := range logs[c : t+1] {
			r := math.Exp(v-level) - 1
			sd := 0
			switch {
			case r > 0 && r >= o.Floor:
				sd = 1
			case r < 0 && -r >= o.Floor:
				sd = -1
			}
			if sd == 0 || side != 0 && sd != side {
				ok = false
				break
			}
			side = sd
		}
		if ok {
			return c
		}
	}
	return -1
}

// confirms reports whether the log value v, the run after a step seen by
// one run whose t was stat, is beyond floor from the runs before the step
// on the step's side.
func confirms(v float64, before []float64, stat, floor float64) bool {
	r := math.Exp(v-mean(before)) - 1
	if stat > 0 {
		return r > 0 && r >= floor
	}
	return r < 0 && -r >= floor
}

// rmsNoise is the root mean square of the known spreads of the runs
// [from, to), 0 when none is known.
func rmsNoise(noise []float64, from, to int) float64 {
	if noise == nil {
		return 0
	}
	var ss float64
	n := 0
	for _, s := range noise[from:to] {
		if s >= 0 && !math.IsInf(s, 1) {
			ss += s * s
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(ss / float64(n))
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
