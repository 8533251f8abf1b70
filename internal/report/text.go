package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// Text writes a comparison for a terminal, in the manner of benchstat: the
// two environments, then per unit a table of every benchmark's baseline
// and candidate medians and the change, "+12.34% (p=0.000 n=15+15)" when
// significant after adjustment and "~ (p=0.42 n=15+15)" when not, with a
// geometric-mean row; then the verdicts that matter, and what was done
// about the machine's speed shift. Names are the Go benchmark names
// without the "Benchmark" prefix, so the output can be grepped.
func Text(w io.Writer, r *compare.Result) error {
	bw := bufio.NewWriter(w)
	writeTextHead(bw, r)
	writeTextTables(bw, r)
	fmt.Fprintln(bw)
	writeTextVerdicts(bw, r)
	writeWhere(bw, r)
	writeTextNames(bw, r)
	fmt.Fprintln(bw)
	writeProse(bw, shiftSentence(r, textStyle))
	if s := otherSentence(r.OtherDiffers, textStyle); s != "" {
		writeProse(bw, s)
	}
	return bw.Flush()
}

// writeTextHead writes the two environments, each wrapped under its
// label, and how the comparison was made: the method, the A/A check, the
// timing gate and the counts' notes.
func writeTextHead(bw *bufio.Writer, r *compare.Result) {
	for _, e := range []struct {
		label string
		env   results.Env
	}{{"baseline:  ", r.BaselineEnv}, {"candidate: ", r.CandidateEnv}} {
		for i, line := range human.Wrap(envLine(e.env), TextWidth-len(e.label)) {
			fmt.Fprintf(bw, "%s%s\n", pick(i == 0, e.label, strings.Repeat(" ", len(e.label))), line)
		}
	}
	for _, s := range append([]string{methodSentence(r, textStyle), aaSentence(r, textStyle), gateSentence(r, textStyle), countedSentence(r, 0), patchesSentence(r, textStyle)}, countNotes(nil, r.Unseen, r.Serial, r.Clock, textStyle)...) {
		if s != "" {
			writeProse(bw, s)
		}
	}
}

// writeTextTables writes a table a unit, in the order the units first
// appear: every benchmark's medians and change, grouped by package as
// benchstat does, and the geometric mean.
func writeTextTables(bw *bufio.Writer, r *compare.Result) {
	var units []string
	byUnit := map[string][]compare.Comparison{}
	for _, c := range r.Comparisons {
		if _, ok := byUnit[c.Unit]; !ok {
			units = append(units, c.Unit)
		}
		byUnit[c.Unit] = append(byUnit[c.Unit], c)
	}
	for _, u := range units {
		cs := byUnit[u]
		rows := [][]string{{u, "baseline", "candidate", "vs base"}}
		// As benchstat does: the package once, on a line of its own,
		// above its benchmarks.
		pkg := ""
		for _, c := range byPackage(cs) {
			p, name := results.SplitKey(c.Name)
			if p != pkg {
				pkg = p
				rows = append(rows, []string{"pkg: " + p})
			}
			rows = append(rows, []string{strings.TrimPrefix(name, "Benchmark"),
				FormatValue(c.Baseline.Median, u), FormatValue(c.Candidate.Median, u), vsBase(c, r.Options.Alpha)})
		}
		if g, ok := geomeanRow(cs); ok {
			rows = append(rows, g)
		}
		bw.WriteString("\n")
		writeAligned(bw, rows)
		if slices.ContainsFunc(cs, func(c compare.Comparison) bool { return c.Normalized }) && r.Shift != nil {
			fmt.Fprintf(bw, "(vs base is relative to the machine's speed shift %s; medians and geomean are as measured)\n", factor(r.Shift.Estimate))
		}
	}
}

// writeTextVerdicts writes the verdict and its counts, what was judged
// and by which rule, then a line for each comparison that did not come
// out unchanged, most important first.
func writeTextVerdicts(bw *bufio.Writer, r *compare.Result) {
	writeProse(bw, verdictWord(r)+": "+countsLine(r))
	writeProse(bw, judgedLine(r))
	writeProse(bw, ruleLine(r))
	cs := append([]compare.Comparison(nil), r.Comparisons...)
	compare.Sort(cs)
	var lines [][]string
	for _, c := range cs {
		if c.Verdict == compare.Unchanged {
			continue
		}
		lines = append(lines, []string{"  " + textVerdict(r, c), strings.TrimPrefix(c.Name, "Benchmark"), c.Unit, change(c), textDetail(r, c)})
	}
	writeLeft(bw, lines)
}

