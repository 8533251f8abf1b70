package report

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// JSONFormat and JSONVersion identify the document JSON writes.
const (
	JSONFormat  = "wirebench.comparison"
	JSONVersion = 1
)

// JSON writes a comparison as one JSON document for machines (CI steps,
// dashboards). The format is versioned: fields may be added within a
// version; a field is never removed or changes meaning without a new
// version. internal/report/json.md documents every field. In outline:
//
//	{
//	  "format": "wirebench.comparison", "version": 1,
//	  "verdict": "fail" | "pass",            // the fail-on condition applied
//	  "fail_on": "regression" | "never",
//	  "counts": {"regression": 2, "improvement": 1, "unchanged": 61, "inconclusive": 3,
//	             "comparisons": 67, "benchmarks": 20, "missing": 0, "new": 0, "unit_mismatch": 0},
//	  "options": {"threshold": 0.05, "size_threshold": 0, "alloc_threshold": 0, "alpha": 0.01,
//	              "correction": "holm", "confidence": 0.95, "power": 0.8, "normalize": "auto"},
//	  "baseline_env": {...}, "candidate_env": {...},   // as in a results file
//	  "machine_differs": [{"field", "old", "new"}], "other_differs": [...],
//	  "speed_shift": {"estimate", "ci_low", "ci_high", "n", "applied", "reason", "estimator"} | null,
//	  "comparisons": [{"name", "unit", "kind", "baseline", "candidate", "n_baseline",
//	                   "n_candidate", "ratio", "raw_ratio", "change", "ci_low", "ci_high",
//	                   "p_value", "p_adjusted", "verdict", "mde", "samples_needed",
//	                   "normalized", "higher_is_better", "note"}],
//	  "missing": [], "new": [], "unit_mismatch": [],
//	  "method": "stored-baseline" | "same-runner-ab", "why": "...",
//	  "aa_check": {"benchmarks", "flagged", "noisy"} | null,
//	  "clock": {"threshold", "history", "budget_seconds", "elapsed_seconds", "rounds", "generations"} | null,
//	  "judged": {"timings", "timings_gated", "timings_inconclusive", "timings_not_enforced",
//	             "timings_median_mde", "other", "other_gated"},
//	  "history": {"runs", "same_code", "needed", "more_runs", "settings_match", "settings_differ",
//	              "speed": {"shift", "lo", "hi", "outside"} | null} | null,
//	  "unseen": [{"name", "instructions_per_op", "native_ns_per_op", "instructions_per_ns"}]
//	}
//
// A counted regression or improvement (and an inconclusive count beyond
// the threshold) also carries "where": the functions behind it (compare.Where: "change_per_op", "explained",
// "baseline_bound", "candidate_bound", and "functions", each with
// "function", "symbol", "baseline", "candidate", "baseline_at_most",
// "candidate_at_most", "change", "share", "appeared", "disappeared").
// Comparisons also carry "paired" (same-runner pairs), "unconfirmed" (a
// regression that did not reproduce on re-measurement: not enforced),
// "enforced" and "not_enforced" (whether the verdict can fail the run, and
// why not), "test", "df" and "history_runs" (which test gave the p-value,
// and for the new-run test its degrees of freedom and the history's runs).
// A counted metric's comparison carries "spread" (the standard deviation
// of the processes' log counts around each side's mean) and, when its
// processes were tested pair by pair ("test": "paired-t"), "pairs" and
// "pair_spread" (what remained of the spread within a pair).
//
// Numbers that are NaN or infinite (a p-value of an exact metric, an
// interval that could not be estimated, a ratio against a zero baseline,
// an effect no sample count could detect) are null, since JSON has no
// spelling for them; the comparison's note or kind says which case it is.
// Comparisons are in report order: regressions, improvements,
// inconclusive, unchanged, each by the size of the change.
func JSON(w io.Writer, r *compare.Result, failOn compare.FailOn) error {
	return writeJSON(w, jsonDocument(r, failOn))
}

