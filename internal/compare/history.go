package compare

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// MinHistoryRuns is how many runs of a benchmark, measured with the
// reference's harness settings and the reference itself among them, a
// stored baseline's history needs before that benchmark's timing gates.
//
// A process is the unit of replication for timings: a benchmark's median
// moves from one process to the next by more than its samples within one
// process can show (seen on a two-core machine: 41 ms in one process, 65
// ms in the next, same code). Only the history shows how much, and the
// new-run test (stats.NewRun) pays for estimating it from few runs with
// Student's t on few degrees of freedom: five runs leave 4 of them when
// they are replicates of the reference's code, 3 otherwise. With fewer,
// the critical |t| at the Holm level of the default suite (alpha 0.01
// over 84 timings) passes 26 (3 df), 92 (2 df) and 5300 (1 df): a
// benchmark could only detect changes of 33, 119 or 7200 standard errors,
// and two or three runs say next to nothing of how a benchmark's noise is
// distributed. From five on the test is valid, and what it can detect,
// which the report gives for every timing, shrinks as the history grows:
// 18 standard errors at 4 df, 7.8 at 9, 5.8 at 19, 5.1 at 48 (a standard
// error is the between-run spread times sqrt(1 + 1/k), k the replicates
// of the reference's code).
const MinHistoryRuns = 5

// History is what a stored baseline knows of its past runs: how every
// benchmark's median moved from run to run, which is what judges a
// timing measured in one new process. Go benchmark text that holds
// several go test processes a side is judged the same way, each process
// a run (Processes, Candidate).
type History struct {
	Runs []Run
	// Processes is set when Runs are the go test processes of the
	// baseline's own Go benchmark text: each a run of the reference's
	// code, and the reference the pool of their samples, not one run
	// besides them.
	Processes bool
	// Candidate, when it holds two runs or more, are the go test
	// processes the candidate's results pool, each one more run of the
	// candidate's code: its timings are judged on all of them
	// (stats.NewRuns), not on the pool as one run.
	Candidate []Run
}

// RunOf is r as a history records a run: its medians.
func RunOf(r *results.Results) Run {
	return Run{Commit: r.Env.Commit, Medians: r.Medians()}
}

// Run is one past run as a baseline's history records it.
type Run struct {
	// Commit is the commit the run measured; runs of the reference's
	// commit are replicates of the reference.
	Commit string
	// Harness is the harness settings the run was measured with; nil when
	// the history does not record them (entries of older versions), in
	// which case the run is taken to have the reference's: the reference
	// is what the candidate is compared with, the other runs only give
	// the spread, which a run measured otherwise can only inflate.
	Harness *results.Harness
	// Medians maps benchmark name to unit to the median of the run's
	// samples.
	Medians map[string]map[string]float64
	// Reference marks the history's entry of the comparison's baseline
	// run (at most one), which is not counted twice: the baseline's own
	// results are that run. When none is marked, every run is taken to be
	// another.
	Reference bool
}

// TimingGate says whether a stored-baseline comparison could gate its
// timings, from what its history holds.
type TimingGate struct {
	// Runs is how many runs of the history were measured with the
	// reference's settings, the reference included; SameCode how many of
	// them measured the reference's commit (the reference included).
	// Individual benchmarks may have fewer (added lately).
	Runs, SameCode int
	// Needed is MinHistoryRuns.
	Needed int
	// Processes is History.Processes: the runs are the baseline file's
	// go test processes. CandidateRuns is how many runs (processes) the
	// candidate was judged on: 1 unless History.Candidate gave more.
	Processes     bool
	CandidateRuns int
	// SettingsDiffer lists the harness settings in which the candidate
	// was measured differently from the reference (results.Harness.Diff).
	SettingsDiffer []results.Difference
	// Speed compares the candidate's speed shift with the history's runs'
	// (see speedCheck); nil when it could not be (too little history,
	// fewer than 3 timings).
	Speed *SpeedCheck
	// Dispersion says how much wider this run's timings spread against
	// the history than the history's runs spread among themselves, and
	// whether the tests were widened for it; nil when no timing was
	// tested against the history.
	Dispersion *Dispersion
	// Busy says how busy the machine was with other work while the
	// candidate and the reference were timed, when either is known; the
	// timings of benchmarks that run on every CPU are not enforced when
	// either was busy (see BusyCheck).
	Busy *BusyCheck
}

