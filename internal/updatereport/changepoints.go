package updatereport

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/report"
)

// ChangePointLine describes a change point in one line of plain text
// (for annotations and the terminal): the benchmark, the step, the first
// run after it, and what explains it.
func ChangePointLine(p history.ChangePoint) string {
	s := fmt.Sprintf("%s %s stepped %s (%s → %s) at %s, the first run after the step",
		report.ShortName(p.Key), p.Unit, stepText(p), report.FormatValue(p.Before, p.Unit), report.FormatValue(p.After, p.Unit), runText(p))
	return s + "; " + explanation(p)
}

func stepText(p history.ChangePoint) string {
	if math.IsInf(p.Step, 1) {
		return "from 0"
	}
	return human.Change(p.Step, 1)
}

// runText names the first run after a step: its commit, the pull
// requests it merged, and its date.
func runText(p history.ChangePoint) string {
	return runName(p.Run, p.Commit, p.PullRequests, p.Time)
}

// runName names a run of the history: its commit with the pull requests
// it merged, and its date; its number (1 the oldest stored) without
// them.
func runName(run int, commit string, prs []int, t time.Time) string {
	var parts []string
	if c := report.ShortSHA(commit); c != "" {
		parts = append(parts, c+prText(prs))
	} else if len(prs) > 0 {
		parts = append(parts, strings.TrimPrefix(prText(prs), " "))
	}
	if !t.IsZero() {
		parts = append(parts, t.UTC().Format("2006-01-02"))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("run %d", run+1)
	}
	return strings.Join(parts, ", ")
}

// prText is " (#12, #13)" for the pull requests prs, "" for none.
func prText(prs []int) string {
	if len(prs) == 0 {
		return ""
	}
	s := make([]string, len(prs))
	for i, n := range prs {
		s[i] = fmt.Sprintf("#%d", n)
	}
	return " (" + strings.Join(s, ", ") + ")"
}

// runCell is runText for a table cell: the commit and date escaped, the
// pull requests' numbers (wirebench's own) left to link.
func runCell(p history.ChangePoint) string {
	return strings.ReplaceAll(report.EscapeCell(runText(p)), "#&#8203;", "#")
}

// explanation says what explains a step, or that nothing does.
func explanation(p history.ChangePoint) string {
	var why []string
	if a := p.Accepted; a != nil {
		why = append(why, "accepted: "+a.String())
	}
	if len(p.Environment) > 0 {
		why = append(why, "the environment changed: "+strings.Join(p.Environment, ", "))
	}
	if len(why) == 0 {
		return "unexplained (no acceptance recorded with that run, the same environment)"
	}
	return strings.Join(why, "; ")
}

// changePointSection lists the change points of the history, new ones
// first.
func changePointSection(a *history.Analysis) string {
	var b strings.Builder
	b.WriteString("#### Change points in the history\n\n")
	method := historyMethod(a)
	newOnes := a.NewPoints()
	switch {
	case len(a.Points) == 0 && !anyVaries(a):
		b.WriteString(fmt.Sprintf("No change point: no benchmark's metric varied over the %s of the history.\n\n", human.Plural(a.Runs, "run", "runs")))
		return b.String()
	case len(a.Points) == 0:
		b.WriteString("No change point. " + method + "\n\n")
		return b.String()
	case len(newOnes) == 0:
		b.WriteString(fmt.Sprintf("No new change point on this push; %s known in the history (below). %s\n\n", human.Plural(len(a.Points), "change point is", "change points are"), method))
	default:
		unexplained := 0
		for _, p := range newOnes {
			if !p.Explained() {
				unexplained++
			}
		}
		b.WriteString(fmt.Sprintf("> 🆕 **%s** on this push (%s unexplained). %s\n\n",
			human.Plural(len(newOnes), "new change point", "new change points"), human.Count(unexplained), method))
	}
	b.WriteString("| | Benchmark | Metric | Step | Before → after | First run after | Found by | Explained by |\n|:--|:--|:--|--:|--:|:--|:--|:--|\n")
	points := slices.Clone(a.Points)
	slices.SortStableFunc(points, func(x, y history.ChangePoint) int {
		if x.New != y.New {
			return boolOrder(x.New)
		}
		return cmpMagnitude(y.Step, x.Step)
	})
	for _, p := range points {
		mark := ""
		if p.New {
			mark = "🆕"
		}
		why := "–"
		if p.Explained() {
			why = report.EscapeCell(explanation(p))
		}
		b.WriteString(fmt.Sprintf("| %s | %s | %s | %s | %s → %s | %s | %s | %s |\n", mark, report.CellName(p.Key), report.EscapeCell(p.Unit), stepText(p),
			report.FormatValue(p.Before, p.Unit), report.FormatValue(p.After, p.Unit), runCell(p), foundBy(p), why))
	}
	b.WriteString("\n")
	return b.String()
}

// anyVaries reports whether a series of a varies.
func anyVaries(a *history.Analysis) bool {
	for _, s := range a.Series {
		if s.Varies() {
			return true
		}
	}
	return false
}

// historyMethod says how each kind of series was searched, for the kinds
// the history holds, and what the family's level means.
func historyMethod(a *history.Analysis) string {
	models := a.Models()
	var parts []string
	if c := models[history.Exact]; c[0] > 0 {
		parts = append(parts, fmt.Sprintf("Sizes and exact allocation counts (%s): any change between two runs is a step, found on the push that made it.",
			human.Plural(c[0], "series", "series")))
	}
	if c := models[history.Counted]; c[0] > 0 {
		parts = append(parts, fmt.Sprintf("Counts (%s): each run tested as it arrives against the runs since the last step (Student's t on their spread, at least their processes'), a step beyond the %s floor found by the first run after it when the counts' noise cannot explain it, else by the second or a later one; each test at level %.2g.",
			human.Plural(c[0], "series", "series"), human.Percent(a.Floor), a.CountedLevel))
	}
	if c := models[history.EDivisive]; c[0] > 0 {
		parts = append(parts, fmt.Sprintf("Timings and the other metrics (%s): E-divisive means with a permutation test over the %s (one point a run), each series at level %.2g, found from the 3rd to 5th run after a step.",
			human.Plural(c[0], "series", "series"), human.Plural(a.Runs, "run", "runs"), a.Level))
	}
	if a.Varying > 0 {
		parts = append(parts, fmt.Sprintf("The %s of the tested kinds that vary share alpha %g, so that the chance of any false change point or creep on a push is below it.",
			human.Plural(a.Varying, "series", "series"), a.Alpha))
	}
	return strings.Join(parts, " ")
}

// foundBy says how a change point was found.
func foundBy(p history.ChangePoint) string {
	switch p.Model {
	case history.Exact:
		return "exact: the value changed"
	case history.Counted:
		if p.Runs == 1 {
			return fmt.Sprintf("count: the first run after it (p %.2g)", p.P)
		}
		return fmt.Sprintf("count: two runs after it (p %.2g)", p.P)
	}
	return fmt.Sprintf("E-divisive (p %.2g)", p.P)
}

func boolOrder(first bool) int {
	if first {
		return -1
	}
	return 1
}

// cmpMagnitude orders steps by their size, log-symmetric.
func cmpMagnitude(a, b float64) int {
	ma, mb := math.Abs(math.Log1p(a)), math.Abs(math.Log1p(b))
	switch {
	case math.IsNaN(ma) || ma < mb:
		return -1
	case ma > mb:
		return 1
	}
	return 0
}