// BrokenJSON writes the JSON report of a run that compared nothing
// because what could not be measured (the pull request's code does not
// build, a worker crashed): the document JSON writes, without
// comparisons, its verdict fail (pass under fail-on never), and broken
// saying what and why, so that a reader of the JSON learns it as the
// reader of the text does.
func BrokenJSON(w io.Writer, what string, cause error, failOn compare.FailOn) error {
	doc := jsonDocument(&compare.Result{}, failOn)
	doc.Verdict = pick(failOn == compare.FailOnNever, "pass", "fail")
	doc.Broken = &jsonBroken{What: what, Error: cause.Error()}
	return writeJSON(w, doc)
}

// jsonBroken says what could not be measured and the error that said so.
type jsonBroken struct {
	What  string `json:"what"`
	Error string `json:"error"`
}

// writeJSON writes doc indented, as every JSON report is written.
func writeJSON(w io.Writer, doc jsonDoc) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// jsonDocument is the JSON report of r.
func jsonDocument(r *compare.Result, failOn compare.FailOn) jsonDoc {
	if failOn == "" {
		failOn = compare.FailOnRegression
	}
	doc := jsonDoc{
		Format: JSONFormat, Version: JSONVersion, Verdict: "pass", FailOn: string(failOn),
		Counts: jsonCounts{
			Regression:   r.Count(compare.Regression),
			Improvement:  r.Count(compare.Improvement),
			Unchanged:    r.Count(compare.Unchanged),
			Inconclusive: r.Count(compare.Inconclusive),
			Comparisons:  len(r.Comparisons),
			Benchmarks:   benchmarkCount(r.Comparisons),
			Missing:      len(r.Missing), New: len(r.New), UnitMismatch: len(r.UnitMismatch),
			Identical: r.IdenticalCount(),
		},
		Options: jsonOptions{
			Threshold: r.Options.Threshold, SizeThreshold: r.Options.SizeThreshold, AllocThreshold: r.Options.AllocThreshold,
			Alpha: r.Options.Alpha, Correction: string(r.Options.Correction), Confidence: r.Options.Confidence,
			Power: r.Options.Power, Normalize: string(r.Options.Normalize), CountedUnit: r.Options.CountedUnit,
		},
		BaselineEnv: r.BaselineEnv, CandidateEnv: r.CandidateEnv,
		MachineDiffers: diffs(r.MachineDiffers), OtherDiffers: diffs(r.OtherDiffers),
		Comparisons: []jsonComparison{},
		Missing:     orEmpty(r.Missing), New: orEmpty(r.New), UnitMismatch: orEmpty(r.UnitMismatch),
		Unseen: []jsonUnseen{}, Identical: []jsonIdentical{},
	}
	for _, p := range r.Identical {
		doc.Identical = append(doc.Identical, identicalJSON(p))
	}
	for _, u := range r.Unseen {
		doc.Unseen = append(doc.Unseen, jsonUnseen{Name: u.Name, InstructionsPerOp: u.InstructionsPerOp, NativeNsPerOp: u.NativeNsPerOp, PerNs: num(u.PerNs())})
	}
	doc.Troubles = troublesJSON(r)
	if r.Failed(failOn) {
		doc.Verdict = "fail"
	}
	doc.UnprofiledBase = r.UnprofiledBase
	doc.Patches = patchesJSON(r)
	doc.Method = string(r.Method)
	if doc.Method == "" {
		doc.Method = string(compare.MethodStored)
	}
	doc.Why = r.Why
	if a := r.AA; a != nil {
		doc.AACheck = &jsonAA{Benchmarks: a.Benchmarks, Flagged: orEmpty(a.Flagged), Noisy: a.Noisy}
	}
	if c := r.Clock; c != nil {
		doc.Clock = &jsonClock{Threshold: c.Threshold, History: c.History, Budget: c.Budget.Seconds(), Elapsed: c.Elapsed.Seconds(),
			Rounds: c.Rounds, Generations: c.Generations}
	}
	doc.Judged = judgedJSON(judge(r))
	if g := r.Gate; g != nil {
		doc.History = historyJSON(g)
	}
	if s := r.Shift; s != nil {
		doc.SpeedShift = &jsonShift{Estimate: num(s.Estimate), CILow: num(s.Lo), CIHigh: num(s.Hi), N: s.N, Applied: s.Applied, Reason: s.Reason,
			Estimator: pick(s.Median, "median", "geometric-mean")}
	}
	cs := append([]compare.Comparison(nil), r.Comparisons...)
	compare.Sort(cs)
	for _, c := range cs {
		doc.Comparisons = append(doc.Comparisons, comparisonJSON(r, c))
	}
	return doc
}