// BusyLimit is how many CPUs' worth of other processes' work beside a
// timed run (results.Settings.OtherCPUs, package load) makes the
// timings of its benchmarks that run on every CPU (b.RunParallel)
// unfit to judge against a stored history: they share the CPUs with
// that work, while a serial benchmark has a CPU of its own on a 2-CPU
// runner, and the run's speed shift, taken from every benchmark, does
// not show it. Measured on the 2-core machine: see
// docs/design/counted.md, "Other work beside the clock".
const BusyLimit = 0.25

// BusyCheck is the other work measured beside the candidate and the
// reference (results.Settings.OtherCPUs; 0 when not recorded) and which
// of the candidate's benchmarks run on every CPU.
type BusyCheck struct {
	Candidate, Reference float64
	// Parallel are the candidate's benchmarks (keys) that call
	// RunParallel.
	Parallel []string
}

// Busy reports whether either run had other work beside it of at least
// BusyLimit CPUs.
func (b *BusyCheck) Busy() bool {
	return b != nil && max(b.Candidate, b.Reference) >= BusyLimit
}

// holdsBack reports whether the timing of the benchmark key is not
// enforced for the machine's other work: it runs on every CPU and a run
// was busy.
func (b *BusyCheck) holdsBack(key string) bool {
	return b.Busy() && slices.Contains(b.Parallel, key)
}

// newBusyCheck is the BusyCheck of a candidate timed against base; nil
// when neither recorded its other work.
func newBusyCheck(base, cand *results.Results) *BusyCheck {
	if base.Settings.OtherCPUs == 0 && cand.Settings.OtherCPUs == 0 {
		return nil
	}
	b := &BusyCheck{Candidate: cand.Settings.OtherCPUs, Reference: base.Settings.OtherCPUs}
	for _, x := range cand.Benchmarks {
		if x.Parallel {
			b.Parallel = append(b.Parallel, x.Key())
		}
	}
	return b
}

// MinDispersionTimings is how many timings tested against the history a
// run needs before their dispersion (stats.Dispersion) is estimated and
// applied: the median of fewer says too little of the run as a whole.
const MinDispersionTimings = 10

// Dispersion is genomic control of one run's timings against the history
// (stats.Dispersion): Lambda, at least 1, is the median of their squared
// t statistics over its value under the null. Measured on the 2-core
// machine: a history of 5 runs made back to back, then checks over the
// next 40 minutes on unchanged code, moved single benchmarks by up to
// ±36% (1 in 100 beyond ±20% when quiet and measured with the history's
// settings) where those 5 runs varied by ±2.9% (median); λ was 1.0-1.2
// in four of those five quiet checks, 2.5 in the fifth, 4.0-10.4 at
// another budget, up to 48 under load. Such a history understates how
// much a run at another time moves, and every timing judged by it alone
// would cry wolf as soon as the history is long enough for its Student's
// t to be sharp; dividing every t by sqrt(λ) keeps the error rate (see
// TestDispersionRestoresErrorRate in internal/stats) and leaves a run the
// history describes well as it was.
type Dispersion struct {
	// Lambda is the inflation of the variance; the tests' standard errors
	// were multiplied by sqrt(Lambda) when Applied.
	Lambda float64
	// Timings is how many timings it was estimated from.
	Timings int
	// Applied is set when Lambda > 1 and there were at least
	// MinDispersionTimings timings.
	Applied bool
}

// Widening is the factor the timings' intervals were widened by:
// sqrt(Lambda) when applied, 1 otherwise.
func (d *Dispersion) Widening() float64 {
	if d == nil || !d.Applied {
		return 1
	}
	return math.Sqrt(d.Lambda)
}

// SpeedCheck says whether the candidate ran in the conditions the history
// saw: its typical speed shift against the reference (the median ratio of
// its timings' medians, which a change of a few benchmarks barely moves)
// against the prediction interval, at the comparison's confidence, of one
// more run's from the history's runs. A run
// outside it (a loaded machine, another kind of runner, a process off
// its usual speed) moves its benchmarks in ways the history never showed,
// not all alike, so the history cannot judge its timings: they are
// reported, not enforced. A change of the code that slows every benchmark
// alike also lands here; the same-runner A/B mode has no such blind spot.
type SpeedCheck struct {
	// Shift is the candidate's typical shift; Lo and Hi bound a run's as
	// the history predicts it (ratios to the reference: 1.10 = 10%
	// slower).
	Shift, Lo, Hi float64
	// Outside is set when Shift is outside [Lo, Hi].
	Outside bool
}

