package report

import (
	"cmp"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/human"
)

// A document is the Markdown report before it is bounded: fixed text
// interleaved with tables whose rows may be cut. Every row carries an
// importance; to fit a size limit the least important rows of the whole
// document are cut first, whichever table they are in, and each table that
// lost rows says how many.
type document struct {
	parts []part
	// shortened is called with the number of rows cut (> 0) and returns a
	// line placed where the document's notice slot is (see notice).
	shortened func(cut int) string
}

// part is fixed text, a table, or the slot of the "shortened" notice.
type part struct {
	text   string
	table  *table
	notice bool
}

// table is a Markdown table (or list) with cuttable rows.
type table struct {
	head string // header and delimiter lines, each ending in "\n"
	rows []row
	// more formats the line that replaces cut rows.
	more func(cut int) string
	// tail is written after the rows (e.g. a blank line).
	tail string
	// fold, when > 0, is how many rows stay in sight: the rest go into a
	// collapsed continuation of the table, so a long table does not bury
	// what follows it. foldSummary labels the continuation.
	fold        int
	foldSummary func(n int) string
}

// row is one table row and its importance.
type row struct {
	text string // ending in "\n"
	tier int    // lower is more important
	mag  float64
	pos  int // position among its table's rows of the same tier, largest change first
	rank int // position in the document's importance order, set by rankRows
}

// Tiers of importance, most important first: the order in which rows are
// kept when the report must be cut.
const (
	tierRegression = iota
	tierImprovement
	tierInconclusive
	tierExactWithin // exact metrics that changed within their threshold
	tierMissing     // missing, new and unit-mismatched benchmarks
	tierRun         // rows of a run table (no baseline)
	tierAllChanged  // full-table rows with a change
	tierAllSame     // full-table rows without one
)

func (d *document) add(text string)   { d.parts = append(d.parts, part{text: text}) }
func (d *document) addTable(t *table) { d.parts = append(d.parts, part{table: t}) }
func (d *document) addNotice()        { d.parts = append(d.parts, part{notice: true}) }

// rankRows orders all rows of the document by importance and returns
// their count. Rows of a more important tier come first. Within a tier the
// tables take turns, each offering its largest remaining change, so that
// two thousand timing regressions cannot crowd out the one size
// regression: a row's place is its position in its own table, then the
// size of its change, then document order.
func (d *document) rankRows() int {
	var all []*row
	for _, p := range d.parts {
		if p.table == nil {
			continue
		}
		own := make([]*row, len(p.table.rows))
		for i := range p.table.rows {
			own[i] = &p.table.rows[i]
		}
		slices.SortStableFunc(own, byTierAndSize)
		for i, r := range own {
			r.pos = 0
			if i > 0 && own[i-1].tier == r.tier {
				r.pos = own[i-1].pos + 1
			}
		}
		all = append(all, own...)
	}
	slices.SortStableFunc(all, func(a, b *row) int {
		if c := cmp.Compare(a.tier, b.tier); c != 0 {
			return c
		}
		if c := cmp.Compare(a.pos, b.pos); c != 0 {
			return c
		}
		return cmp.Compare(b.mag, a.mag)
	})
	for i, r := range all {
		r.rank = i
	}
	return len(all)
}

func byTierAndSize(a, b *row) int {
	if c := cmp.Compare(a.tier, b.tier); c != 0 {
		return c
	}
	return cmp.Compare(b.mag, a.mag)
}

// render writes the document keeping the keep most important rows. With b
// nil it only measures, returning the size in bytes.
func (d *document) render(b *strings.Builder, keep, total int) int {
	n := 0
	write := func(s string) {
		n += len(s)
		if b != nil {
			b.WriteString(s)
		}
	}
	for _, p := range d.parts {
		switch {
		case p.notice:
			write(d.notice(total - keep))
		case p.table != nil:
			t := p.table
			kept := 0
			for _, r := range t.rows {
				if r.rank < keep {
					if kept == 0 {
						write(t.head)
					}
					if kept == t.fold && t.fold > 0 {
						write(t.foldOpen(t.keptCount(keep) - t.fold))
					}
					write(r.text)
					kept++
				}
			}
			write(t.after(kept))
		default:
			write(p.text)
		}
	}
	return n
}

func (d *document) notice(cut int) string {
	if cut == 0 || d.shortened == nil {
		return ""
	}
	return d.shortened(cut)
}

func (t *table) keptCount(keep int) int {
	n := 0
	for _, r := range t.rows {
		if r.rank < keep {
			n++
		}
	}
	return n
}

// foldOpen starts the collapsed continuation of n rows.
func (t *table) foldOpen(n int) string {
	summary := human.Plural(n, "more row", "more rows")
	if t.foldSummary != nil {
		summary = t.foldSummary(n)
	}
	return "\n" + detailsOpen(summary) + t.head
}

// after is what follows the rows when kept of them are shown: the end of
// the continuation, the line for cut rows, the tail.
func (t *table) after(kept int) string {
	s := ""
	if t.fold > 0 && kept > t.fold {
		s += detailsClose
	}
	if cut := len(t.rows) - kept; cut > 0 && t.more != nil {
		if kept > 0 && !(t.fold > 0 && kept > t.fold) {
			s += "\n"
		}
		s += t.more(cut)
	}
	return s + t.tail
}

// size is the bytes the table takes with kept rows of rowBytes in all.
func (t *table) size(kept, rowBytes int) int {
	n := len(t.after(kept))
	if kept > 0 {
		n += len(t.head) + rowBytes
	}
	if t.fold > 0 && kept > t.fold {
		n += len(t.foldOpen(kept - t.fold))
	}
	return n
}

// sizes returns the document's size with k rows kept, for every k from 0
// to total (rankRows must have run). Adding the rows in order of
// importance changes one table at a time, so this is one pass.
func (d *document) sizes(total int) []int {
	type state struct {
		t              *table
		kept, rowBytes int
	}
	byRank := make([]*state, total)
	rowLen := make([]int, total)
	notices := 0
	for _, p := range d.parts {
		if p.notice {
			notices++
		}
		if p.table != nil {
			st := &state{t: p.table}
			for _, r := range p.table.rows {
				byRank[r.rank], rowLen[r.rank] = st, len(r.text)
			}
		}
	}
	out := make([]int, total+1)
	out[0] = d.render(nil, 0, total)
	for k := range total {
		st := byRank[k]
		before := st.t.size(st.kept, st.rowBytes)
		st.kept++
		st.rowBytes += rowLen[k]
		out[k+1] = out[k] + st.t.size(st.kept, st.rowBytes) - before +
			notices*(len(d.notice(total-k-1))-len(d.notice(total-k)))
	}
	return out
}

// bounded renders the document in at most limit bytes, keeping the
// largest number of the most important rows that fits. It reports false
// when even the document without any row exceeds the limit. (The size is
// not monotonic in the rows kept, since a "… n more rows" line can be
// longer than a header and a row, so it looks at every count rather than
// bisecting.)
func (d *document) bounded(limit int) (string, bool) {
	total := d.rankRows()
	best := -1
	for k, n := range d.sizes(total) {
		if n <= limit {
			best = k
		}
	}
	if best < 0 {
		return "", false
	}
	var b strings.Builder
	if d.render(&b, best, total) > limit {
		return "", false // unreachable unless sizes and render disagree
	}
	return b.String(), true
}
