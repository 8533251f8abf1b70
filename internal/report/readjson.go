package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// Bounds of a comparison document ReadJSON accepts: far above what a
// real run writes (the embedded suite has about 300 comparisons), low
// enough that a forged document cannot make the report that renders it
// slow or huge.
const (
	maxReadComparisons = 20_000
	maxReadFunctions   = 100
	maxReadText        = 4 << 10
)

// UnmarshalJSON reads a number JSON writes: null is NaN.
func (n *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("not a number: %s", b)
	}
	*n = num(f)
	return nil
}

// ReadJSON reads a comparison document JSON wrote back into the
// comparison it describes, so that a report can be rendered from the
// numbers rather than from Markdown someone else wrote: the trusted half
// of a fork's run renders its comment so (docs/action.md). Everything
// in data is treated as hostile: the document must be of this format and
// version, within the bounds above, every name and enum valid, and
// consistent with itself (its verdict and counts are those its
// comparisons give); anything else is an error naming the problem. What
// the document does not carry (the samples, the counter, the shards'
// shifts) is absent from the result, and so are the patches it reports
// (they are the counters').
func ReadJSON(data []byte) (*compare.Result, compare.FailOn, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var doc jsonDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, "", fmt.Errorf("not a comparison document: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "", fmt.Errorf("not a comparison document: data after its end")
	}
	if doc.Format != JSONFormat || doc.Version != JSONVersion {
		return nil, "", fmt.Errorf("format %q version %d: want %q version %d (written by another wirebench?)", doc.Format, doc.Version, JSONFormat, JSONVersion)
	}
	if doc.Broken != nil {
		return nil, "", fmt.Errorf("the document compares nothing: %s", Elide(doc.Broken.What, 200))
	}
	failOn := compare.FailOn(doc.FailOn)
	if failOn != compare.FailOnRegression && failOn != compare.FailOnNever {
		return nil, "", fmt.Errorf("fail_on %q: want regression or never", Elide(doc.FailOn, 40))
	}
	r, err := fromDoc(doc)
	if err != nil {
		return nil, "", err
	}
	// The document must say what its comparisons say: re-derive it and
	// compare, so that a forged headline cannot sit above other rows.
	again := jsonDocument(r, failOn)
	switch {
	case again.Verdict != doc.Verdict:
		return nil, "", fmt.Errorf("inconsistent document: verdict %q, but its comparisons give %q", Elide(doc.Verdict, 20), again.Verdict)
	case again.Counts != doc.Counts:
		return nil, "", fmt.Errorf("inconsistent document: counts %+v, but its comparisons give %+v", doc.Counts, again.Counts)
	}
	for i, t := range again.Troubles {
		if t.Fails != doc.Troubles[i].Fails {
			return nil, "", fmt.Errorf("inconsistent document: trouble %d (%s) says fails %v, but its fields give %v", i, Elide(t.Name, 80), doc.Troubles[i].Fails, t.Fails)
		}
	}
	for i, c := range again.Comparisons {
		if c.Enforced != doc.Comparisons[i].Enforced {
			return nil, "", fmt.Errorf("inconsistent document: comparison %d (%s %s) says enforced %v, but its fields give %v", i, Elide(c.Name, 80), c.Unit, doc.Comparisons[i].Enforced, c.Enforced)
		}
	}
	return r, failOn, nil
}