// SettingsMatch reports whether the candidate was measured with the
// reference's harness settings, so that its timings with enough history
// gate.
func (g *TimingGate) SettingsMatch() bool { return g != nil && len(g.SettingsDiffer) == 0 }

// SpeedOutside reports whether the candidate's speed shift was outside
// what the history's runs show (SpeedCheck), so that its timings are
// reported, not enforced.
func (g *TimingGate) SpeedOutside() bool { return g != nil && g.Speed != nil && g.Speed.Outside }

// MoreRuns is how many more runs of history timings need before they
// gate (0 when they have enough).
func (g *TimingGate) MoreRuns() int { return max(g.Needed-g.Runs, 0) }

// historyReason is the note on a timing whose benchmark has runs of
// history (of g.Needed) measured like the reference: why it is reported,
// not enforced.
func historyReason(runs int, g *TimingGate) string {
	if g.Processes {
		return fmt.Sprintf("not enforced: the baseline holds %s of this benchmark, %d needed to estimate how much it moves between processes (one process's samples cannot show it); %s more make it gate",
			human.Plural(runs, "go test process", "go test processes"), g.Needed, human.Count(g.Needed-runs))
	}
	return fmt.Sprintf("not enforced: the baseline's history has %s of this benchmark measured like the reference, %d needed to estimate how much it moves between runs (one run's samples cannot show it); %s more make it gate",
		human.Plural(runs, "run", "runs"), g.Needed, human.Count(g.Needed-runs))
}

// busyReason is the note on a timing of a benchmark that runs on every
// CPU, timed while the machine was busy with other work.
func busyReason(b *BusyCheck) string {
	return fmt.Sprintf("not enforced: it runs on every CPU (b.RunParallel), and other processes kept %.2f of the machine's CPUs busy while it was timed (%.2f while the baseline was): they slowed it, not its code, by more than the run's speed shift shows (a benchmark on one CPU has one of its own)",
		b.Candidate, b.Reference)
}

// settingsReason is the note on a timing whose candidate was measured
// with other harness settings than the reference.
func settingsReason(d []results.Difference) string {
	return "not enforced: measured with other settings than the baseline (" + diffFields(d) + "), which change the batch sizes and with them the timings"
}

// speedReason is the note on a timing of a candidate whose speed shift was
// outside what the history's runs show.
func speedReason(g *TimingGate) string {
	s := g.Speed
	if g.Processes {
		return fmt.Sprintf("not enforced: the candidate's median timing moved ×%.2f against the baseline, outside the ×%.2f to ×%.2f a go test process of the baseline moves: the machine was not in the state it was in for the baseline (load, another machine), which moves benchmarks unlike each other", s.Shift, s.Lo, s.Hi)
	}
	return fmt.Sprintf("not enforced: this run's median timing moved ×%.2f against the reference, outside the ×%.2f to ×%.2f a run of the history moves: the machine was not in a state the history measured (load, another runner, a process off its usual speed), which moves benchmarks unlike each other", s.Shift, s.Lo, s.Hi)
}

// isTiming reports whether unit is a timing: a time per operation or a
// throughput. Timings vary between processes and are judged against the
// history; other noisy metrics (allocations that vary) are tested within
// the run.
func isTiming(unit string) bool {
	return unit == results.UnitNsPerOp || results.HigherIsBetter(unit)
}

// historyModel is the history of one comparison, ready to judge
// timings: the reference's medians, and the runs measured like it split
// into the reference's replicates (the reference first) and the others,
// each with its speed shift against the reference.
type historyModel struct {
	ref                map[string]map[string]float64
	replicates, others []modelRun
	// candidate are the candidate's runs when it was judged on several
	// (History.Candidate), nil otherwise.
	candidate []modelRun
	gate      TimingGate
	// from is Options.ShiftFrom: the benchmarks the speed shifts are
	// estimated from (nil: all).
	from map[string]bool
}

// modelRun is one run of the model: its medians and its typical speed
// shift against the reference (see typicalShift).
type modelRun struct {
	medians map[string]map[string]float64
	shift   float64
}

