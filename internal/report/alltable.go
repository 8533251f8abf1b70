package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// unitOrder is the column order of the full table.
var unitOrder = []string{results.UnitNsPerOp, results.UnitBytesPerOp, results.UnitAllocsPerOp, results.UnitBytesPerMsg}

// maxUnitColumns bounds the full table's columns; a go test file could
// report any number of custom metrics.
const maxUnitColumns = 8

// allSection is the collapsed table of every comparison: one row per
// benchmark, one column per metric, each cell the change and its verdict.
func allSection(d *document, r *compare.Result, details string) {
	var names []string
	byName := map[string]map[string]compare.Comparison{}
	unitSeen := map[string]bool{}
	var extra []string
	for _, c := range r.Comparisons {
		if byName[c.Name] == nil {
			byName[c.Name] = map[string]compare.Comparison{}
			names = append(names, c.Name)
		}
		byName[c.Name][c.Unit] = c
		if !unitSeen[c.Unit] {
			unitSeen[c.Unit] = true
			if !slices.Contains(unitOrder, c.Unit) {
				extra = append(extra, c.Unit)
			}
		}
	}
	var units []string
	for _, u := range append(slices.Clone(unitOrder), extra...) {
		if unitSeen[u] && len(units) < maxUnitColumns {
			units = append(units, u)
		}
	}
	var head strings.Builder
	head.WriteString("| Benchmark |")
	for _, u := range units {
		head.WriteString(" " + EscapeCell(u) + " |")
	}
	head.WriteString("\n|:--|" + strings.Repeat("--:|", len(units)) + "\n")
	t := &table{head: head.String(), more: moreRows(details)}
	for _, n := range names {
		var b strings.Builder
		b.WriteString("| " + CellName(n) + " |")
		tier, mag := tierAllSame, 0.0
		for _, u := range units {
			c, ok := byName[n][u]
			if !ok {
				b.WriteString(" |")
				continue
			}
			b.WriteString(" " + compactChange(c) + " |")
			if c.Verdict != compare.Unchanged {
				tier = tierAllChanged
			}
			mag = max(mag, magnitude(c))
		}
		b.WriteString("\n")
		t.rows = append(t.rows, row{text: b.String(), tier: tier, mag: mag})
	}
	legend := "Each cell is the change of the median (timings relative to the machine's speed shift when it was applied): " +
		"= identical (exact), ❌ regression, ✅ improvement, ❔ inconclusive, no mark: unchanged."
	if len(units) < len(unitSeen) {
		legend += fmt.Sprintf(" Only the first %d metrics are shown.", maxUnitColumns)
	}
	d.add(detailsOpen(fmt.Sprintf("All %s of %s", human.Plural(len(r.Comparisons), "comparison", "comparisons"), human.Plural(len(names), "benchmark", "benchmarks"))) + legend + "\n\n")
	d.addTable(t)
	d.add(detailsClose)
}

// compactChange is one cell of the full table.
func compactChange(c compare.Comparison) string {
	if c.Kind == compare.Exact && c.Baseline.Median == c.Candidate.Median {
		return "="
	}
	s := human.Change(c.Ratio-1, 1)
	if math.IsInf(c.Ratio, 1) {
		s = "from 0"
	}
	if m := verdictMark(c.Verdict); m != "" {
		s = m + " " + s
	}
	return s
}

// baselineValues is ", baseline 1,234 instructions/op" for the stored
// medians of an identical benchmark, units sorted; "" for none.
func baselineValues(m map[string]float64) string {
	if len(m) == 0 {
		return ""
	}
	units := slices.Sorted(maps.Keys(m))
	var parts []string
	for _, u := range units {
		parts = append(parts, fmt.Sprintf("%.4g %s", m[u], u))
	}
	return " (baseline " + strings.Join(parts, ", ") + ")"
}