// identicalJSON is a package whose benchmarks were not measured, its
// test binary identical to the baseline's.
func identicalJSON(p compare.Identical) jsonIdentical {
	id := jsonIdentical{Package: p.Package, Hash: p.Hash, Reason: compare.IdenticalReason, Benchmarks: []jsonIdenticalBenchmark{}}
	for _, b := range p.Benchmarks {
		id.Benchmarks = append(id.Benchmarks, jsonIdenticalBenchmark{Name: b.Name, Baseline: b.Baseline})
	}
	return id
}

// judgedJSON is what was judged, and how much of it gated.
func judgedJSON(j judged) jsonJudged {
	return jsonJudged{Timings: j.timings.n, TimingsGated: j.timings.gated, TimingsInconclusive: j.timings.inconclusive,
		TimingsNotEnforced: j.timings.notEnforced, TimingsMedianMDE: num(j.timings.mde), Other: j.other, OtherGated: j.otherGated,
		Counts: j.counts.n, CountsGated: j.counts.gated, CountsInconclusive: j.counts.inconclusive,
		CountsNotEnforced: j.counts.notEnforced, CountsMedianMDE: num(j.counts.mde)}
}

// historyJSON is the timing gate of a stored-baseline comparison: the
// history's runs and what kept its timings from gating.
func historyJSON(g *compare.TimingGate) *jsonHistory {
	h := &jsonHistory{Runs: g.Runs, SameCode: g.SameCode, Needed: g.Needed, MoreRuns: g.MoreRuns(),
		Processes: g.Processes, CandidateRuns: g.CandidateRuns,
		SettingsMatch: g.SettingsMatch(), SettingsDiffer: diffs(g.SettingsDiffer)}
	if s := g.Speed; s != nil {
		h.Speed = &jsonSpeed{Shift: num(s.Shift), Lo: num(s.Lo), Hi: num(s.Hi), Outside: s.Outside}
	}
	if d := g.Dispersion; d != nil {
		h.Dispersion = &jsonDispersion{Lambda: num(d.Lambda), Timings: d.Timings, Applied: d.Applied, Widening: num(d.Widening())}
	}
	if b := g.Busy; b != nil {
		h.Busy = &jsonBusy{Candidate: num(b.Candidate), Reference: num(b.Reference), Limit: compare.BusyLimit,
			Parallel: orEmpty(b.Parallel), Busy: b.Busy()}
	}
	return h
}

// comparisonJSON is one comparison of r.
func comparisonJSON(r *compare.Result, c compare.Comparison) jsonComparison {
	return jsonComparison{
		Name: c.Name, Unit: c.Unit, Kind: string(c.Kind),
		Baseline: num(c.Baseline.Median), Candidate: num(c.Candidate.Median),
		NBaseline: c.Baseline.N, NCandidate: c.Candidate.N,
		Ratio: num(c.Ratio), RawRatio: num(c.RawRatio), Change: num(roundChange(c.Ratio - 1)), CILow: num(c.Lo), CIHigh: num(c.Hi),
		P: num(c.P), PAdjusted: num(c.PAdjusted), Verdict: string(c.Verdict),
		MDE: num(c.MDE), SamplesNeeded: c.SamplesNeeded,
		Normalized: c.Normalized, HigherIsBetter: c.HigherIsBetter, Note: c.Note,
		Paired: c.Paired, Unconfirmed: c.Unconfirmed, Accepted: c.Accepted,
		Enforced: r.Enforced(c), NotEnforced: notEnforcedReason(r, c), Test: testName(c),
		DF: dfNum(c.DF), HistoryRuns: c.HistoryRuns, Where: whereJSON(c.Where),
		Spread: c.Spread, Pairs: c.Pairs, PairSpread: c.PairSpread, Varying: c.Varying,
	}
}

// testName names the test behind a comparison's p-value: "" when there is
// none (an exact metric, or too few samples).
func testName(c compare.Comparison) string {
	switch {
	case c.Kind == compare.Exact || math.IsNaN(c.P):
		return ""
	case c.Paired:
		return "wilcoxon-signed-rank"
	case c.Test != "":
		return string(c.Test)
	}
	return "mann-whitney"
}