// newHistoryModel prepares the runs of h (nil: none but the reference)
// that were measured like the reference base, and states the gate for the
// candidate cand.
func newHistoryModel(base, cand *results.Results, h *History, from map[string]bool) *historyModel {
	harness := base.Harness()
	m := &historyModel{ref: base.Medians(), from: from, gate: TimingGate{Needed: MinHistoryRuns, SettingsDiffer: harness.Diff(cand.Harness()), CandidateRuns: 1}}
	if h == nil {
		h = &History{}
	}
	// The reference is the first replicate, from its own samples (what the
	// candidate's ratios are to); its entry in the history, when marked,
	// is that same run and is not counted again. A pool of processes is
	// no run of its own: its processes are the replicates.
	if !h.Processes {
		m.replicates = []modelRun{{medians: m.ref}}
	}
	for _, r := range h.Runs {
		if r.Reference || (r.Harness != nil && len(harness.Diff(*r.Harness)) > 0) {
			continue
		}
		mr := modelRun{medians: r.Medians, shift: typicalShift(r.Medians, m.ref, m.from)}
		if h.Processes || (r.Commit != "" && r.Commit == base.Env.Commit) {
			m.replicates = append(m.replicates, mr)
		} else {
			m.others = append(m.others, mr)
		}
	}
	if len(h.Candidate) >= 2 {
		for _, r := range h.Candidate {
			m.candidate = append(m.candidate, modelRun{medians: r.Medians, shift: typicalShift(r.Medians, m.ref, m.from)})
		}
		m.gate.CandidateRuns = len(m.candidate)
	}
	m.gate.Runs, m.gate.SameCode, m.gate.Processes = len(m.replicates)+len(m.others), len(m.replicates), h.Processes
	m.gate.Busy = newBusyCheck(base, cand)
	return m
}

// typicalShift is a run's typical speed shift against the reference's
// medians ref: the median log ratio of its ns/op medians to the
// reference's, 0 when fewer than 3 benchmarks are in common (too few to
// tell a machine from a change). The median, not the mean: a change of a
// few benchmarks (a pull request that touches one codec) barely moves it,
// so it is the machine's, and judging each benchmark against it leaves
// that benchmark's own change.
func typicalShift(medians, ref map[string]map[string]float64, from map[string]bool) float64 {
	var lrs []float64
	for name, units := range medians {
		if !shiftsWith(from, name) {
			continue
		}
		if lr, ok := logRatio(units, ref[name], results.UnitNsPerOp); ok {
			lrs = append(lrs, lr)
		}
	}
	if len(lrs) < 3 {
		return 0
	}
	m, err := stats.Median(lrs)
	if err != nil {
		return 0
	}
	return m
}

// shiftsWith reports whether the benchmark key is one the speed shift is
// estimated from (from nil: every benchmark).
func shiftsWith(from map[string]bool, key string) bool { return from == nil || from[key] }

// logRatio is log(run/ref) of unit, and whether both are positive.
func logRatio(run, ref map[string]float64, unit string) (float64, bool) {
	a, b := run[unit], ref[unit]
	if !(a > 0 && b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return 0, false
	}
	return math.Log(a / b), true
}

// speedCheck compares the candidate cand's typical speed shift against
// the reference (the median log ratio of its ns/op medians) with those of
// the history's runs, by the prediction interval of stats.NewRun at
// confidence; nil when the history has too few runs to gate, or fewer
// than 3 timings to tell a machine from a change.
func (m *historyModel) speedCheck(cand *results.Results, confidence float64) *SpeedCheck {
	if m.gate.Runs < m.gate.Needed {
		return nil
	}
	c := cand.Medians()
	n := 0
	for name, units := range c {
		if !shiftsWith(m.from, name) {
			continue
		}
		if _, ok := logRatio(units, m.ref[name], results.UnitNsPerOp); ok {
			n++
		}
	}
	if n < 3 {
		return nil
	}
	typical := func(runs []modelRun) []float64 {
		out := make([]float64, len(runs))
		for i, r := range runs {
			out[i] = r.shift
		}
		return out
	}
	xs := []float64{typicalShift(c, m.ref, m.from)}
	if m.candidate != nil {
		xs = typical(m.candidate)
	}
	t, err := stats.NewRuns(xs, typical(m.replicates), typical(m.others), confidence)
	if err != nil {
		return nil
	}
	x := stat.Mean(xs, nil)
	centre := x - t.Estimate // the replicates' mean
	half := (t.Hi - t.Lo) / 2
	s := &SpeedCheck{Shift: math.Exp(x), Lo: math.Exp(centre - half), Hi: math.Exp(centre + half)}
	s.Outside = s.Shift < s.Lo || s.Shift > s.Hi
	return s
}