// fromDoc is the comparison doc describes: the inverse of jsonDocument
// for what the document carries.
func fromDoc(doc jsonDoc) (*compare.Result, error) {
	if len(doc.Comparisons) > maxReadComparisons {
		return nil, fmt.Errorf("%d comparisons: at most %d", len(doc.Comparisons), maxReadComparisons)
	}
	o := doc.Options
	r := &compare.Result{
		Options: compare.Options{Threshold: o.Threshold, SizeThreshold: o.SizeThreshold, AllocThreshold: o.AllocThreshold, Alpha: o.Alpha,
			Correction: compare.Correction(o.Correction), Confidence: o.Confidence, Power: o.Power, Normalize: compare.Normalize(o.Normalize),
			CountedUnit: o.CountedUnit},
		BaselineEnv: doc.BaselineEnv, CandidateEnv: doc.CandidateEnv,
		MachineDiffers: undiffs(doc.MachineDiffers), OtherDiffers: undiffs(doc.OtherDiffers),
		Missing: doc.Missing, New: doc.New, UnitMismatch: doc.UnitMismatch,
		Method: compare.Method(doc.Method), Why: doc.Why, UnprofiledBase: doc.UnprofiledBase,
	}
	if err := r.Options.Validate(); err != nil {
		return nil, fmt.Errorf("options: %w", err)
	}
	if o.CountedUnit != "" && !results.IsCounted(o.CountedUnit) {
		return nil, fmt.Errorf("options: counted_unit %q is not a counted unit", Elide(o.CountedUnit, 40))
	}
	switch r.Method {
	case compare.MethodStored, compare.MethodPaired, compare.MethodCounted:
	default:
		return nil, fmt.Errorf("method %q: want %s, %s or %s", Elide(doc.Method, 40), compare.MethodStored, compare.MethodPaired, compare.MethodCounted)
	}
	if a := doc.AACheck; a != nil {
		r.AA = &compare.AACheck{Benchmarks: a.Benchmarks, Flagged: a.Flagged, Noisy: a.Noisy}
	}
	if c := doc.Clock; c != nil {
		r.Clock = &compare.Clock{Threshold: c.Threshold, History: c.History, Budget: seconds(c.Budget), Elapsed: seconds(c.Elapsed),
			Rounds: c.Rounds, Generations: c.Generations}
	}
	if s := doc.SpeedShift; s != nil {
		r.Shift = &compare.Shift{Estimate: float64(s.Estimate), Lo: float64(s.CILow), Hi: float64(s.CIHigh), N: s.N, Applied: s.Applied,
			Reason: s.Reason, Median: s.Estimator == "median"}
	}
	if h := doc.History; h != nil {
		g := &compare.TimingGate{Runs: h.Runs, SameCode: h.SameCode, Needed: h.Needed, Processes: h.Processes, CandidateRuns: h.CandidateRuns,
			SettingsDiffer: undiffs(h.SettingsDiffer)}
		if s := h.Speed; s != nil {
			g.Speed = &compare.SpeedCheck{Shift: float64(s.Shift), Lo: float64(s.Lo), Hi: float64(s.Hi), Outside: s.Outside}
		}
		if d := h.Dispersion; d != nil {
			g.Dispersion = &compare.Dispersion{Lambda: float64(d.Lambda), Timings: d.Timings, Applied: d.Applied}
		}
		if b := h.Busy; b != nil {
			g.Busy = &compare.BusyCheck{Candidate: float64(b.Candidate), Reference: float64(b.Reference), Parallel: b.Parallel}
		}
		r.Gate = g
	}
	for _, p := range doc.Identical {
		id := compare.Identical{Package: p.Package, Hash: p.Hash}
		for _, b := range p.Benchmarks {
			id.Benchmarks = append(id.Benchmarks, compare.IdenticalBenchmark{Name: b.Name, Baseline: b.Baseline})
		}
		r.Identical = append(r.Identical, id)
	}
	for _, u := range doc.Unseen {
		r.Unseen = append(r.Unseen, results.Unseen{Name: u.Name, InstructionsPerOp: u.InstructionsPerOp, NativeNsPerOp: u.NativeNsPerOp})
	}
	if len(doc.Troubles) > maxReadComparisons {
		return nil, fmt.Errorf("%d troubles: at most %d", len(doc.Troubles), maxReadComparisons)
	}
	for i, j := range doc.Troubles {
		t, err := fromTrouble(j)
		if err != nil {
			return nil, fmt.Errorf("trouble %d: %w", i, err)
		}
		r.Troubles = append(r.Troubles, t)
	}
	for i, j := range doc.Comparisons {
		c, err := fromComparison(j, r)
		if err != nil {
			return nil, fmt.Errorf("comparison %d: %w", i, err)
		}
		r.Comparisons = append(r.Comparisons, c)
	}
	return r, nil
}

// fromTrouble is the trouble j describes, checked: a name, and on each
// side that has one a known kind and a bounded reason.
func fromTrouble(j jsonTrouble) (compare.Trouble, error) {
	if j.Name == "" || len(j.Name) > maxReadText {
		return compare.Trouble{}, fmt.Errorf("a name empty or longer than %d bytes", maxReadText)
	}
	if j.Base == nil && j.Head == nil {
		return compare.Trouble{}, fmt.Errorf("%s: neither side has a trouble", Elide(j.Name, 80))
	}
	for _, side := range []*results.Trouble{j.Base, j.Head} {
		if side == nil {
			continue
		}
		switch side.Kind {
		case results.TroubleSkipped, results.TroubleFailed, results.TroubleNotCounted, results.TroubleNotBuilt:
		default:
			return compare.Trouble{}, fmt.Errorf("%s: kind %q: want skipped, failed, not counted or not built", Elide(j.Name, 80), Elide(string(side.Kind), 20))
		}
		if side.Name != j.Name || len(side.Why) > results.MaxTroubleWhy+8 {
			return compare.Trouble{}, fmt.Errorf("%s: a side names another benchmark, or says why in more than %d bytes", Elide(j.Name, 80), results.MaxTroubleWhy)
		}
	}
	return compare.Trouble{Name: j.Name, Base: j.Base, Head: j.Head, BaseMeasured: j.BaseMeasured}, nil
}