// notEnforcedReason is why c's verdict cannot fail the run, "" when it
// can.
func notEnforcedReason(r *compare.Result, c compare.Comparison) string {
	switch {
	case r.Enforced(c):
		return ""
	case c.NotEnforced != "":
		return c.NotEnforced
	}
	return aaNotEnforced
}

// aaNotEnforced is why a timing is not enforced when the A/A check found
// the machine too noisy: the result's reason, not the comparison's own.
const aaNotEnforced = "not enforced: the A/A check found the machine too noisy for timings"

// dfNum is a test's degrees of freedom, null when it has none.
func dfNum(df float64) num {
	if df <= 0 {
		return num(math.NaN())
	}
	return num(df)
}

// roundChange drops the binary noise of subtracting 1 from a ratio
// (1.047-1 = 0.04699999999999993) by keeping 12 decimals.
func roundChange(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	return math.Round(x*1e12) / 1e12
}

// num is a float64 that encodes NaN and ±Inf as null.
type num float64

// MarshalJSON implements json.Marshaler.
func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

type jsonDoc struct {
	Format         string           `json:"format"`
	Version        int              `json:"version"`
	Verdict        string           `json:"verdict"`
	FailOn         string           `json:"fail_on"`
	Counts         jsonCounts       `json:"counts"`
	Options        jsonOptions      `json:"options"`
	BaselineEnv    results.Env      `json:"baseline_env"`
	CandidateEnv   results.Env      `json:"candidate_env"`
	MachineDiffers []jsonDiff       `json:"machine_differs"`
	OtherDiffers   []jsonDiff       `json:"other_differs"`
	SpeedShift     *jsonShift       `json:"speed_shift"`
	Comparisons    []jsonComparison `json:"comparisons"`
	Missing        []string         `json:"missing"`
	New            []string         `json:"new"`
	UnitMismatch   []string         `json:"unit_mismatch"`
	Identical      []jsonIdentical  `json:"identical"`
	Method         string           `json:"method"`
	Why            string           `json:"why"`
	AACheck        *jsonAA          `json:"aa_check"`
	Clock          *jsonClock       `json:"clock"`
	Judged         jsonJudged       `json:"judged"`
	History        *jsonHistory     `json:"history"`
	Unseen         []jsonUnseen     `json:"unseen"`
	// UnprofiledBase is compare.Result.UnprofiledBase: a counted change
	// has no "where" because the baseline has no profiles.
	UnprofiledBase bool `json:"unprofiled_baseline,omitempty"`
	// Patches says, for a counted comparison, what wirebench patched in
	// each side's toolchain and whether its processes were seeded
	// (results.Counter.Patches, Random); absent when neither side said.
	Patches *jsonPatches `json:"patches,omitempty"`
	// Broken is set when nothing was compared because a side could not
	// be measured (BrokenJSON).
	Broken *jsonBroken `json:"broken,omitempty"`
	// Troubles are compare.Result.Troubles: benchmarks (or packages)
	// a side could not measure as it measured the others.
	Troubles []jsonTrouble `json:"troubles"`
}

// jsonTrouble is a compare.Trouble: each side's results.Trouble (null
// where that side had none), whether the base measured it, and whether
// it fails the run (compare.Result.FailingTroubles).
type jsonTrouble struct {
	Name         string           `json:"name"`
	Base         *results.Trouble `json:"base"`
	Head         *results.Trouble `json:"head"`
	BaseMeasured bool             `json:"base_measured"`
	Fails        bool             `json:"fails"`
}

// troublesJSON is r's troubles as the document holds them.
func troublesJSON(r *compare.Result) []jsonTrouble {
	out := []jsonTrouble{}
	for _, t := range r.Troubles {
		out = append(out, jsonTrouble{Name: t.Name, Base: t.Base, Head: t.Head, BaseMeasured: t.BaseMeasured, Fails: t.Broke() || r.Unjudged(t)})
	}
	return out
}

// jsonPatches is what each side's counted build was patched with.
type jsonPatches struct {
	Baseline  *jsonSidePatches `json:"baseline"`
	Candidate *jsonSidePatches `json:"candidate"`
}

