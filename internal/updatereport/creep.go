package updatereport

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/report"
)

// CreepLine describes a creep in one line of plain text (for annotations
// and the terminal), as a team reads it in the morning: "Marshal
// instructions/op +4.1% over the last 12 merges, none above the 1%
// floor; largest: #123 +0.9% (since …)".
func CreepLine(c history.Creep, a *history.Analysis, h []baseline.Entry) string {
	return report.ShortName(c.Key) + " " + c.Unit + " " + creepRest(c, a, h)
}

// creepMarkdown is CreepLine for Markdown: the benchmark's name and unit
// escaped and in bold with the change; the rest is wirebench's own words,
// commits and pull-request numbers.
func creepMarkdown(c history.Creep, a *history.Analysis, h []baseline.Entry) string {
	rest := creepRest(c, a, h)
	change, rest, _ := strings.Cut(rest, " over ")
	return "**" + report.EscapeCell(report.ShortName(c.Key)) + " " + report.EscapeCell(c.Unit) + " " + change + "** over " + rest
}

// creepRest is a creep's line after its name and unit.
func creepRest(c history.Creep, a *history.Analysis, h []baseline.Entry) string {
	return fmt.Sprintf("%s over the last %s, %s; largest: %s %s (%s)%s",
		human.Change(c.Change, 1), human.Plural(c.Runs-1, "merge", "merges"), floorText(c, a.Floor),
		largestRun(c, h), human.Change(c.LargestStep, 1), sinceText(a.Creep, h, c), leftText(c))
}

// floorText says that none of a creep's steps was a change point: all
// below the floor, or some beyond it but within their runs' noise.
func floorText(c history.Creep, floor float64) string {
	if !c.AboveFloor {
		return "none above the " + human.Percent(floor) + " floor"
	}
	return "none a change point (some beyond the " + human.Percent(floor) + " floor, within their runs' noise)"
}

// largestRun names the run of a creep's largest step: its pull requests,
// or its commit.
func largestRun(c history.Creep, h []baseline.Entry) string {
	if c.Largest < 0 || c.Largest >= len(h) {
		return "?"
	}
	e := h[c.Largest]
	if len(e.PullRequests) > 0 {
		return strings.TrimSuffix(strings.TrimPrefix(prText(e.PullRequests), " ("), ")")
	}
	if s := safeSHA(e.Commit); s != "" {
		return s
	}
	return fmt.Sprintf("run %d", c.Largest+1)
}

// sinceText says what a creep is measured from: the window's first run,
// and why it is that run.
func sinceText(cs *history.Creeps, h []baseline.Entry, c history.Creep) string {
	from := runOf(h, c.From)
	switch {
	case c.From != cs.Reference:
		return "since " + from + ", the first run after the environment changed"
	case cs.Release != "":
		return "since the release " + safeRef(cs.Release) + ", " + from
	case cs.RunsBack > 0 && c.From == len(h)-1-cs.RunsBack:
		return fmt.Sprintf("since %s, %s back", from, human.Plural(cs.RunsBack, "run", "runs"))
	}
	return "since " + from + ", the oldest stored"
}

// leftText lists the steps a creep leaves out, "" when none.
func leftText(c history.Creep) string {
	if len(c.Left) == 0 {
		return ""
	}
	var parts []string
	for _, l := range c.Left {
		why := "a change point"
		if l.Accepted != nil {
			why = "accepted"
		}
		parts = append(parts, fmt.Sprintf("%s at run %d (%s)", human.Change(l.Step, 1), l.Run+1, why))
	}
	return "; left out: " + strings.Join(parts, ", ")
}

// runOf names the run i of h: its number, commit and pull requests.
func runOf(h []baseline.Entry, i int) string {
	if i < 0 || i >= len(h) {
		return "?"
	}
	s := fmt.Sprintf("run %d", i+1)
	if c := safeSHA(h[i].Commit); c != "" {
		s += " (" + c + strings.TrimSuffix(strings.Replace(prText(h[i].PullRequests), " (", ", ", 1), ")") + ")"
	}
	return s
}

// safeRef is a tag's name with every character but letters, digits and
// ". _ / - +" as "_": the report shows it unescaped.
func safeRef(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._/-+", r):
			return r
		}
		return '_'
	}, report.Elide(s, 60))
}

// safeSHA is a commit's short form when it is hexadecimal, as git writes
// it, and "" otherwise (a stored history is a file anyone may edit: only
// hex goes into the report unescaped).
func safeSHA(c string) string {
	c = report.ShortSHA(c)
	for _, r := range c {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return ""
		}
	}
	return c
}