// listSection is the collapsed list of benchmarks that could not be
// compared: missing from this run, new in it, or without a common metric.
func listSection(d *document, r *compare.Result, details string) {
	n := len(r.Missing) + len(r.New) + len(r.UnitMismatch) + r.IdenticalCount()
	if n == 0 {
		return
	}
	var sum []string
	if k := len(r.Missing); k > 0 {
		sum = append(sum, human.Count(k)+" missing")
	}
	if k := len(r.New); k > 0 {
		sum = append(sum, human.Count(k)+" new")
	}
	if k := len(r.UnitMismatch); k > 0 {
		sum = append(sum, human.Count(k)+" without a common metric")
	}
	if k := r.IdenticalCount(); k > 0 {
		sum = append(sum, human.Count(k)+" identical")
	}
	t := &table{head: "| Benchmark | Status |\n|:--|:--|\n", more: moreRows(details)}
	add := func(names []string, status string) {
		for _, name := range names {
			t.rows = append(t.rows, row{text: "| " + CellName(name) + " | " + status + " |\n", tier: tierMissing})
		}
	}
	add(r.Missing, "in the baseline, not in this run")
	add(r.New, "new in this run, no baseline yet")
	add(r.UnitMismatch, "no metric in common with the baseline")
	for _, p := range r.Identical {
		reason := compare.IdenticalReason
		if p.Package == "" { // the embedded suite (source.SuitePackage)
			reason = compare.IdenticalSuiteReason
		}
		for _, b := range p.Benchmarks {
			t.rows = append(t.rows, row{text: "| " + CellName(b.Name) + " | " + reason + baselineValues(b.Baseline) + " |\n", tier: tierMissing})
		}
	}
	d.add(detailsOpen("Benchmarks not compared: " + strings.Join(sum, ", ")))
	d.addTable(t)
	d.add(detailsClose)
}

// historyPosition says where value, this run's median of key's unit,
// sits against the medians of the stored runs of the baseline's history
// (as measured, on whatever machines they ran): above their range, below
// it, or within it, with the range and how many runs. It is "–" with
// fewer than two runs.
func historyPosition(h []baseline.Entry, key, unit string, value float64) string {
	var lo, hi float64
	n := 0
	for _, e := range h {
		v, ok := e.Medians[key][unit]
		if !ok {
			continue
		}
		if n == 0 || v < lo {
			lo = v
		}
		if n == 0 || v > hi {
			hi = v
		}
		n++
	}
	if n < 2 || math.IsNaN(value) {
		return "–"
	}
	where := "within"
	switch {
	case value > hi:
		where = "**above**"
	case value < lo:
		where = "**below**"
	}
	if lo == hi {
		return fmt.Sprintf("%s %s (all %d runs)", where, FormatValue(lo, unit), n)
	}
	return fmt.Sprintf("%s %s – %s (%d runs)", where, FormatValue(lo, unit), FormatValue(hi, unit), n)
}

// lastCell is the last cell of a change's row: where it lies against the
// history, or beside a wall-time check which instrument saw it (seenBy).
func lastCell(r *compare.Result, h []baseline.Entry, c compare.Comparison) string {
	if r.Clock != nil {
		return seenBy(r, c)
	}
	return historyPosition(h, c.Name, c.Unit, c.Candidate.Median)
}

// seenBy says which instrument saw a change of a counted comparison with
// a wall-time check: the count, the clock or both, with what the other
// one measured for the benchmark, and for a wall-time change the count
// did not share, what counting cannot see.
func seenBy(r *compare.Result, c compare.Comparison) string {
	clock := c.Unit == results.UnitNsPerOp
	want := results.UnitNsPerOp
	if clock {
		want = pick(r.Options.CountedUnit == "", results.UnitInstructionsPerOp, r.Options.CountedUnit)
	}
	var other *compare.Comparison
	for i, o := range r.Comparisons {
		if o.Name == c.Name && o.Unit == want {
			other = &r.Comparisons[i]
			break
		}
	}
	me, them := pick(clock, "the clock", "the count"), pick(clock, "the count", "the clock")
	if other == nil {
		return me
	}
	what := EscapeCell(other.Unit) + " " + human.Change(other.Change(), 1)
	switch {
	case other.Verdict == c.Verdict:
		return me + " and " + them + " (" + what + ")"
	case clock:
		return "the clock only (" + what + ", " + string(other.Verdict) + "): caches, code placement, the kernel, waiting, or code that acts differently under Valgrind"
	}
	return "the count only (" + what + ", " + string(other.Verdict) + " beside the clock's ±" + human.Percent(r.Clock.Threshold) + " floor)"
}
