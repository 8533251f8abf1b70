package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// What a comparison judged, shared by the Markdown, text and JSON reports:
// a headline must say how many timings really gated and how many could
// not, never show a bare pass over timings that were all inconclusive or
// not enforced.

// judged counts a result's comparisons by what they could do to the run.
// Timings are the noisy comparisons of a time or a throughput, counts
// those of counted work (instructions/op, est-cycles/op); the others are
// sizes and allocations (exact, or tested where they varied).
type judged struct {
	timings, counts speed
	// other and otherGated count the sizes and allocations, and those
	// decided.
	other, otherGated int
}

// speed is what a run's comparisons of one kind of speed metric did: how
// many there were (n), gated (enforced, and decided: regression,
// improvement or unchanged), inconclusive (enforced, and neither) and not
// enforced (reported only), and the median detectable change of the
// inconclusive ones (+Inf when most could detect nothing, NaN when there
// are none).
type speed struct {
	n, gated, inconclusive, notEnforced int
	mde                                 float64
	mdes                                []float64
}

// add counts comparison c of r.
func (s *speed) add(r *compare.Result, c compare.Comparison) {
	s.n++
	switch {
	case !r.Enforced(c):
		s.notEnforced++
	case c.Verdict != compare.Inconclusive:
		s.gated++
	default:
		s.inconclusive++
		if !math.IsNaN(c.MDE) {
			s.mdes = append(s.mdes, c.MDE)
		}
	}
}

// isTimingUnit reports whether unit is a time per operation or a
// throughput.
func isTimingUnit(unit string) bool {
	return unit == results.UnitNsPerOp || results.HigherIsBetter(unit)
}

// judge counts what r judged.
func judge(r *compare.Result) judged {
	var j judged
	for _, c := range r.Comparisons {
		switch {
		case c.Kind == compare.Noisy && results.IsCounted(c.Unit):
			j.counts.add(r, c)
		case c.Kind == compare.Noisy && isTimingUnit(c.Unit):
			j.timings.add(r, c)
		default:
			j.other++
			if c.Verdict != compare.Inconclusive && r.Enforced(c) {
				j.otherGated++
			}
		}
	}
	j.timings.mde, j.counts.mde = medianOf(j.timings.mdes), medianOf(j.counts.mdes)
	return j
}

// medianOf is the median of v, NaN when v is empty.
func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 0 {
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[len(v)/2]
}

// noTimingGated reports whether there were speed metrics (timings, counts)
// and none of them gated: the run cannot pass as if they had.
func (j judged) noTimingGated() bool {
	return j.timings.n+j.counts.n > 0 && j.timings.gated+j.counts.gated == 0
}

// timingsPart is the headline's account of the timings: "all 84 gated",
// or how many of them, and why the others could not be, with what the
// inconclusive ones could have detected.
func (j judged) timingsPart(r *compare.Result) string {
	return j.timings.part("timings", func() string { return notEnforcedShort(r) })
}

// countsPart is the headline's account of the counted metrics.
func (j judged) countsPart(r *compare.Result) string {
	return j.counts.part("counts", func() string { return countsNotEnforcedShort(r) })
}

// part is the headline's account of s under its name, with why some were
// not enforced.
func (s speed) part(name string, why func() string) string {
	if s.n == 0 {
		return ""
	}
	if s.gated == s.n {
		return name + ": " + pick(s.n == 1, "the 1 gated", "all "+human.Count(s.n)+" gated")
	}
	parts := []string{human.Count(s.gated) + " of " + human.Count(s.n) + " gated"}
	if s.inconclusive > 0 {
		parts = append(parts, human.Count(s.inconclusive)+" inconclusive ("+detectText(s.mde)+")")
	}
	if s.notEnforced > 0 {
		parts = append(parts, human.Count(s.notEnforced)+" not enforced ("+why()+")")
	}
	return name + ": " + strings.Join(parts, ", ")
}

// countsNotEnforcedShort is why counted metrics were not enforced: the
// reason the most of them give.
func countsNotEnforcedShort(r *compare.Result) string {
	n := map[string]int{}
	top := ""
	for _, c := range r.Comparisons {
		if results.IsCounted(c.Unit) && c.NotEnforced != "" {
			n[c.NotEnforced]++
			if top == "" || n[c.NotEnforced] > n[top] {
				top = c.NotEnforced
			}
		}
	}
	return top
}