// jsonSidePatches is one side's: results.Counter.Patches, and whether
// its processes were seeded (results.Counter.Random).
type jsonSidePatches struct {
	Patches string `json:"patches"`
	Seeded  bool   `json:"seeded"`
}

// patchesJSON is r's jsonPatches, nil when neither side's counter says
// what was patched.
func patchesJSON(r *compare.Result) *jsonPatches {
	side := func(c *results.Counter) *jsonSidePatches {
		if c == nil || c.Patches == "" {
			return nil
		}
		return &jsonSidePatches{Patches: c.Patches, Seeded: c.Random == results.SeededRandom}
	}
	p := &jsonPatches{Baseline: side(r.BaselineCounter), Candidate: side(r.Counter)}
	if p.Baseline == nil && p.Candidate == nil {
		return nil
	}
	return p
}

// jsonUnseen is a results.Unseen.
type jsonUnseen struct {
	Name              string  `json:"name"`
	InstructionsPerOp float64 `json:"instructions_per_op"`
	NativeNsPerOp     float64 `json:"native_ns_per_op"`
	PerNs             num     `json:"instructions_per_ns"`
}

type jsonJudged struct {
	Timings             int `json:"timings"`
	TimingsGated        int `json:"timings_gated"`
	TimingsInconclusive int `json:"timings_inconclusive"`
	TimingsNotEnforced  int `json:"timings_not_enforced"`
	TimingsMedianMDE    num `json:"timings_median_mde"`
	Other               int `json:"other"`
	OtherGated          int `json:"other_gated"`
	Counts              int `json:"counts"`
	CountsGated         int `json:"counts_gated"`
	CountsInconclusive  int `json:"counts_inconclusive"`
	CountsNotEnforced   int `json:"counts_not_enforced"`
	CountsMedianMDE     num `json:"counts_median_mde"`
}

type jsonHistory struct {
	Runs           int        `json:"runs"`
	SameCode       int        `json:"same_code"`
	Needed         int        `json:"needed"`
	MoreRuns       int        `json:"more_runs"`
	Processes      bool       `json:"processes"`
	CandidateRuns  int        `json:"candidate_runs"`
	SettingsMatch  bool       `json:"settings_match"`
	SettingsDiffer []jsonDiff `json:"settings_differ"`
	Speed          *jsonSpeed `json:"speed"`
	// Dispersion is compare.Dispersion: lambda, the timings it was
	// estimated from, whether it was applied, and the widening of the
	// intervals (sqrt(lambda) when applied, 1 otherwise).
	Dispersion *jsonDispersion `json:"dispersion"`
	// Busy is compare.BusyCheck: the CPUs' worth of other processes' work
	// beside the candidate's and the reference's timings, the limit from
	// which the timings of the benchmarks that run on every CPU
	// (parallel) are not enforced, and whether it was reached.
	Busy *jsonBusy `json:"busy,omitempty"`
}

type jsonBusy struct {
	Candidate num      `json:"candidate_other_cpus"`
	Reference num      `json:"reference_other_cpus"`
	Limit     float64  `json:"limit"`
	Parallel  []string `json:"parallel"`
	Busy      bool     `json:"busy"`
}

type jsonDispersion struct {
	Lambda   num  `json:"lambda"`
	Timings  int  `json:"timings"`
	Applied  bool `json:"applied"`
	Widening num  `json:"widening"`
}

type jsonSpeed struct {
	Shift   num  `json:"shift"`
	Lo      num  `json:"lo"`
	Hi      num  `json:"hi"`
	Outside bool `json:"outside"`
}

type jsonAA struct {
	Benchmarks int      `json:"benchmarks"`
	Flagged    []string `json:"flagged"`
	Noisy      bool     `json:"noisy"`
}

// jsonClock is a compare.Clock: the wall-time check beside a count.
type jsonClock struct {
	Threshold   float64 `json:"threshold"`
	History     bool    `json:"history"`
	Budget      float64 `json:"budget_seconds"`
	Elapsed     float64 `json:"elapsed_seconds"`
	Rounds      int     `json:"rounds"`
	Generations int     `json:"generations"`
}

