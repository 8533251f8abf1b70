package report

import (
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// verdictNamed is how many changes the verdict sentence names, and
// verdictNameBytes how long a name may be there: the sentence stays a
// line or two before the table; the others are counted.
const (
	verdictNamed     = 2
	verdictNameBytes = 48
)

// verdictSentence is the line under the headline, the first thing a
// reviewer reads: what failed (or that nothing did), by how much, and
// which instrument saw it. The headline has already counted the
// improvements, the missing and what gated; everything that explains how
// (the method, the tests, the environment, the commits) is folded below,
// so that the changed rows follow at once.
func verdictSentence(r *compare.Result, failOn compare.FailOn) string {
	regs, imps, j := r.Regressions(), r.Improvements(), judge(r)
	compare.Sort(regs)
	compare.Sort(imps)
	var b strings.Builder
	switch {
	case len(regs) > 0 && r.Failed(failOn) && len(r.Failing()) > 0:
		failing := r.Failing()
		compare.Sort(failing)
		fmt.Fprintf(&b, "**Fails** on %s: %s.", human.Plural(len(failing), "regression", "regressions"), changeList(failing))
		if n := len(regs) - len(failing); n > 0 {
			fmt.Fprintf(&b, " %s more reported, not enforced.", human.Count(n))
		}
		if s := troubleVerdict(r); s != "" {
			b.WriteString(" " + s)
		}
	case r.Failed(failOn) && len(r.FailingTroubles()) > 0:
		b.WriteString(troubleVerdict(r))
	case len(regs) > 0:
		fmt.Fprintf(&b, "%s, not failing: %s.", human.Plural(len(regs), "regression", "regressions"), changeList(regs))
	case len(imps) > 0:
		fmt.Fprintf(&b, "Nothing got slower, bigger or allocated more%s; improved: %s.", withinRule(r, j), changeList(imps))
	default:
		unsure := j.timings.inconclusive + j.counts.inconclusive
		switch {
		case j.noTimingGated():
			fmt.Fprintf(&b, "No regression found, but no %s gated, so this says nothing of speed%s.",
				speedWord(r), pick(unsure > 0, " (the inconclusive ones are below)", ""))
		case unsure > 0:
			fmt.Fprintf(&b, "Nothing that gated got slower, bigger or allocated more%s; %s inconclusive (below).", withinRule(r, j), human.Count(unsure))
		default:
			b.WriteString("Nothing got slower, bigger or allocated more" + withinRule(r, j) + gatedBy(r, j) + ".")
		}
		b.WriteString(largestChange(r.Comparisons))
	}
	return b.String()
}

// withinRule is " beyond ±5%" (the effect floor of what gated), or ""
// when nothing was compared against one.
func withinRule(r *compare.Result, j judged) string {
	if j.timings.gated+j.counts.gated == 0 {
		return ""
	}
	s := " beyond ±" + human.Percent(r.Options.Threshold)
	if c := r.Clock; c != nil && c.Threshold != r.Options.Threshold {
		s += " (wall time ±" + human.Percent(c.Threshold) + ")"
	}
	return s
}

// gatedBy is ": instructions/op counted under Valgrind, wall time,
// sizes and allocations exact", the instruments that gated a pass, with
// "wall time not compared" when counts gated without it: a pass says
// what saw nothing change.
func gatedBy(r *compare.Result, j judged) string {
	var parts []string
	if j.counts.gated > 0 {
		unit := r.Options.CountedUnit
		if unit == "" {
			unit = results.UnitInstructionsPerOp
		}
		parts = append(parts, escapeInline(unit)+" counted under Valgrind")
	}
	if j.timings.gated > 0 {
		parts = append(parts, "wall time")
	}
	if j.otherGated > 0 {
		parts = append(parts, "sizes and allocations")
	}
	if len(parts) == 0 {
		return ""
	}
	s := ": " + strings.Join(parts, ", ")
	if j.counts.gated > 0 && j.timings.n == 0 {
		s += "; wall time not compared"
	}
	return s
}

// changeList names the first changes of cs, largest first as sorted,
// each with its change and the instrument that saw it:
// "**Encode** +8.0% (instructions/op, counted)"; the rest are counted.
func changeList(cs []compare.Comparison) string {
	var parts []string
	for i, c := range cs {
		if i == verdictNamed {
			parts = append(parts, fmt.Sprintf("%d more", len(cs)-verdictNamed))
			break
		}
		parts = append(parts, fmt.Sprintf("**%s** %s (%s)", escapeInline(Elide(ShortName(c.Name), verdictNameBytes)), human.Change(c.Ratio-1, 1), instrument(c)))
	}
	return strings.Join(parts, ", ")
}

// instrument names what measured c: its unit and how it was had.
func instrument(c compare.Comparison) string {
	u := escapeInline(c.Unit)
	switch {
	case c.Unit == results.UnitGCInstructionsPerOp:
		return u + ", the collector's work counted under Valgrind"
	case c.Unit == results.UnitEstCyclesPerOp:
		return u + ", simulated under Valgrind"
	case results.IsCounted(c.Unit):
		return u + ", counted under Valgrind"
	case c.Kind == compare.Exact:
		return u + ", exact"
	case isTimingUnit(c.Unit):
		return u + ", wall time"
	}
	return u
}
