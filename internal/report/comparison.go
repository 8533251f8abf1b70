package report

import (
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// foldRows and foldRowsSmall are how many rows of a table stay in sight
// before the rest are collapsed: enough for any ordinary pull request,
// few enough that a sweeping change does not bury the rest of the report.
const (
	foldRows      = 20
	foldRowsSmall = 10
)

// comparisonDocument lays out the report of a comparison, first screen
// first: the headline, one sentence of verdict (what failed, by how much,
// which instrument), the changed rows and where the counted work went;
// then, folded, everything that says how (the method and its notes, the
// inconclusive comparisons, sizes and allocations that did not change,
// the environment, charts, every comparison). A reviewer reads what
// changed without scrolling through the method.
func comparisonDocument(in outcome.Report) *document {
	r := in.Result
	cs := slices.Clone(r.Comparisons)
	compare.Sort(cs)

	d := &document{shortened: shortenedNotice(in.Details)}
	d.add(headline(r, in.FailOn) + "\n\n")
	d.add(verdictSentence(r, in.FailOn) + "\n\n")
	d.addNotice()

	var noisy, exact []compare.Comparison
	for _, c := range cs {
		if c.Kind == compare.Exact {
			exact = append(exact, c)
		} else {
			noisy = append(noisy, c)
		}
	}
	acceptedSection(d, cs)
	changedSection(d, r, noisy, in.History, in.Details)
	troubleSections(d, r, in.Details)
	whereSection(d, r, in.Details)
	exactSection(d, r, exact, in.History, in.Details)
	listSection(d, r, in.Details)

	d.add(detailsOpen(measuredSummary(in)))
	d.add(summaryText(in) + "\n\n")
	for _, s := range []string{methodSentence(r, mdStyle), aaSentence(r, mdStyle), gateSentence(r, mdStyle), countedSentence(r, candidateElapsed(in)), patchesSentence(r, mdStyle)} {
		if s != "" {
			d.add(s + "\n\n")
		}
	}
	for _, s := range countNotes(nil, r.Unseen, r.Serial, r.Clock, mdStyle) {
		d.add(s + "\n\n")
	}
	d.add(NotesList(in.Notes, in.MarkdownNotes))
	if s := identicalSentence(r); s != "" {
		d.add(s + "\n\n")
	}
	if len(exact) > 0 {
		d.add(exactIntro + "\n\n")
	}
	if ws := located(r, true); len(ws) > 0 {
		d.add("Where the counted changes went: " + lowerFirst(whereIntro) + boundNote(ws) + "\n\n")
	}
	spreadSection(d, r, in.Details)
	d.add(detailsClose)

	unsureSection(d, r, noisy, in.Details)
	environmentSection(d, r)
	chartsSection(d, r, cs, in)
	allSection(d, r, in.Details)
	d.add(footer(in.Details))
	return d
}

// measuredSummary labels the folded method: how many notes it holds,
// since a note may say something the reviewer should know.
func measuredSummary(in outcome.Report) string {
	n := len(in.Notes) + len(in.MarkdownNotes)
	if n == 0 {
		return "How this was measured"
	}
	return "How this was measured, and " + human.Plural(n, "note", "notes")
}

// chartsSection folds the chart of the largest timing changes and the
// trend charts into one block.
func chartsSection(d *document, r *compare.Result, cs []compare.Comparison, in outcome.Report) {
	ch := changeChart(cs)
	trends := &document{}
	trendSection(trends, r, in.History, in.Candidate)
	if ch == "" && len(trends.parts) == 0 {
		return
	}
	d.add(detailsOpen("Charts"))
	if ch != "" {
		d.add("#### Largest timing changes\n\nThe size of each change in percent, its direction in the label (+ slower, - faster); " +
			"red: regression, green: improvement, grey: neither (inconclusive or within the threshold).\n\n" + ch + "\n")
	}
	d.parts = append(d.parts, trends.parts...)
	d.add(detailsClose)
}

// identicalSentence says which benchmarks were not measured because their
// packages are identical on both sides, and what that rests on; "" when
// none were.
func identicalSentence(r *compare.Result) string {
	n := r.IdenticalCount()
	if n == 0 {
		return ""
	}
	if len(r.Identical) == 1 && r.Identical[0].Package == "" {
		return fmt.Sprintf("The embedded suite's %s not measured: this wirebench executable (hashed), and so the suite's code and data, is the one that recorded the baseline, whose values they keep; "+
			"nothing a pull request changes reaches it (measure-all measures it).", human.Plural(n, "benchmark", "benchmarks"))
	}
	against := "in the base and the head"
	if r.Method == compare.MethodStored || r.Method == "" {
		against = "here and in the baseline (whose values they keep)"
	}
	return fmt.Sprintf("%s in %s not measured: the test binary (built with -trimpath) and the files of the package's directory are identical %s, "+
		"and so are the Go toolchain, GOOS/GOARCH and the build flags, all part of the hash; nothing in them can have changed "+
		"(measure-all measures them, for benchmarks that read files elsewhere).",
		human.Plural(n, "benchmark", "benchmarks"), human.Plural(len(r.Identical), "package", "packages"), against)
}

// candidateElapsed is how long the candidate took to measure, 0 when not
// known.
func candidateElapsed(in outcome.Report) time.Duration {
	if in.Candidate == nil {
		return 0
	}
	return in.Candidate.Settings.Elapsed
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// headline is the report's first line: the verdict, the improvements,
// then what was judged: how many timings gated and why the others could
// not (with what the inconclusive ones could detect), and the same of
// sizes and allocations. A run without regressions is marked ✅ only when
// some timing gated (or there were none): over timings that were all
// inconclusive or not enforced it is ❔, a pass of the gate that says
// nothing of the timings.
func headline(r *compare.Result, failOn compare.FailOn) string {
	reg := r.Count(compare.Regression)
	j := judge(r)
	var mark string
	var parts []string
	broke := len(r.FailingTroubles())
	switch {
	case reg > 0 && r.Failed(failOn):
		mark = "❌"
		parts = append(parts, human.Plural(reg, "regression", "regressions"))
	case broke > 0 && r.Failed(failOn):
		mark = "❌"
		parts = append(parts, human.Plural(broke, "benchmark", "benchmarks")+" the head could not measure")
	case reg > 0:
		mark = "⚠️"
		parts = append(parts, human.Plural(reg, "regression", "regressions")+" (not failing: "+notFailingReason(r, failOn)+")")
	case j.noTimingGated():
		mark = "❔"
		parts = append(parts, "No regressions")
	default:
		mark = "✅"
		parts = append(parts, "No regressions")
	}
	if n := r.Count(compare.Improvement); n > 0 {
		parts = append(parts, human.Plural(n, "improvement", "improvements"))
	}
	for _, p := range []string{j.timingsPart(r), j.countsPart(r), j.otherPart()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if n := len(r.Missing); n > 0 {
		parts = append(parts, human.Count(n)+" missing")
	}
	if len(r.Troubles) > 0 {
		parts = append(parts, troubleSummary(r.Troubles))
	}
	if n := r.IdenticalCount(); n > 0 {
		parts = append(parts, human.Count(n)+" identical (not measured)")
	}
	return "### " + mark + " " + strings.Join(parts, " · ")
}

// benchmarkCount is the number of distinct benchmarks compared.
func benchmarkCount(cs []compare.Comparison) int {
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Name] = true
	}
	return len(seen)
}

// revision describes a commit and ref: "`abc1234`, `main`".
func revision(e results.Env) string {
	var parts []string
	if c := code(ShortSHA(e.Commit)); c != "" {
		parts = append(parts, c)
	}
	if c := code(e.Ref); c != "" {
		parts = append(parts, c)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// summaryText is the sentence under the headline: what was compared with
// what, and by which rules.
func summaryText(in outcome.Report) string {
	r := in.Result
	o := r.Options
	var b strings.Builder
	if in.Title != "" {
		b.WriteString("**" + escapeInline(in.Title) + "** — ")
	}
	b.WriteString(pick(in.Title == "", "This run", "this run") + revision(r.CandidateEnv) + pick(paired(r) || r.Method == compare.MethodCounted, " against the base build", " against the baseline") + revision(r.BaselineEnv))
	if in.BaselineSource != "" {
		b.WriteString(" from " + escapeInline(in.BaselineSource))
	}
	fmt.Fprintf(&b, ": %s, %s (one per benchmark and metric). ",
		human.Plural(benchmarkCount(r.Comparisons), "benchmark", "benchmarks"), human.Plural(len(r.Comparisons), "comparison", "comparisons"))
	b.WriteString(changedRule(r))
	fmt.Fprintf(&b, "Encoded size and deterministic allocations are compared exactly: %s of the size and %s of allocations is a regression.",
		growth(o.SizeThreshold), growth(o.AllocThreshold))
	return b.String()
}

// clockPaired reports whether r's wall-time check paired its timings
// with a base build's (a same-runner A/B run) rather than judging them
// against a stored baseline's history.
func clockPaired(r *compare.Result) bool { return r.Clock != nil && !r.Clock.History }

// timingTest names the test that judged the timings.
func timingTest(r *compare.Result) string {
	if paired(r) || clockPaired(r) {
		return "the Wilcoxon signed-rank test on the per-pair log ratios"
	}
	newRun, samples := 0, 0
	for _, c := range r.Comparisons {
		switch {
		case c.Test == compare.TestNewRun:
			newRun++
		case c.Kind == compare.Noisy && isTimingUnit(c.Unit):
			samples++
		}
	}
	const history = "the new-run t-test against the baseline's history (this run's median as one more run, against how much the history's runs moved)"
	switch {
	case newRun > 0 && samples > 0:
		return history + ", or for benchmarks with too little history the Mann–Whitney U test of the samples (reported, not enforced),"
	case newRun > 0:
		return history
	}
	return "the Mann–Whitney U test"
}

func correctionText(c compare.Correction) string {
	switch c {
	case compare.Holm:
		return "Holm–Bonferroni-adjusted"
	case compare.BenjaminiHochberg:
		return "Benjamini–Hochberg-adjusted"
	}
	return "unadjusted"
}

func growth(threshold float64) string {
	if threshold <= 0 {
		return "any growth"
	}
	return "growth beyond +" + human.Percent(threshold)
}

// changedSection is "What changed": the timings and counts that changed
// significantly beyond the threshold. Nothing is written when none did:
// the verdict sentence says so.
func changedSection(d *document, r *compare.Result, noisy []compare.Comparison, h []baseline.Entry, details string) {
	var changed []compare.Comparison
	normalized := false
	for _, c := range noisy {
		if c.Verdict == compare.Regression || c.Verdict == compare.Improvement {
			changed = append(changed, c)
			normalized = normalized || c.Normalized
		}
	}
	if len(changed) == 0 {
		return
	}
	t := &table{
		head: fmt.Sprintf("#### What changed\n\n| Benchmark | Metric | Baseline | Candidate | Change [%s CI] | p (adj.) | Verdict | %s |\n|:--|:--|--:|--:|--:|--:|:--|:--|\n", human.Percent(r.Options.Confidence), pick(r.Clock == nil, "Against the history", "Seen by")),
		more: moreRows(details),
		tail: "\n",
		fold: foldRows, foldSummary: func(n int) string { return human.Plural(n, "more timing change", "more timing changes") },
	}
	for _, c := range changed {
		t.rows = append(t.rows, row{
			text: fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", CellName(c.Name), EscapeCell(c.Unit),
				FormatValue(c.Baseline.Median, c.Unit), FormatValue(c.Candidate.Median, c.Unit),
				change(c), pValue(c), comparisonLabel(r, c), lastCell(r, h, c)),
			tier: verdictTier(c.Verdict), mag: magnitude(c),
		})
	}
	d.addTable(t)
	if normalized && r.Shift != nil {
		d.add(fmt.Sprintf("<sub>Changes are relative to the machine's speed shift of %s (see Environment); baseline and candidate are the medians as measured.</sub>\n\n", factor(r.Shift.Estimate)))
	}
}

// unsureSection is the folded list of the inconclusive timings and
// counts, with what the run could have seen; when no timing or count
// changed, it also says how close the largest timing came.
func unsureSection(d *document, r *compare.Result, noisy []compare.Comparison, details string) {
	if len(noisy) == 0 {
		d.add(detailsOpen("No timings or counts were compared") + "Only sizes and allocations were compared." + detailsClose)
		return
	}
	var unsure []compare.Comparison
	changed := false
	for _, c := range noisy {
		switch c.Verdict {
		case compare.Inconclusive:
			unsure = append(unsure, c)
		case compare.Regression, compare.Improvement:
			changed = true
		}
	}
	if len(unsure) == 0 {
		return
	}
	closest := ""
	if !changed {
		closest = largestChange(noisy)
	}
	d.add(detailsOpen(fmt.Sprintf("%s (could detect %s, median)", human.Count(len(unsure))+" inconclusive", mdeText(medianMDE(unsure)))))
	d.add(fmt.Sprintf("Neither a change beyond ±%s nor clearly within it. "+
		"*Could detect* is the smallest change this comparison would flag with %s probability; "+
		"*Samples to resolve* is how many samples a side would tell a ±%s change apart.%s\n\n",
		human.Percent(r.Options.Threshold), human.Percent(r.Options.Power), human.Percent(r.Options.Threshold), closest))
	t := &table{
		head: "| Benchmark | Metric | Change [CI] | p (adj.) | Could detect | Samples to resolve | Why |\n|:--|:--|--:|--:|--:|--:|:--|\n",
		more: moreRows(details),
		tail: "\n",
		fold: foldRowsSmall, foldSummary: func(n int) string { return human.Count(n) + " more inconclusive" },
	}
	for _, c := range unsure {
		t.rows = append(t.rows, row{
			text: fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |\n", CellName(c.Name), EscapeCell(c.Unit), change(c), pValue(c),
				mdeText(c.MDE), samplesText(c), EscapeCell(c.Note)),
			tier: tierInconclusive, mag: magnitude(c),
		})
	}
	d.addTable(t)
	d.add(detailsClose)
}

// medianMDE is the median detectable change of cs (+Inf counts as the
// largest).
func medianMDE(cs []compare.Comparison) float64 {
	v := make([]float64, 0, len(cs))
	for _, c := range cs {
		if !math.IsNaN(c.MDE) {
			v = append(v, c.MDE)
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	return medianOf(v)
}

// largestChange names the largest measured change of a timing, so that
// "nothing changed" comes with how close it came.
func largestChange(noisy []compare.Comparison) string {
	var top *compare.Comparison
	for i, c := range noisy {
		if c.Unit == results.UnitNsPerOp && !math.IsNaN(c.Ratio) && !math.IsInf(c.Ratio, 0) && (top == nil || magnitude(c) > magnitude(*top)) {
			top = &noisy[i]
		}
	}
	if top == nil {
		return ""
	}
	return fmt.Sprintf(" The largest change of a timing was %s (%s, %s).", human.Change(top.Ratio-1, 1), CellName(top.Name), verdictLabel(top.Verdict))
}

func verdictTier(v compare.Verdict) int {
	switch v {
	case compare.Regression:
		return tierRegression
	case compare.Improvement:
		return tierImprovement
	}
	return tierInconclusive
}

// mdeText formats a minimum detectable effect.
func mdeText(mde float64) string {
	switch {
	case math.IsInf(mde, 1):
		return "cannot reach the significance level with this many samples"
	case math.IsNaN(mde):
		return "–"
	}
	return "±" + strings.TrimPrefix(human.Change(mde, 1), "+")
}

func samplesText(c compare.Comparison) string {
	if c.SamplesNeeded <= 0 {
		return "–"
	}
	return fmt.Sprintf("%s (now %d+%d)", human.Count(c.SamplesNeeded), c.Baseline.N, c.Candidate.N)
}

// acceptedSection lists the regressions the pull request accepted, with
// where, by whom and why: the pull request's own text, escaped.
func acceptedSection(d *document, cs []compare.Comparison) {
	t := &table{
		head: "| Benchmark | Metric | Change | Accepted in | By | Why |\n|:--|:--|--:|:--|:--|:--|\n",
		tail: "\n",
	}
	for _, c := range cs {
		a := c.Accepted
		if a == nil || c.Verdict != compare.Regression {
			continue
		}
		where := EscapeCell(a.Source)
		if !a.All() {
			where += ": " + code(a.Pattern)
		}
		by := "–"
		if a.By != "" {
			by = EscapeCell("@" + a.By)
		}
		why := "–"
		if a.Reason != "" {
			why = EscapeCell(a.Reason)
		}
		t.rows = append(t.rows, row{
			text: fmt.Sprintf("| %s | %s | %s | %s | %s | %s |\n", CellName(c.Name), EscapeCell(c.Unit), change(c), where, by, why),
			tier: tierRegression, mag: magnitude(c),
		})
	}
	if len(t.rows) == 0 {
		return
	}
	d.add(fmt.Sprintf("#### Accepted by the pull request\n\n%s accepted as intended: reported, not failing the check. The label accepts every flagged change; a `Wirebench-Accept: <benchmark pattern> [reason]` line in the description or a commit trailer accepts the benchmarks it matches.\n\n",
		human.Plural(len(t.rows), "regression is", "regressions are")))
	d.addTable(t)
}

// exactIntro says once how sizes and allocations are compared.
const exactIntro = "Encoded size (B/msg) is deterministic for a given code and input, and so are allocations (allocs/op, B/op) where every sample of each side agreed " +
	"and the value did not depend on the batch size (both sides measured a batch size in common, or each agreed across different ones): " +
	"any difference is real, and machine noise can neither cause nor hide one. Allocations that varied between samples, or that could be a per-operation average " +
	"moving with the batch size (fixed costs amortised over more or fewer operations), are tested like timings against the threshold."

// exactSection lists the exact metrics that changed, in sight, and how
// many did not; when none changed, only a folded line says so.
func exactSection(d *document, r *compare.Result, exact []compare.Comparison, h []baseline.Entry, details string) {
	if len(exact) == 0 {
		return
	}
	t := &table{
		head: "#### Size and allocations (exact)\n\n| Benchmark | Metric | Baseline | Candidate | Change | Verdict | Against the history |\n|:--|:--|--:|--:|--:|:--|:--|\n",
		more: moreRows(details),
		tail: "\n",
		fold: foldRows, foldSummary: func(n int) string { return human.Plural(n, "more change", "more changes") + " of size and allocations" },
	}
	same := 0
	for _, c := range exact {
		if c.Baseline.Median == c.Candidate.Median {
			same++
			continue
		}
		tier := verdictTier(c.Verdict)
		if c.Verdict == compare.Unchanged {
			tier = tierExactWithin
		}
		label := comparisonLabel(r, c)
		if c.Verdict == compare.Unchanged {
			label = "within threshold"
		}
		t.rows = append(t.rows, row{
			text: fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |\n", CellName(c.Name), EscapeCell(c.Unit),
				FormatValue(c.Baseline.Median, c.Unit), FormatValue(c.Candidate.Median, c.Unit), exactChange(c), label,
				historyPosition(h, c.Name, c.Unit, c.Candidate.Median)),
			tier: tier, mag: magnitude(c),
		})
	}
	if same == len(exact) {
		d.add(detailsOpen("Size and allocations: all "+human.Plural(same, "exact comparison", "exact comparisons")+" identical") + exactIntro + detailsClose)
		return
	}
	d.addTable(t)
	if same == 0 {
		d.add(fmt.Sprintf("None of the %s identical.\n\n", human.Plural(len(exact), "exact comparison is", "exact comparisons is")))
	} else {
		d.add(fmt.Sprintf("%s of %s exact comparisons are identical.\n\n", human.Count(same), human.Count(len(exact))))
	}
}

// exactChange formats the change of an exact metric with its difference
// in the metric's unit: "+5.2% (+12 B)".
func exactChange(c compare.Comparison) string {
	diff := c.Candidate.Median - c.Baseline.Median
	sign := "+"
	if diff < 0 {
		sign, diff = "-", -diff
	}
	return change(c) + " (" + sign + FormatValue(diff, c.Unit) + ")"
}

// environmentSection folds the two environments and what was done
// about their difference, the full environment nested inside.
func environmentSection(d *document, r *compare.Result) {
	var b strings.Builder
	summary := "Environment"
	if len(r.MachineDiffers) > 0 {
		summary += ": the machines differ"
	}
	b.WriteString(detailsOpen(summary))
	b.WriteString(envTable(r.BaselineEnv, r.CandidateEnv, keyFields, false))
	b.WriteString("\n" + shiftSentence(r, mdStyle))
	if s := otherSentence(r.OtherDiffers, mdStyle); s != "" {
		b.WriteString(" " + s)
	}
	b.WriteString("\n\n")
	b.WriteString(detailsOpen("Full environment") + envTable(r.BaselineEnv, r.CandidateEnv, fullFields, true) + detailsClose)
	b.WriteString(detailsClose)
	d.add(b.String())
}
