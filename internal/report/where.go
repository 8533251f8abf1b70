package report

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// Where the counted changes went (compare.Where): the functions behind
// each counted regression and improvement, in every report.

// located are the comparisons of r whose Where a report shows, in report
// order: one per benchmark, of the unit the run gates on where that one
// has one; with flagged, only counted regressions and improvements (the
// Markdown report's), else inconclusive counts beyond the threshold too.
func located(r *compare.Result, flagged bool) []compare.Comparison {
	gating := r.Options.CountedUnit
	if gating == "" {
		gating = results.UnitInstructionsPerOp
	}
	cs := slices.Clone(r.Comparisons)
	compare.Sort(cs)
	var out []compare.Comparison
	for _, c := range cs {
		if c.Where == nil || len(c.Where.Functions) == 0 || flagged && c.Verdict != compare.Regression && c.Verdict != compare.Improvement {
			continue
		}
		i := slices.IndexFunc(out, func(o compare.Comparison) bool { return o.Name == c.Name })
		switch {
		case i < 0:
			out = append(out, c)
		case c.Unit == gating && out[i].Unit != gating:
			out[i] = c
		}
	}
	return out
}

// whereIntro says once what the functions' costs are.
const whereIntro = "The functions whose own work per operation moved most, base → head: self cost, not that of the functions they call, " +
	"and code the compiler inlined counts in its caller's; per function the median over the processes."

// boundNote says what ≤ marks, when a side's profile left functions out
// (a stored baseline keeps its costliest only), and that a function
// named "0x…" is an address (a binary without its symbol table); ""
// when neither is shown.
func boundNote(ws []compare.Comparison) string {
	bounded, addresses := false, false
	for _, c := range ws {
		bounded = bounded || c.Where.BaseBound > 0 || c.Where.CandidateBound > 0
		addresses = addresses || slices.ContainsFunc(c.Where.Functions, func(m compare.Moved) bool { return strings.HasPrefix(m.Name, "0x") })
	}
	s := ""
	if bounded {
		s += fmt.Sprintf(" A profile keeps the costliest functions only (a stored baseline those that make up %s of a benchmark's work, at most %d): "+
			"≤ marks a function it does not name, which cost at most that much there.", human.Percent(baseline.ProfileShare), baseline.ProfileFunctions)
	}
	if addresses {
		s += " A function named 0x… is known by its address only: the binary was linked without its symbol table (-ldflags=-s)."
	}
	return s
}

// unprofiledNote says why a report cannot say where a counted change
// went (compare.Result.UnprofiledBase).
const unprofiledNote = "Where the counted changes went is not known: the baseline was stored without the functions behind its counts (by an older wirebench). Its next update stores them, and checks say where from then on."

// whereSection is the Markdown report's "Where the counted changes
// went": one folded block per flagged counted benchmark, its summary the
// function that moved most, so that a phone shows the answer without
// unfolding; the blocks are rows of the document, cut like the changes
// they explain when the report must be shortened.
func whereSection(d *document, r *compare.Result, details string) {
	ws := located(r, true)
	if len(ws) == 0 {
		if r.UnprofiledBase {
			d.add("#### Where the counted changes went\n\n" + unprofiledNote + "\n\n")
		}
		return
	}
	t := &table{
		head: "#### Where the counted changes went\n\n",
		more: func(cut int) string {
			s := "_… where " + human.Plural(cut, "more counted change", "more counted changes") + " went is not shown; see the text or JSON report"
			if details != "" {
				s += " (" + link("full results", details) + ")"
			}
			return s + "._\n\n"
		},
	}
	for _, c := range ws {
		t.rows = append(t.rows, row{text: whereBlock(c), tier: verdictTier(c.Verdict), mag: magnitude(c)})
	}
	d.addTable(t)
}