// fromComparison is the comparison j describes, checked.
func fromComparison(j jsonComparison, r *compare.Result) (compare.Comparison, error) {
	if j.Name == "" || len(j.Name) > maxReadText || j.Unit == "" || len(j.Unit) > 64 || len(j.Note) > maxReadText {
		return compare.Comparison{}, fmt.Errorf("a name, unit or note empty or longer than %d bytes", maxReadText)
	}
	c := compare.Comparison{
		Name: j.Name, Unit: j.Unit, Kind: compare.Kind(j.Kind),
		Baseline: compare.Summary{Median: float64(j.Baseline), N: j.NBaseline}, Candidate: compare.Summary{Median: float64(j.Candidate), N: j.NCandidate},
		Ratio: float64(j.Ratio), RawRatio: float64(j.RawRatio), Lo: float64(j.CILow), Hi: float64(j.CIHigh),
		P: float64(j.P), PAdjusted: float64(j.PAdjusted), Verdict: compare.Verdict(j.Verdict), MDE: float64(j.MDE), SamplesNeeded: j.SamplesNeeded,
		Normalized: j.Normalized, HigherIsBetter: j.HigherIsBetter, Note: j.Note, Paired: j.Paired, Unconfirmed: j.Unconfirmed, Accepted: j.Accepted,
		HistoryRuns: j.HistoryRuns, Spread: j.Spread, Pairs: j.Pairs, PairSpread: j.PairSpread, Varying: j.Varying,
	}
	if !math.IsNaN(float64(j.DF)) {
		c.DF = float64(j.DF)
	}
	switch j.Test {
	case "", "mann-whitney", "wilcoxon-signed-rank":
	default:
		c.Test = compare.Test(j.Test)
	}
	// The A/A check's reason is the result's, not the comparison's own.
	if j.NotEnforced != aaNotEnforced {
		c.NotEnforced = j.NotEnforced
	}
	switch {
	case c.Kind != compare.Exact && c.Kind != compare.Noisy:
		return c, fmt.Errorf("kind %q: want exact or noisy", Elide(j.Kind, 20))
	case !slices.Contains([]compare.Verdict{compare.Regression, compare.Improvement, compare.Unchanged, compare.Inconclusive}, c.Verdict):
		return c, fmt.Errorf("verdict %q: want regression, improvement, unchanged or inconclusive", Elide(j.Verdict, 20))
	case math.IsNaN(c.Baseline.Median) || math.IsNaN(c.Candidate.Median) || c.Baseline.N < 0 || c.Candidate.N < 0:
		return c, fmt.Errorf("%s %s: a median that is not a number or a negative count", Elide(c.Name, 80), c.Unit)
	case len(c.Varying) > maxReadFunctions:
		return c, fmt.Errorf("%d varying functions: at most %d", len(c.Varying), maxReadFunctions)
	}
	if w := j.Where; w != nil {
		if len(w.Functions) > maxReadFunctions {
			return c, fmt.Errorf("%d functions where the change went: at most %d", len(w.Functions), maxReadFunctions)
		}
		c.Where = &compare.Where{Change: w.Change, Explained: float64(w.Explained), BaseBound: w.BaselineBound, CandidateBound: w.CandidateBound,
			Dumps: w.Dumps, Open: w.Open}
		for _, m := range w.Functions {
			if m.Symbol == "" || len(m.Symbol) > maxReadText {
				return c, fmt.Errorf("a function's symbol empty or longer than %d bytes", maxReadText)
			}
			c.Where.Functions = append(c.Where.Functions, compare.Moved{Name: m.Symbol, Base: m.Baseline, Candidate: m.Candidate,
				BaseAtMost: m.BaselineAtMost, CandidateAtMost: m.CandidateAtMost, Delta: m.Change, Share: float64(m.Share),
				Appeared: m.Appeared, Disappeared: m.Disappeared})
		}
	}
	return c, nil
}

func undiffs(d []jsonDiff) []results.Difference {
	var out []results.Difference
	for _, x := range d {
		out = append(out, results.Difference{Field: x.Field, Old: x.Old, New: x.New})
	}
	return out
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