// otherPart is the headline's account of sizes and allocations.
func (j judged) otherPart() string {
	switch {
	case j.other == 0:
		return ""
	case j.otherGated == j.other:
		return "sizes and allocations: " + pick(j.other == 1, "the 1 gated", "all "+human.Count(j.other)+" gated")
	}
	s := fmt.Sprintf("sizes and allocations: %s of %s gated", human.Count(j.otherGated), human.Count(j.other))
	if n := j.other - j.otherGated; n > 0 {
		s += ", " + human.Count(n) + " inconclusive"
	}
	return s
}

// detectText says what the median inconclusive timing could detect.
func detectText(mde float64) string {
	switch {
	case math.IsNaN(mde):
		return "detectable change unknown"
	case math.IsInf(mde, 1):
		return "most could detect no change at all"
	}
	return "could detect " + mdeText(mde) + ", median"
}

// notEnforcedShort is why timings were not enforced, in a few words: the
// settings, the history, or the A/A check.
func notEnforcedShort(r *compare.Result) string {
	var why []string
	if g := r.Gate; g != nil && !g.SettingsMatch() {
		why = append(why, "measured with other settings than the baseline")
	}
	if g := r.Gate; g != nil && g.SettingsMatch() && g.MoreRuns() == 0 && g.SpeedOutside() {
		whose := "the history's"
		if g.Processes {
			whose = "the baseline's processes'"
		}
		why = append(why, fmt.Sprintf("its median timing moved ×%.2f, outside %s ×%.2f to ×%.2f", g.Speed.Shift, whose, g.Speed.Lo, g.Speed.Hi))
	}
	if g := r.Gate; g != nil && g.MoreRuns() > 0 {
		if g.Processes {
			why = append(why, fmt.Sprintf("the baseline holds %s, %s more needed", human.Plural(g.Runs, "go test process", "go test processes"), human.Count(g.MoreRuns())))
		} else {
			why = append(why, fmt.Sprintf("the baseline's history has %s, %s more needed", human.Plural(g.Runs, "run", "runs"), human.Count(g.MoreRuns())))
		}
	}
	if r.AA != nil && r.AA.Noisy {
		why = append(why, "the A/A check found the machine too noisy")
	}
	if g := r.Gate; g != nil && g.Busy.Busy() && len(g.Busy.Parallel) > 0 {
		why = append(why, fmt.Sprintf("other processes kept %.2f CPUs busy beside what runs on every CPU", max(g.Busy.Candidate, g.Busy.Reference)))
	}
	if len(why) == 0 {
		why = append(why, "some benchmarks have too little history")
	}
	return strings.Join(why, "; ")
}