// whereBlock is one benchmark's folded block: its summary names the
// change and the function that moved most, its table every function
// listed.
func whereBlock(c compare.Comparison) string {
	w := c.Where
	top := w.Functions[0]
	summary := fmt.Sprintf("%s <b>%s</b> %s %s (%s): <code>%s</code> %s (%s of it)",
		verdictMark(c.Verdict), escapeHTML(Elide(ShortName(c.Name), maxNameBytes)), escapeHTML(c.Unit), human.Change(c.Ratio-1, 1),
		perOp(w.Change), escapeHTML(Elide(callgrind.FuncName(top.Name), maxNameBytes)), moveText(top), share(top.Share))
	var b strings.Builder
	b.WriteString(detailsOpen(summary))
	b.WriteString("| Function | Base | Head | Change | Share of the change |\n|:--|--:|--:|--:|--:|\n")
	for _, m := range w.Functions {
		name := codeName(Elide(callgrind.FuncName(m.Name), maxNameBytes))
		switch {
		case m.Appeared:
			name += " (new)"
		case m.Disappeared:
			name += " (gone)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, costText(m.Base, m.BaseAtMost), costText(m.Candidate, m.CandidateAtMost),
			moveText(m), share(m.Share))
	}
	fmt.Fprintf(&b, "\n%s %s of the change (%s %s).\n", pick(len(w.Functions) == 1, "This function explains", "These "+human.Count(len(w.Functions))+" functions explain"),
		share(w.Explained), perOp(w.Change), EscapeCell(c.Unit))
	if w.Dumps != "" {
		fmt.Fprintf(&b, "\nCallgrind's dumps of a block: %s (with the run's results); there, %s shows the difference per function and source line.\n", code(w.Dumps), code(w.Open))
	}
	b.WriteString(detailsClose)
	return b.String()
}