// gates reports whether the history has enough runs measured like the
// reference for timings to be judged against it.
func (m *historyModel) gates() bool { return m.gate.Runs >= m.gate.Needed }

// historyShifts are the speed shifts when timings are judged against a
// history that gates (unless normalisation is turned off): each run of
// the history moved as a whole with the machine's speed of the moment,
// and is judged relative to its typical shift (typicalShift), so the
// candidate, one more run, is too, by the same estimate (per shard when
// it was merged from shards). Judged as measured instead, the spread
// between runs would hold every run's shift and hide the changes of
// single benchmarks. A shard with fewer than 3 timings keeps the shift
// speedShifts found (not applied). It sets r.Shift (and r.ShardShifts)
// and returns the shifts by shard.
func (r *Result) historyShifts(h *historyModel, cand *results.Results, shifts map[int]*Shift, opts Options) map[int]*Shift {
	byShard := map[int]map[string]map[string]float64{}
	for _, b := range cand.Benchmarks {
		if byShard[b.Shard] == nil {
			byShard[b.Shard] = map[string]map[string]float64{}
		}
		one := &results.Results{Benchmarks: []results.Benchmark{b}}
		byShard[b.Shard][b.Key()] = one.Medians()[b.Key()]
	}
	out := map[int]*Shift{}
	for shard, sh := range shifts {
		out[shard] = sh
	}
	for shard, meds := range byShard {
		var lrs []float64
		for name, units := range meds {
			if !shiftsWith(h.from, name) {
				continue
			}
			if lr, ok := logRatio(units, h.ref[name], results.UnitNsPerOp); ok {
				lrs = append(lrs, lr)
			}
		}
		if len(lrs) < 3 {
			continue
		}
		slices.Sort(lrs) // the order of a map: the interval below must not depend on it
		med, _ := stats.Median(lrs)
		sh := &Shift{Estimate: math.Exp(med), Lo: math.NaN(), Hi: math.NaN(), N: len(lrs), Median: true, Applied: true,
			Reason: "timings are judged against the baseline's history, whose runs each moved as a whole with the machine's speed of the moment: every run, this one too, is judged relative to its own typical speed (the median of its timings' ratios to the reference), so what stands out is a benchmark's own change"}
		if h.gate.Processes {
			sh.Reason = "timings are judged by go test processes, each of which moved as a whole with the machine's speed of the moment: every process, the candidate's too, is judged relative to its own typical speed (the median of its timings' ratios to the baseline), so what stands out is a benchmark's own change"
		}
		if ci, err := stats.MedianCI(lrs, opts.Confidence); err == nil {
			sh.Lo, sh.Hi = math.Exp(ci.Lo), math.Exp(ci.Hi)
		}
		out[shard] = sh
	}
	if len(r.ShardShifts) == 0 {
		r.Shift = out[0]
		return out
	}
	for i := range r.ShardShifts {
		if sh, ok := out[r.ShardShifts[i].Shard]; ok {
			r.ShardShifts[i].Shift = *sh
		}
	}
	r.Shift = summarizeShardShifts(r.ShardShifts)
	r.Shift.Median = true
	return out
}

// values are the log ratios of name's unit to the reference in the
// replicates and the other runs, each relative to its run's speed shift
// when normalized: what the candidate's log ratio is judged against.
func (m *historyModel) values(name, unit string, normalized bool) (replicates, others []float64) {
	return m.logRatios(m.replicates, name, unit, normalized), m.logRatios(m.others, name, unit, normalized)
}

// candidateValues are the log ratios of name's unit to the reference in
// the candidate's runs when it was judged on several (each relative to its
// run's speed shift when normalized), nil otherwise.
func (m *historyModel) candidateValues(name, unit string, normalized bool) []float64 {
	return m.logRatios(m.candidate, name, unit, normalized)
}

// logRatios are the log ratios of name's unit to the reference in runs,
// each relative to its run's speed shift when normalized.
func (m *historyModel) logRatios(runs []modelRun, name, unit string, normalized bool) []float64 {
	var out []float64
	for _, r := range runs {
		lr, ok := logRatio(r.medians[name], m.ref[name], unit)
		if !ok {
			continue
		}
		if normalized {
			lr -= r.shift
		}
		out = append(out, lr)
	}
	return out
}
