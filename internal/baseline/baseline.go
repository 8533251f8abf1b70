package baseline

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/results"
)

// Format names the JSON document kind.
const Format = "wirebench.baseline"

// Version is the baseline format version this build writes and the newest
// it reads.
const Version = 1

// DefaultHistory is the default bound on History.
const DefaultHistory = 50

// DefaultPath is where a repository keeps its baseline.
const DefaultPath = "baseline/default.json"

// Baseline is a repository's stored reference.
type Baseline struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Suite   string `json:"suite"`
	// Reference is the full results of the run that is the current
	// reference.
	Reference *results.Results `json:"reference"`
	// History is one summary per stored run in the order the runs arrived
	// (were stored), oldest first, at most the bound given when it was
	// last written. The order is never taken from the runs' clocks.
	History []Entry `json:"history"`
}

// Entry summarises one run: when, what, where, and the median of every
// metric of every benchmark.
type Entry struct {
	// Seq numbers the runs in the order they arrived: each refresh gives
	// its run one more than the largest stored. Files written before it
	// existed lack it; their order in the file is their arrival order.
	Seq     int64     `json:"seq,omitempty"`
	Time    time.Time `json:"time"`
	Commit  string    `json:"commit,omitempty"`
	Ref     string    `json:"ref,omitempty"`
	RunID   string    `json:"run_id,omitempty"`
	Machine string    `json:"machine,omitempty"`
	CPU     string    `json:"cpu,omitempty"`
	Go      string    `json:"go,omitempty"`
	// Harness is the harness settings the run was measured with, which
	// decide whether its timings are comparable with another run's; nil
	// in entries written before they were recorded.
	Harness *results.Harness `json:"harness,omitempty"`
	// Medians maps benchmark key (results.Benchmark.Key: the name, after
	// the package path when there is one) to unit to median value.
	Medians map[string]map[string]float64 `json:"medians"`
	// Accepted is what the pull requests merged by this run's commit
	// accepted as intended (their label, Wirebench-Accept lines): a change
	// that starts at this run and that they accepted is explained.
	// Absent in runs of no such pull request and in files written before
	// it was recorded.
	Accepted []accept.Acceptance `json:"accepted,omitempty"`
	// Clock summarises the run's wall-time check (results.Results.Clock):
	// its harness settings and medians, what a later check's wall times
	// are judged against. Nil for runs that were not counted and timed.
	Clock *ClockEntry `json:"clock,omitempty"`
	// Spread is, by benchmark key and unit, how far the run's median of
	// a metric could move by the spread of its samples alone: the
	// standard error of a median of normal samples on a log scale,
	// 1.2533·sd/√n (sd the standard deviation of the samples'
	// logarithms, n their number), 0 when every sample agrees. It is
	// recorded for the metrics whose history is modelled by it (see
	// Spreads): a count, whose samples are processes, so that the
	// spread bounds how far the run's median moves between runs; an
	// allocation count or any unit that is neither a timing nor the
	// encoded size, where 0 says the run measured it exactly. Absent for
	// a metric of one sample, one whose unequal samples include one ≤ 0,
	// and in runs stored before it was recorded.
	Spread map[string]map[string]float64 `json:"spread,omitempty"`
	// Counter is how the run counted (results.Settings.Counter, without
	// its estimate and budget), nil for a timed run: a count is
	// comparable with another's only when they were counted alike.
	Counter *results.Counter `json:"counter,omitempty"`
	// Batches are the distinct batch sizes (iterations a sample),
	// ascending, of each benchmark (by key) with a metric whose samples
	// all agreed: a per-operation average of a fixed cost moves with
	// the batch size, so two runs' exact values differ for the code only
	// when they share a batch size, or each agreed over several (as
	// compare judges exact metrics). Absent where not recorded.
	Batches map[string][]int64 `json:"batches,omitempty"`
	// PullRequests are the numbers of the pull requests merged by the
	// run's commit, when the run knew them (the action on a push): a
	// step at this run is theirs.
	PullRequests []int `json:"pull_requests,omitempty"`
}

// ClockEntry is the wall-time check of a history entry's run.
type ClockEntry struct {
	Harness *results.Harness              `json:"harness,omitempty"`
	Medians map[string]map[string]float64 `json:"medians"`
}

// key identifies an entry for merging: two writers that both recorded a
// run agree on its key.
func (e Entry) key() string {
	return e.Time.UTC().Format(time.RFC3339Nano) + "\x00" + e.Commit + "\x00" + e.RunID
}