// textVerdict is a comparison's verdict with why a regression does not
// fail the run.
func textVerdict(r *compare.Result, c compare.Comparison) string {
	verdict := string(c.Verdict)
	switch {
	case c.Verdict == compare.Regression && c.Accepted != nil:
		verdict += " (accepted)"
	case c.Verdict == compare.Regression && c.Unconfirmed:
		verdict += " (not reproduced)"
	case c.Verdict == compare.Regression && c.NotEnforced != "":
		verdict += " (not enforced)"
	case c.Verdict == compare.Regression && !enforced(r, c):
		verdict += " (A/A noisy)"
	}
	return verdict
}

// textDetail is a comparison's p-value, for an inconclusive timing that
// gates what it could detect and with how many samples, and its note.
func textDetail(r *compare.Result, c compare.Comparison) string {
	detail := pValue(c)
	// What a timing that cannot gate could detect, and with how many
	// samples, would be advice of no use: the judged line says what
	// makes it gate.
	if c.Verdict == compare.Inconclusive && !math.IsNaN(c.MDE) && r.Enforced(c) {
		if math.IsInf(c.MDE, 1) {
			detail += "; " + mdeText(c.MDE)
		} else {
			detail += "; could detect " + mdeText(c.MDE)
		}
		if c.SamplesNeeded > 0 {
			detail += fmt.Sprintf(", %d samples a side would resolve it", c.SamplesNeeded)
		}
	}
	if c.Note != "" {
		detail += "; " + c.Note
	}
	return detail
}

// writeTextNames lists the benchmarks that were not compared: missing
// from this run, new in it, without a metric in common, and identical
// (not measured).
func writeTextNames(bw *bufio.Writer, r *compare.Result) {
	for _, l := range []struct {
		what  string
		names []string
	}{{"missing from this run", r.Missing}, {"new in this run", r.New}, {"no metric in common", r.UnitMismatch}} {
		if len(l.names) > 0 {
			writeProse(bw, fmt.Sprintf("%s: %s", l.what, strings.Join(l.names, ", ")))
		}
	}
	if lines := troubleLines(r); len(lines) > 0 {
		writeProse(bw, "not measured as the others ("+troubleSummary(r.Troubles)+"):")
		for _, l := range lines {
			writeProse(bw, "  "+l)
		}
	}
	if s := identicalSentence(r); s != "" {
		var names []string
		for _, p := range r.Identical {
			for _, b := range p.Benchmarks {
				names = append(names, b.Name)
			}
		}
		writeProse(bw, s)
		writeProse(bw, "identical, not measured: "+strings.Join(names, ", "))
	}
}

// exactRule says what makes an exact metric a regression.
func exactRule(o compare.Options) string {
	if o.SizeThreshold == o.AllocThreshold {
		return growth(o.SizeThreshold)
	}
	return growth(o.SizeThreshold) + " of size, " + growth(o.AllocThreshold) + " of allocations"
}

// verdictWord is the text report's verdict: REGRESSED, or ok with why
// regressions did not fail, or that no timing gated.
func verdictWord(r *compare.Result) string {
	switch {
	case r.Failed(compare.FailOnRegression):
		return "REGRESSED"
	case r.Count(compare.Regression) > 0:
		return "ok (regressions not enforced: " + notFailingReason(r, compare.FailOnRegression) + ")"
	case judge(r).noTimingGated():
		return "ok (no timing gated)"
	}
	return "ok"
}

// judgedLine is the text report's account of what was judged, as the
// headline of the Markdown report gives it.
func judgedLine(r *compare.Result) string {
	j := judge(r)
	var parts []string
	for _, p := range []string{j.timingsPart(r), j.countsPart(r), j.otherPart()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "judged: nothing"
	}
	return "judged: " + strings.Join(parts, "; ")
}

// countsLine lists the verdict counts: "2 regressions, 1 improvement, ...".
func countsLine(r *compare.Result) string {
	regs := human.Plural(r.Count(compare.Regression), "regression", "regressions")
	if n := r.Count(compare.Regression) - len(r.Failing()); n > 0 && r.Failed(compare.FailOnRegression) {
		regs += fmt.Sprintf(" (%s not enforced or not reproduced)", human.Count(n))
	}
	return fmt.Sprintf("%s, %s, %s unchanged, %s inconclusive",
		regs,
		human.Plural(r.Count(compare.Improvement), "improvement", "improvements"),
		human.Count(r.Count(compare.Unchanged)), human.Count(r.Count(compare.Inconclusive)))
}