// gateSentence says how the timings of a stored-baseline comparison were
// judged, and when they were not enforced why, and what would make them
// gate, in the style st; "" for a same-runner A/B comparison (its A/A
// sentence says it).
func gateSentence(r *compare.Result, st style) string {
	g := r.Gate
	if g == nil || judge(r).timings.n == 0 {
		return ""
	}
	if g.Processes {
		return processesSentence(r, st)
	}
	code := ""
	if g.SameCode > 1 {
		code = fmt.Sprintf(", %d of them of the reference's commit", g.SameCode)
	}
	switch {
	case !g.SettingsMatch():
		return st.warning(fmt.Sprintf("Timings are reported, not enforced: this run was measured with other harness settings than the baseline (%s), and a timing depends on the batch sizes they choose. Measure with the baseline's settings, which check does unless told otherwise, to gate them. Sizes and allocations gate as usual.",
			st.text(diffText(g.SettingsDiffer))))
	case g.MoreRuns() == 0 && g.SpeedOutside():
		return st.warning(fmt.Sprintf("Timings are reported, not enforced: this run's median timing moved ×%.2f against the baseline, outside the ×%.2f to ×%.2f that a run of the baseline's history moves (%s prediction). The machine was in a state the history never measured (load, another kind of runner, a process off its usual speed), which moves benchmarks unlike each other, so the history cannot judge this run's timings. (A change that slows every benchmark alike lands here too: the same-runner A/B mode can tell it.) Sizes and allocations gate as usual.",
			g.Speed.Shift, g.Speed.Lo, g.Speed.Hi, human.Percent(r.Options.Confidence)))
	case g.MoreRuns() > 0:
		return st.warning(fmt.Sprintf("Timings are reported, not enforced: a benchmark's median moves from one process to the next by more than the samples of one run can show, and the baseline's history has %s measured with this run's settings, of the %d needed to estimate how much. %s more %s of the baseline (`wirebench update`, or the action on pushes to the default branch) make timings gate. Sizes and allocations gate as usual.",
			human.Plural(g.Runs, "run", "runs"), g.Needed, capitalize(human.Count(g.MoreRuns())), pick(g.MoreRuns() == 1, "run", "runs")))
	}
	out := fmt.Sprintf("Timings are judged against the baseline's history: %s measured with this run's settings%s. This run counts as one more; a timing changed when its median lies outside what those runs show for it.",
		human.Plural(g.Runs, "run", "runs"), code)
	if d := g.Dispersion; d != nil && d.Applied {
		out += fmt.Sprintf(" This run's timings lie ×%.2f farther from the history than its runs lie from each other (the median over %s): the history saw less variation than this run met, so every timing's interval is widened by ×%.2f.",
			d.Widening(), human.Plural(d.Timings, "timing", "timings"), d.Widening())
	}
	if b := g.Busy; b.Busy() && len(b.Parallel) > 0 {
		out += fmt.Sprintf(" Other processes kept %.2f of the machine's CPUs busy while this run was timed (%.2f while the baseline was): the wall time of each benchmark that runs on every CPU (b.RunParallel: %s) is reported, not enforced, since such work slows those, not the benchmarks on one CPU, and no speed shift shows it.",
			b.Candidate, b.Reference, human.Plural(len(b.Parallel), "benchmark", "benchmarks"))
	}
	return out
}

// processesAdvice is how to write Go benchmark text whose timings can
// gate: several go test processes a side, not one process's -count.
const processesAdvice = "for i in 1 2 3 4 5; do go test -run '^$' -bench . -count 2 ./...; done > old.txt"

// processesSentence is gateSentence for Go benchmark text whose go test
// processes are the runs (compare.History.Processes).
func processesSentence(r *compare.Result, st style) string {
	g := r.Gate
	if g.MoreRuns() > 0 {
		return st.warning(fmt.Sprintf("Timings are reported, not enforced: a benchmark's median moves from one go test process to the next by more than the samples of one process show (-count adds samples, not processes), and the baseline holds %s, of the %d needed to estimate how much. Write each side with %d go test processes or more (`%s`, and the same for the candidate) to gate them. Sizes and allocations gate as usual.",
			human.Plural(g.Runs, "go test process", "go test processes"), g.Needed, g.Needed, processesAdvice))
	}
	if g.SpeedOutside() {
		return st.warning(fmt.Sprintf("Timings are reported, not enforced: the candidate's median timing moved ×%.2f against the baseline, outside the ×%.2f to ×%.2f that the baseline's processes move (%s prediction): the machine was not in the state it was in for the baseline (load, another machine), which moves benchmarks unlike each other. (A change that slows every benchmark alike lands here too: `wirebench ab` can tell it.) Sizes and allocations gate as usual.",
			g.Speed.Shift, g.Speed.Lo, g.Speed.Hi, human.Percent(r.Options.Confidence)))
	}
	out := fmt.Sprintf("Timings are judged by go test processes, each one run: %s of the baseline against %s of the candidate; a timing changed when the candidate's processes lie farther from the baseline's than processes of one code lie from each other.",
		human.Count(g.Runs), human.Count(g.CandidateRuns))
	if d := g.Dispersion; d != nil && d.Applied {
		out += fmt.Sprintf(" The candidate's timings lie ×%.2f farther from the baseline than its processes lie from each other (the median over %s): every timing's interval is widened by ×%.2f.",
			d.Widening(), human.Plural(d.Timings, "timing", "timings"), d.Widening())
	}
	return out
}

// diffText lists setting differences: "budget: 1m0s → 20s; samples: 15 → 9".
func diffText(d []results.Difference) string {
	var f []string
	for _, x := range d {
		f = append(f, x.String())
	}
	return strings.Join(f, "; ")
}

// capitalize upper-cases the first letter of s (an ASCII word or digit).
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
