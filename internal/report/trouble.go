package report

import (
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// The troubles of a comparison (compare.Trouble): benchmarks, or
// packages, that a side could not measure as it measured the others.
// Each is a row of its own: those the candidate broke (a benchmark that
// fails natively, a package whose tests no longer build, a count lost
// that no clock judged) fail the run and are shown at once; the others
// (skipped, not counted under Valgrind and judged by the clock, broken
// on both sides) are folded, each saying why.

// troubleStatus is what the row of t says: each side's trouble, or
// what it measured, and what that means for the verdict; esc escapes
// what the benchmarks and the go command said (EscapeCell in Markdown),
// and strong marks the verdict's words.
func troubleStatus(r *compare.Result, t compare.Trouble, esc func(string) string, strong string) string {
	side := func(label string, tr *results.Trouble, measured bool) string {
		switch {
		case tr != nil:
			return label + " " + string(tr.Kind) + ": " + esc(tr.Why)
		case measured:
			return label + " measured"
		}
		return label + " has none"
	}
	status := side("base", t.Base, t.BaseMeasured) + "; " + side("head", t.Head, t.Head == nil)
	switch {
	case t.Broke():
		status += " — " + strong + "fails" + strong + ": the head broke what the base ran"
	case r.Unjudged(t):
		status += " — " + strong + "fails" + strong + ": the head's count was lost and no wall time judged it"
	case clocked(r, t.Name):
		status += " — judged by wall time"
	}
	return status
}

// clocked reports whether r holds an enforced wall-time comparison of
// the benchmark name.
func clocked(r *compare.Result, name string) bool {
	for _, c := range r.Comparisons {
		if c.Name == name && c.Unit == results.UnitNsPerOp && r.Enforced(c) {
			return true
		}
	}
	return false
}

// troubleSummary is "2 not counted, 1 skipped", by kind of the head's
// trouble (else the base's), in a fixed order.
func troubleSummary(ts []compare.Trouble) string {
	counts := map[results.TroubleKind]int{}
	for _, t := range ts {
		k := t.Base
		if t.Head != nil {
			k = t.Head
		}
		counts[k.Kind]++
	}
	var parts []string
	for _, k := range []results.TroubleKind{results.TroubleNotBuilt, results.TroubleFailed, results.TroubleNotCounted, results.TroubleSkipped} {
		if n := counts[k]; n > 0 {
			parts = append(parts, human.Count(n)+" "+string(k))
		}
	}
	return strings.Join(parts, ", ")
}

// troubleSections adds the troubles' tables: those that fail the run in
// sight, under their heading, the others folded.
func troubleSections(d *document, r *compare.Result, details string) {
	var failing, other []compare.Trouble
	for _, t := range r.Troubles {
		if t.Broke() || r.Unjudged(t) {
			failing = append(failing, t)
		} else {
			other = append(other, t)
		}
	}
	rows := func(ts []compare.Trouble, tier int) *table {
		t := &table{head: "| Benchmark | Status |\n|:--|:--|\n", more: moreRows(details)}
		for _, tr := range ts {
			t.rows = append(t.rows, row{text: "| " + CellName(tr.Name) + " | " + troubleStatus(r, tr, EscapeCell, "**") + " |\n", tier: tier})
		}
		return t
	}
	if len(failing) > 0 {
		d.add("#### Not measured, and the head's doing (" + troubleSummary(failing) + ")\n\n")
		d.addTable(rows(failing, tierRegression))
		d.add("\n")
	}
	if len(other) > 0 {
		d.add(detailsOpen("Benchmarks not measured as the others: " + troubleSummary(other)))
		d.add("Each is its own row: a benchmark that skips or fails natively is not measured (as `go test -bench` does not); one that runs natively but not under Valgrind (a CPU feature Valgrind's CPU lacks, code that detects the counter) has no count and is judged by wall time where it was timed.\n\n")
		d.addTable(rows(other, tierMissing))
		d.add(detailsClose)
	}
}

// troubleVerdict is the verdict sentence's account of the troubles that
// fail the run: "**Fails** on 2 benchmarks the head broke: X (failed
// natively), Y (not built)"; "" when none does.
func troubleVerdict(r *compare.Result) string {
	failing := r.FailingTroubles()
	if len(failing) == 0 {
		return ""
	}
	var parts []string
	for i, t := range failing {
		if i == verdictNamed {
			parts = append(parts, fmt.Sprintf("%d more", len(failing)-verdictNamed))
			break
		}
		what := "its count lost, no wall time"
		if t.Head != nil && t.Broke() {
			what = string(t.Head.Kind)
		}
		parts = append(parts, fmt.Sprintf("**%s** (%s)", escapeInline(Elide(ShortName(t.Name), verdictNameBytes)), what))
	}
	return fmt.Sprintf("**Fails** on %s the head could not measure: %s.", human.Plural(len(failing), "benchmark", "benchmarks"), strings.Join(parts, ", "))
}

// troubleLines are the text report's lines of the troubles, one each.
func troubleLines(r *compare.Result) []string {
	var out []string
	for _, t := range r.Troubles {
		out = append(out, t.Name+": "+troubleStatus(r, t, func(s string) string { return s }, ""))
	}
	return out
}
