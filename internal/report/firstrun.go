package report

import (
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

func firstRunHeadline() string {
	return "### ℹ️ No baseline yet — nothing to compare this run with"
}

// firstRunDocument lays out the report of a run without a baseline: what
// was measured, where a baseline was looked for, and the run's medians.
func firstRunDocument(in outcome.Report) *document {
	cand := in.Candidate
	if cand == nil {
		cand = &results.Results{}
	}
	d := &document{shortened: shortenedNotice(in.Details)}
	d.add(firstRunHeadline() + "\n\n")

	var b strings.Builder
	if in.Title != "" {
		b.WriteString("**" + escapeInline(in.Title) + "** — ")
	}
	b.WriteString(pick(in.Title == "", "This run", "this run") + revision(cand.Env) + " measured " + human.Plural(len(cand.Benchmarks), "benchmark", "benchmarks"))
	if n := cand.Settings.Rounds; n > 0 {
		fmt.Fprintf(&b, " with %s each", human.Plural(n, "sample", "samples"))
	}
	b.WriteString(". No baseline was found")
	if in.BaselineSource != "" {
		b.WriteString(" (looked for " + escapeInline(in.BaselineSource) + ")")
	}
	b.WriteString(", so nothing can regress yet and the job does not fail. " +
		"Once a run on the default branch has stored a baseline, later runs are judged against it.\n\n")
	d.add(b.String())
	d.add(NotesList(in.Notes, in.MarkdownNotes))
	d.addNotice()

	d.add("#### This run\n\n")
	runTable(d, cand, in.Details)
	for _, s := range countNotes(cand.Settings.Counter, cand.Unseen(), cand.Serial(), nil, mdStyle) {
		d.add(s + "\n\n")
	}
	trendSection(d, nil, in.History, cand)
	d.add(detailsOpen("Environment") + envColumn(cand.Env) + detailsClose)
	d.add(footer(in.Details))
	return d
}

// foldRunRows is how many rows of a run's table stay in sight: the
// default suite's 42 (7 codecs × 6 datasets) and some.
const foldRunRows = 60

// runTable adds a run's medians: for the suite one row per dataset and
// codec (as RunTable prints them), for other benchmarks one row each with
// a column per metric.
func runTable(d *document, r *results.Results, details string) {
	datasets, byDataset := cells(r)
	if len(datasets) > 0 {
		speed := FormatNs
		if r.Settings.Counter != nil {
			speed = FormatCount // instructions/op or est-cycles/op
		}
		t := &table{
			head: "| Dataset | Codec | Size | Serialize | Deserialize | Ser allocs | Deser allocs | Ser B/op | Deser B/op |\n|:--|:--|--:|--:|--:|--:|--:|--:|--:|\n",
			more: moreRows(details),
			tail: "\n<sub>Medians; deserialize decodes and reads every field.</sub>\n\n",
			fold: foldRunRows,
		}
		for _, ds := range datasets {
			for _, c := range byDataset[ds] {
				t.rows = append(t.rows, row{tier: tierRun, text: fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
					EscapeCell(c.dataset), EscapeCell(c.codec), ifHas(c.hasSize, FormatBytes(c.size)),
					ifHas(c.hasSer, speed(c.ser)), ifHas(c.hasDeser, speed(c.deser)),
					ifHas(c.hasSer, formatCount(c.serAllocs)), ifHas(c.hasDeser, formatCount(c.deserAllocs)),
					ifHas(c.hasSer, FormatBytes(c.serBytes)), ifHas(c.hasDeser, FormatBytes(c.deserBytes)))})
			}
		}
		d.addTable(t)
		return
	}
	var units []string
	for _, b := range r.Benchmarks {
		for _, m := range b.Metrics {
			if !slices.Contains(units, m.Unit) && len(units) < maxUnitColumns {
				units = append(units, m.Unit)
			}
		}
	}
	var head strings.Builder
	head.WriteString("| Benchmark |")
	for _, u := range units {
		head.WriteString(" " + EscapeCell(u) + " |")
	}
	head.WriteString("\n|:--|" + strings.Repeat("--:|", len(units)) + "\n")
	t := &table{head: head.String(), more: moreRows(details), tail: "\n<sub>Medians.</sub>\n\n", fold: foldRunRows}
	for _, b := range r.Benchmarks {
		var s strings.Builder
		s.WriteString("| " + CellName(b.Name) + " |")
		for _, u := range units {
			if v := b.Metric(u); v != nil {
				s.WriteString(" " + EscapeCell(FormatValue(median(v), u)) + " |")
			} else {
				s.WriteString(" |")
			}
		}
		s.WriteString("\n")
		t.rows = append(t.rows, row{tier: tierRun, text: s.String()})
	}
	d.addTable(t)
}

// envColumn renders one environment as a two-column table.
func envColumn(e results.Env) string {
	var b strings.Builder
	b.WriteString("| | This run |\n|:--|:--|\n")
	for _, f := range fullFields {
		if v := f.get(e); v != "" {
			fmt.Fprintf(&b, "| %s | %s |\n", EscapeCell(f.name), EscapeCell(v))
		}
	}
	mods := make([]string, 0, len(e.Modules))
	for m := range e.Modules {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, m := range mods {
		fmt.Fprintf(&b, "| %s | %s |\n", EscapeCell(m), EscapeCell(e.Modules[m]))
	}
	return b.String()
}