// creepSection reports the counts' creep: those beyond the limit, new ones
// first, in the words of CreepLine and a table; or that none crept, and
// since when. Nothing when creep was not looked for or the history has
// no count.
func creepSection(a *history.Analysis, h []baseline.Entry) string {
	cs := a.Creep
	if cs == nil || a.Models()[history.Counted][0] == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("#### Creep\n\n")
	method := fmt.Sprintf("Each count's trend since %s (the trend test on the runs' logarithms, each stretch between the steps left out, change points and accepted changes, at a level of its own), at level %.2g, reported beyond ±%s (creep-limit).",
		referenceText(cs, h), a.CountedLevel, human.Percent(cs.Limit))
	if cs.Note != "" {
		method += " " + report.PlainText(upperFirst(cs.Note)) + "."
	}
	if len(cs.Found) == 0 {
		b.WriteString(fmt.Sprintf("No creep: none of the %s tested moved beyond ±%s. %s\n\n",
			human.Plural(cs.Tested, "count", "counts"), human.Percent(cs.Limit), method))
		return b.String()
	}
	found := slices.Clone(cs.Found)
	slices.SortStableFunc(found, func(x, y history.Creep) int {
		if x.New != y.New {
			return boolOrder(x.New)
		}
		return cmpMagnitude(y.Change, x.Change)
	})
	newOnes := 0
	for _, c := range found {
		if c.New {
			newOnes++
		}
	}
	if newOnes > 0 {
		b.WriteString(fmt.Sprintf("> 🆕 **%s** on this push: what no pull request's gate could see, each step below it.\n", human.Plural(newOnes, "new creep", "new creeps")))
	} else {
		b.WriteString(fmt.Sprintf("> **%s**, known before this push.\n", human.Plural(len(found), "creep", "creeps")))
	}
	for _, c := range found {
		if c.New {
			b.WriteString(">\n> " + creepMarkdown(c, a, h) + "\n")
		}
	}
	b.WriteString("\n" + method + "\n\n")
	b.WriteString("| | Benchmark | Metric | Creep | Interval | From → to | Over | Since | Largest step | Left out |\n|:--|:--|:--|--:|:--|--:|:--|:--|:--|:--|\n")
	for _, c := range found {
		mark := ""
		if c.New {
			mark = "🆕"
		}
		from, to := h[c.From].Medians[c.Key][c.Unit], h[c.To].Medians[c.Key][c.Unit]
		left := "–"
		if t := leftText(c); t != "" {
			left = strings.TrimPrefix(t, "; left out: ")
		}
		b.WriteString(fmt.Sprintf("| %s | %s | %s | %s | [%s, %s] | %s → %s | %s | %s | %s %s | %s |\n", mark, report.CellName(c.Key), report.EscapeCell(c.Unit),
			human.Change(c.Change, 1), human.Change(c.Lo, 1), human.Change(c.Hi, 1), report.FormatValue(from, c.Unit), report.FormatValue(to, c.Unit),
			human.Plural(c.Runs-1, "merge", "merges"), strings.TrimPrefix(sinceText(cs, h, c), "since "), largestRun(c, h), human.Change(c.LargestStep, 1), left))
	}
	b.WriteString("\n")
	return b.String()
}

// referenceText says which run creep is measured from.
func referenceText(cs *history.Creeps, h []baseline.Entry) string {
	switch {
	case cs.Release != "":
		return "the release " + safeRef(cs.Release) + ", " + runOf(h, cs.Reference)
	case cs.RunsBack > 0 && cs.Reference == len(h)-1-cs.RunsBack:
		return fmt.Sprintf("%s, %s back", runOf(h, cs.Reference), human.Plural(cs.RunsBack, "run", "runs"))
	}
	return runOf(h, cs.Reference) + ", the oldest stored"
}

// upperFirst capitalises the first letter of s.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// creepChart draws a creeping series over its window as a Mermaid line
// chart: each run's median, and the value of the window's first run as a
// level to read the drift against, with a line of text with its
// numbers.
func creepChart(s history.Series, c history.Creep) string {
	lo := slices.Index(s.Runs, c.From)
	hi := slices.Index(s.Runs, c.To)
	if lo < 0 || hi <= lo {
		return ""
	}
	vals, runs := s.Values[lo:hi+1], s.Runs[lo:hi+1]
	labels := make([]string, len(vals))
	line := make([]float64, len(vals))
	level := make([]float64, len(vals))
	for i, v := range vals {
		labels[i] = fmt.Sprint(runs[i] + 1)
		line[i], level[i] = report.Round4(v), report.Round4(vals[0])
	}
	min, max := slices.Min(vals), slices.Max(vals)
	span := math.Max(max-min, 0.01*max)
	var b strings.Builder
	b.WriteString(report.LineChart{Height: 260, Palette: report.TrendPalette + ", " + levelColour,
		Title: report.ChartName(s.Key) + " " + s.Unit + " creep " + human.Change(c.Change, 1), Labels: labels, YLabel: s.Unit,
		YLo: report.Round4(math.Max(0, min-span*0.3)), YHi: report.Round4(max + span*0.3), Lines: [][]float64{line, level}}.Markdown())
	fmt.Fprintf(&b, "<sub>%s %s, runs %d to %d: %s → %s (blue), against the first run's value (grey); the trend, steps left out, %s.</sub>\n",
		report.CellName(s.Key), report.EscapeCell(s.Unit), runs[0]+1, runs[len(runs)-1]+1, report.FormatValue(vals[0], s.Unit), report.FormatValue(vals[len(vals)-1], s.Unit), human.Change(c.Change, 1))
	return b.String()
}

// levelColour is a creep chart's reference level: GitHub's grey.
const levelColour = "#8c959f"