// Summarize makes a history entry from a run. runID identifies the CI run
// (GITHUB_RUN_ID and attempt) when known.
func Summarize(r *results.Results, runID string) Entry {
	harness := r.Harness()
	e := Entry{
		Time: r.Env.Time, Commit: r.Env.Commit, Ref: r.Env.Ref, RunID: runID,
		Machine: r.Env.Machine, CPU: r.Env.CPU, Go: r.Env.GoVersion, Harness: &harness,
		Medians: r.Medians(),
	}
	e.Spread, e.Batches = spreads(r)
	if c := r.Settings.Counter; c != nil {
		k := *c
		k.Estimate, k.Budget = 0, 0
		e.Counter = &k
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC().Truncate(time.Second)
	}
	if k := r.Clock; k != nil {
		h := k.Harness()
		e.Clock = &ClockEntry{Harness: &h, Medians: k.Medians()}
	}
	return e
}

// Spreads reports whether the history records the spread of unit's
// samples (Entry.Spread): every unit but the timings (ns/op, and
// throughputs, higher is better) and the encoded size (B/msg, exact
// by construction), whose models need only the medians.
func Spreads(unit string) bool {
	return unit != results.UnitNsPerOp && !results.HigherIsBetter(unit) && !results.IsExact(unit)
}

// spreads are the spreads of r's metrics that Spreads names, by key and
// unit, and the batch sizes of each benchmark with such a metric whose
// samples all agree; nil maps when there are none.
func spreads(r *results.Results) (map[string]map[string]float64, map[string][]int64) {
	var out map[string]map[string]float64
	var batches map[string][]int64
	for _, b := range r.Benchmarks {
		for _, m := range b.Metrics {
			if !Spreads(m.Unit) || len(m.Values) < 2 {
				continue
			}
			sd, ok := logSpread(m.Values)
			if !ok {
				continue
			}
			sd *= medianSE / math.Sqrt(float64(len(m.Values)))
			if out == nil {
				out = map[string]map[string]float64{}
			}
			if out[b.Key()] == nil {
				out[b.Key()] = map[string]float64{}
			}
			out[b.Key()][m.Unit] = sd
			if sd == 0 && !results.IsCounted(m.Unit) && len(b.Iterations) > 0 && batches[b.Key()] == nil {
				if batches == nil {
					batches = map[string][]int64{}
				}
				batches[b.Key()] = slices.Compact(slices.Sorted(slices.Values(b.Iterations)))
			}
		}
	}
	return out, batches
}

// medianSE is the standard error of the median of n normal samples over
// σ/√n, for large n (√(π/2)); for 5 samples the exact factor is 1.198,
// for 3 1.160: the recorded spread errs a little on the wide side.
const medianSE = 1.2533

// logSpread is the standard deviation of the logarithms of v (n − 1 in
// the denominator), 0 when every value agrees (zeros included); false
// when unequal values include one ≤ 0.
func logSpread(v []float64) (float64, bool) {
	if results.AllEqual(v) {
		return 0, true
	}
	logs := make([]float64, len(v))
	for i, x := range v {
		if !(x > 0) {
			return 0, false
		}
		logs[i] = math.Log(x)
	}
	var mean, ss float64
	for _, l := range logs {
		mean += l
	}
	mean /= float64(len(logs))
	for _, l := range logs {
		ss += (l - mean) * (l - mean)
	}
	return math.Sqrt(ss / float64(len(logs)-1)), true
}

// Clocked is the baseline of the wall-time checks (results.Results.Clock)
// of b's counted runs: their timed runs as its reference and history, so
// that a check's wall times are judged as a timed check's are. Runs
// without one are left out of its history. Nil when b's reference has
// none.
func (b *Baseline) Clocked() *Baseline {
	if b == nil || b.Reference == nil || b.Reference.Clock == nil {
		return nil
	}
	c := &Baseline{Format: b.Format, Version: b.Version, Suite: b.Suite, Reference: b.Reference.Clock}
	for _, e := range b.History {
		if e.Clock == nil {
			continue
		}
		k := e
		k.Harness, k.Medians, k.Clock = e.Clock.Harness, e.Clock.Medians, nil
		k.Spread, k.Batches, k.Counter = nil, nil, nil // the count's, not the clock's
		c.History = append(c.History, k)
	}
	return c
}

// The reference's profiles (results.Profile: where each counted
// benchmark's work went) are kept compact, so that a baseline stays small
// enough to live in a repository and a check can still say where a
// change went without a base build: per benchmark the costliest
// functions that make up ProfileShare of its instructions, at most
// ProfileFunctions of them, the others summed (and bounded: a function
// the baseline does not name cost at most that much).
const (
	ProfileShare     = 0.99
	ProfileFunctions = 30
)

// New returns a baseline whose reference and only history entry is r,
// its profiles compact (ProfileShare).
func New(r *results.Results, runID string) *Baseline {
	e := Summarize(r, runID)
	e.Seq = 1
	return &Baseline{Format: Format, Version: Version, Suite: r.Suite, Reference: compactProfiles(r), History: []Entry{e}}
}