// share is a fraction of a change in whole percent: "83%", "-12%".
func share(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "?"
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

// perOp is a change per operation: "+180", "-1.20k".
func perOp(x float64) string {
	if x >= 0 {
		return "+" + opCount(x)
	}
	return "-" + opCount(-x)
}

// opCount is a cost per operation: "1.70k" (FormatCount) from a
// thousand, whole below ("630", "90"), two digits below ten ("5.2",
// "0.25").
func opCount(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1000 || math.IsNaN(x):
		return FormatCount(x)
	case a >= 10 || x == math.Trunc(x):
		return fmt.Sprintf("%.0f", x)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}

// costText is a function's cost on one side: "630", "≤ 5.2" for a bound,
// "0" for none.
func costText(x float64, atMost bool) string {
	if atMost {
		return "≤ " + opCount(x)
	}
	return opCount(x)
}

// moveText is a function's change per operation, "≥ +40" when it is the
// least it can have moved (a side's bound).
func moveText(m compare.Moved) string {
	s := perOp(m.Delta)
	if m.BaseAtMost || m.CandidateAtMost {
		s = pick(m.Delta > 0, "≥ ", "≤ ") + s
	}
	return s
}

// writeWhere is the text report's where the counted changes went, after
// its verdicts: per benchmark its change, then its functions aligned.
func writeWhere(bw *bufio.Writer, r *compare.Result) {
	ws := located(r, false)
	if len(ws) == 0 {
		if r.UnprofiledBase {
			fmt.Fprintln(bw)
			writeProse(bw, unprofiledNote)
		}
		return
	}
	fmt.Fprintln(bw)
	writeProse(bw, "Where the counted changes went (and those beyond the floor the run could not confirm, marked inconclusive). "+whereIntro+boundNote(ws))
	for _, c := range ws {
		w := c.Where
		fmt.Fprintf(bw, "  %s %s %s%s (%s per op):\n", strings.TrimPrefix(c.Name, "Benchmark"), c.Unit, human.Change(c.Ratio-1, 1),
			pick(c.Verdict == compare.Inconclusive, " inconclusive", ""), perOp(w.Change))
		var rows [][]string
		for _, m := range w.Functions {
			name := callgrind.FuncName(m.Name)
			switch {
			case m.Appeared:
				name += " (new)"
			case m.Disappeared:
				name += " (gone)"
			}
			rows = append(rows, []string{"    " + name, costText(m.Base, m.BaseAtMost), "→", costText(m.Candidate, m.CandidateAtMost), moveText(m), share(m.Share)})
		}
		writeAligned(bw, rows)
		fmt.Fprintf(bw, "    (%s %s of the change)\n", pick(len(w.Functions) == 1, "it explains", "these explain"), share(w.Explained))
		if w.Dumps != "" {
			fmt.Fprintf(bw, "    callgrind's dumps: %s (there: %s)\n", w.Dumps, w.Open)
		}
	}
}

// codeName is a function's name as inline code. Code is inert, but a
// mention, an issue reference or a URL in it is broken with a zero-width
// space all the same (the character itself: a code span shows entities
// as written), as EscapeCell breaks them elsewhere: no Go symbol has
// one, a name from a hostile binary may.
func codeName(s string) string {
	var b strings.Builder
	for i, r := range s {
		b.WriteRune(r)
		switch {
		case r == '@' && startsWord(s[i+1:]), r == '#' && startsDigit(s[i+1:]), r == ':' && strings.HasPrefix(s[i+1:], "//"):
			b.WriteRune('\u200b')
		}
	}
	return code(b.String())
}

// escapeHTML makes text a pull request controls (a benchmark's or a
// function's name) inert inside an HTML element whose content GitHub
// does not read as Markdown (a <summary>): entities for the characters
// HTML reads, and mentions, issue references and URLs broken as
// EscapeCell breaks them.
func escapeHTML(s string) string {
	var b strings.Builder
	for i, r := range s {
		if writeInert(&b, s, i) {
			continue
		}
		switch r {
		case '"':
			b.WriteString("&quot;")
		case '#':
			b.WriteByte('#')
			if startsDigit(s[i+1:]) {
				b.WriteString(zeroWidthSpace)
			}
		default:
			if r < ' ' || r == 0x7f {
				b.WriteByte(' ')
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// jsonWhere is a compare.Where: per operation, in the comparison's unit.
type jsonWhere struct {
	Change         float64     `json:"change_per_op"`
	Explained      num         `json:"explained"`
	BaselineBound  float64     `json:"baseline_bound"`
	CandidateBound float64     `json:"candidate_bound"`
	Functions      []jsonMoved `json:"functions"`
	Dumps          string      `json:"dumps,omitempty"`
	Open           string      `json:"open,omitempty"`
}

// jsonMoved is a compare.Moved.
type jsonMoved struct {
	Function        string  `json:"function"`
	Symbol          string  `json:"symbol"`
	Baseline        float64 `json:"baseline"`
	Candidate       float64 `json:"candidate"`
	BaselineAtMost  bool    `json:"baseline_at_most"`
	CandidateAtMost bool    `json:"candidate_at_most"`
	Change          float64 `json:"change"`
	Share           num     `json:"share"`
	Appeared        bool    `json:"appeared"`
	Disappeared     bool    `json:"disappeared"`
}

// whereJSON is w for the JSON report, nil for none.
func whereJSON(w *compare.Where) *jsonWhere {
	if w == nil {
		return nil
	}
	j := &jsonWhere{Change: w.Change, Explained: num(w.Explained), BaselineBound: w.BaseBound, CandidateBound: w.CandidateBound, Functions: []jsonMoved{},
		Dumps: w.Dumps, Open: w.Open}
	for _, m := range w.Functions {
		j.Functions = append(j.Functions, jsonMoved{Function: callgrind.FuncName(m.Name), Symbol: m.Name, Baseline: m.Base, Candidate: m.Candidate,
			BaselineAtMost: m.BaseAtMost, CandidateAtMost: m.CandidateAtMost, Change: m.Delta, Share: num(m.Share),
			Appeared: m.Appeared, Disappeared: m.Disappeared})
	}
	return j
}