// vsBase is the benchstat-style change column.
func vsBase(c compare.Comparison, alpha float64) string {
	n := fmt.Sprintf("n=%d+%d", c.Baseline.N, c.Candidate.N)
	if c.Test == compare.TestPairedT {
		n = fmt.Sprintf("n=%d pairs", c.Pairs)
	}
	if c.Kind == compare.Exact {
		if c.Baseline.Median == c.Candidate.Median {
			return "= (exact)"
		}
		return pct2(c.Ratio) + " (exact)"
	}
	switch {
	case math.IsNaN(c.PAdjusted) || math.IsNaN(c.Ratio):
		return "? (" + n + ")"
	case c.PAdjusted < alpha:
		return fmt.Sprintf("%s (p=%.3f %s)", pct2(c.Ratio), c.PAdjusted, n)
	}
	return fmt.Sprintf("~ (p=%.2f %s)", c.PAdjusted, n)
}

// byPackage orders comparisons by package, keeping their order within
// one; comparisons of no package come first.
func byPackage(cs []compare.Comparison) []compare.Comparison {
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b compare.Comparison) int {
		pa, _ := results.SplitKey(a.Name)
		pb, _ := results.SplitKey(b.Name)
		return strings.Compare(pa, pb)
	})
	return out
}

// pct2 formats a ratio as a change with two decimals, as benchstat does.
func pct2(ratio float64) string {
	switch {
	case math.IsInf(ratio, 1):
		return "from 0"
	case math.IsNaN(ratio):
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", 100*(ratio-1))
}

// geomeanRow is the geometric mean of the medians on each side, over the
// rows where both are positive, and their ratio (before normalisation).
func geomeanRow(cs []compare.Comparison) ([]string, bool) {
	var lb, lc float64
	n := 0
	for _, c := range cs {
		if c.Baseline.Median > 0 && c.Candidate.Median > 0 {
			lb += math.Log(c.Baseline.Median)
			lc += math.Log(c.Candidate.Median)
			n++
		}
	}
	if n < 2 {
		return nil, false
	}
	gb, gc := math.Exp(lb/float64(n)), math.Exp(lc/float64(n))
	unit := cs[0].Unit
	return []string{"geomean", FormatValue(gb, unit), FormatValue(gc, unit), pct2(gc / gb)}, true
}

// writeAligned writes a table with the first column left-aligned, the
// value columns right-aligned and the last column left-aligned.
func writeAligned(w *bufio.Writer, rows [][]string) { writeRows(w, rows, true) }

// writeLeft writes rows with every column left-aligned.
// A row wider than TextWidth has its last cell (the details) on the lines
// below it, wrapped and indented.
func writeLeft(w *bufio.Writer, rows [][]string) { writeRows(w, rows, false) }

// detailIndent is how far a wrapped row's details are indented.
const detailIndent = 6

// writeRows writes rows as a table, two spaces between columns, each cell
// padded to its column's width: a value column (neither the first nor
// the last) right-aligned when right is set, every other cell
// left-aligned; without right, a row wider than TextWidth has its last
// cell wrapped on indented lines below it. A row holding only a "pkg: "
// line is written as it is.
func writeRows(w *bufio.Writer, rows [][]string, right bool) {
	width := columnWidths(rows)
	for _, r := range rows {
		if len(r) == 1 && strings.HasPrefix(r[0], "pkg: ") {
			w.WriteString(r[0] + "\n")
			continue
		}
		cells := r
		if !right && len(r) > 1 && r[len(r)-1] != "" && rowWidth(width, r) > TextWidth {
			cells = r[:len(r)-1] // the details go below
		}
		var b strings.Builder
		for i, cell := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if right && i > 0 && i < len(r)-1 {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell + pad)
			}
		}
		w.WriteString(strings.TrimRight(b.String(), " ") + "\n")
		if len(cells) < len(r) {
			for _, l := range human.Wrap(r[len(r)-1], TextWidth-detailIndent) {
				w.WriteString(strings.Repeat(" ", detailIndent) + l + "\n")
			}
		}
	}
}

// rowWidth is how wide r is written in columns of width: its last cell
// unpadded.
func rowWidth(width []int, r []string) int {
	n := 0
	for i := range r[:len(r)-1] {
		n += width[i] + 2
	}
	return n + utf8.RuneCountInString(r[len(r)-1])
}

func columnWidths(rows [][]string) []int {
	var width []int
	for _, r := range rows {
		if len(r) == 1 && strings.HasPrefix(r[0], "pkg: ") {
			continue // a package line is not a column
		}
		for i, cell := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	return width
}