// compactProfiles is r with its profiles compact (ProfileShare), r
// itself when it has none.
func compactProfiles(r *results.Results) *results.Results {
	if !slices.ContainsFunc(r.Benchmarks, func(b results.Benchmark) bool { return b.Profile != nil }) {
		return r
	}
	c := r.Clone()
	for i := range c.Benchmarks {
		c.Benchmarks[i].Profile = c.Benchmarks[i].Profile.Compact(ProfileShare, ProfileFunctions)
	}
	return c
}

// Add records that r arrived now: it becomes the reference and the newest
// history entry, keeping at most limit entries (the last to arrive), as
// Refresh does.
func (b *Baseline) Add(r *results.Results, runID string, limit int) {
	*b = *Refresh(b, r, runID, limit)
}

// nextSeq is the arrival number of the next run: one more than the largest
// in the history.
func (b *Baseline) nextSeq() int64 {
	var n int64
	for _, e := range b.History {
		n = max(n, e.Seq)
	}
	return n + 1
}

// trim keeps the limit entries that arrived last.
func (b *Baseline) trim(limit int) {
	if limit <= 0 {
		limit = DefaultHistory
	}
	if len(b.History) > limit {
		b.History = slices.Clone(b.History[len(b.History)-limit:])
	}
}

// Merge combines two versions of a baseline: theirs, stored now, and ours,
// written after it from an older copy or holding only a new run (see
// Refresh). The history is the union of both without duplicates, in
// arrival order (Seq; on a tie, theirs first, as ours is written after
// it), bounded by limit, the earliest arrivals dropped first. The
// reference is that of the side whose run arrived last: ours when it
// brings a run theirs lacks, theirs when ours adds nothing (a write
// retried after a lost answer). Nothing another writer added is lost, and
// the runs' clocks are never consulted: a stored time in the future (a
// skewed clock, an edited file) cannot keep a new run from becoming the
// reference.
func Merge(ours, theirs *Baseline, limit int) *Baseline {
	type arrival struct {
		e     Entry
		ours  bool
		index int
	}
	seen := map[string]bool{}
	var all []arrival
	for i, e := range theirs.History {
		if !seen[e.key()] {
			seen[e.key()] = true
			all = append(all, arrival{e, false, i})
		}
	}
	for i, e := range ours.History {
		if !seen[e.key()] {
			seen[e.key()] = true
			all = append(all, arrival{e, true, i})
		}
	}
	slices.SortStableFunc(all, func(a, b arrival) int {
		if c := cmp.Compare(a.e.Seq, b.e.Seq); c != 0 {
			return c
		}
		if a.ours != b.ours {
			return cmpBool(a.ours, b.ours)
		}
		return cmp.Compare(a.index, b.index)
	})
	out := &Baseline{Format: Format, Version: Version, Suite: ours.Suite, Reference: theirs.Reference}
	if n := len(all); out.Reference == nil || (n > 0 && all[n-1].ours) {
		out.Reference = ours.Reference
	}
	for _, a := range all {
		out.History = append(out.History, a.e)
	}
	out.trim(limit)
	return out
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Refresh returns the baseline after run r arrived: old (nil when there is
// none yet) with r as the reference and the newest history entry, bounded
// by limit. It is the one way a baseline is refreshed, on disk and through
// the API alike, and it is idempotent: a write retried after a lost answer
// finds r already stored and changes nothing, even if another run arrived
// in between.
func Refresh(old *Baseline, r *results.Results, runID string, limit int) *Baseline {
	return RefreshAccepted(old, r, runID, limit, nil, nil)
}

// RefreshAccepted is Refresh with what the pull requests merged by r's
// commit accepted, and their numbers (prs), recorded in r's history
// entry.
func RefreshAccepted(old *Baseline, r *results.Results, runID string, limit int, accepted []accept.Acceptance, prs []int) *Baseline {
	if old == nil {
		old = &Baseline{}
	}
	b := New(r, runID)
	b.History[0].Seq = old.nextSeq()
	b.History[0].Accepted = accepted
	b.History[0].PullRequests = prs
	return Merge(b, old, limit)
}

// ReferenceEntry is the index of the history entry that summarises the
// reference run, -1 when there is none: the newest entry of the
// reference's time and commit, or else one whose medians are the
// reference's (two runs never agree on every median).
func (b *Baseline) ReferenceEntry() int {
	if b.Reference == nil {
		return -1
	}
	ref := Summarize(b.Reference, "")
	for i := len(b.History) - 1; i >= 0; i-- {
		e := b.History[i]
		if e.Commit == ref.Commit && e.Time.Equal(ref.Time) && !b.Reference.Env.Time.IsZero() {
			return i
		}
	}
	for i := len(b.History) - 1; i >= 0; i-- {
		if reflect.DeepEqual(b.History[i].Medians, ref.Medians) {
			return i
		}
	}
	return -1
}