type jsonCounts struct {
	Regression   int `json:"regression"`
	Improvement  int `json:"improvement"`
	Unchanged    int `json:"unchanged"`
	Inconclusive int `json:"inconclusive"`
	Comparisons  int `json:"comparisons"`
	Benchmarks   int `json:"benchmarks"`
	Missing      int `json:"missing"`
	New          int `json:"new"`
	UnitMismatch int `json:"unit_mismatch"`
	Identical    int `json:"identical"`
}

// jsonIdentical is compare.Identical: a package not measured because it is
// the same on both sides.
type jsonIdentical struct {
	Package    string                   `json:"package"`
	Hash       string                   `json:"hash"`
	Reason     string                   `json:"reason"`
	Benchmarks []jsonIdenticalBenchmark `json:"benchmarks"`
}

type jsonIdenticalBenchmark struct {
	Name     string             `json:"name"`
	Baseline map[string]float64 `json:"baseline,omitempty"`
}

type jsonOptions struct {
	Threshold      float64 `json:"threshold"`
	SizeThreshold  float64 `json:"size_threshold"`
	AllocThreshold float64 `json:"alloc_threshold"`
	Alpha          float64 `json:"alpha"`
	Correction     string  `json:"correction"`
	Confidence     float64 `json:"confidence"`
	Power          float64 `json:"power"`
	Normalize      string  `json:"normalize"`
	// CountedUnit is the count that gates speed (instructions/op or
	// est-cycles/op); "" when the run was timed.
	CountedUnit string `json:"counted_unit,omitempty"`
}

type jsonDiff struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

type jsonShift struct {
	Estimate num    `json:"estimate"`
	CILow    num    `json:"ci_low"`
	CIHigh   num    `json:"ci_high"`
	N        int    `json:"n"`
	Applied  bool   `json:"applied"`
	Reason   string `json:"reason"`
	// Estimator is "geometric-mean" or, against a history that gates,
	// "median".
	Estimator string `json:"estimator"`
}

type jsonComparison struct {
	Name           string `json:"name"`
	Unit           string `json:"unit"`
	Kind           string `json:"kind"`
	Baseline       num    `json:"baseline"`
	Candidate      num    `json:"candidate"`
	NBaseline      int    `json:"n_baseline"`
	NCandidate     int    `json:"n_candidate"`
	Ratio          num    `json:"ratio"`
	RawRatio       num    `json:"raw_ratio"`
	Change         num    `json:"change"`
	CILow          num    `json:"ci_low"`
	CIHigh         num    `json:"ci_high"`
	P              num    `json:"p_value"`
	PAdjusted      num    `json:"p_adjusted"`
	Verdict        string `json:"verdict"`
	MDE            num    `json:"mde"`
	SamplesNeeded  int    `json:"samples_needed"`
	Normalized     bool   `json:"normalized"`
	HigherIsBetter bool   `json:"higher_is_better"`
	Note           string `json:"note"`
	Paired         bool   `json:"paired"`
	Unconfirmed    bool   `json:"unconfirmed"`
	// Accepted is the pull request's acceptance of a regression.
	Accepted    *accept.Acceptance `json:"accepted,omitempty"`
	Enforced    bool               `json:"enforced"`
	NotEnforced string             `json:"not_enforced"`
	Test        string             `json:"test"`
	DF          num                `json:"df"`
	HistoryRuns int                `json:"history_runs"`
	// Spread, Pairs and PairSpread are a counted metric's spread between
	// processes and, tested paired, its pairs and the spread within them.
	Spread     float64 `json:"spread,omitempty"`
	Pairs      int     `json:"pairs,omitempty"`
	PairSpread float64 `json:"pair_spread,omitempty"`
	// Where is, on a counted regression or improvement (or an
	// inconclusive count beyond the threshold), the functions behind it
	// (compare.Where).
	Where *jsonWhere `json:"where,omitempty"`
	// Varying are the functions whose cost per operation differed most
	// between the candidate's processes, each with its standard
	// deviation over them (compare.Comparison.Varying).
	Varying []results.Function `json:"varying,omitempty"`
}

func diffs(d []results.Difference) []jsonDiff {
	out := []jsonDiff{}
	for _, x := range d {
		out = append(out, jsonDiff{Field: x.Field, Old: x.Old, New: x.New})
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
