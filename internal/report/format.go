package report

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// ShortName shortens a benchmark name for people: the suite's
// "BenchmarkSerialize/codec=protobuf/dataset=small" becomes
// "Serialize protobuf/small"; any other name loses only its "Benchmark"
// prefix (so two different names never shorten to the same text).
func ShortName(name string) string {
	_, name = results.SplitKey(name)
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok || rest == "" {
		return name
	}
	if codec, dataset, op := results.NameParts(name); codec != "" && dataset != "" && op != "" && strings.HasSuffix(rest, "/op="+op) {
		// The matrix package's codec=C/dataset=D/op=O under a benchmark of
		// the user's: "Wire protobuf/order serialize".
		if top, _, _ := strings.Cut(rest, "/"); !strings.Contains(codec, "/") && !strings.Contains(dataset, "/") {
			return top + " " + codec + "/" + dataset + " " + op
		}
	}
	op, tail, ok := strings.Cut(rest, "/codec=")
	if ok && (op == "Serialize" || op == "Deserialize") {
		codec, dataset, ok := strings.Cut(tail, "/dataset=")
		if ok && codec != "" && dataset != "" && !strings.Contains(codec, "/") && !strings.Contains(dataset, "/") {
			return op + " " + codec + "/" + dataset
		}
	}
	return rest
}

// maxNameBytes bounds a benchmark name in a Markdown cell: user names can
// be arbitrarily long, and one of them must not eat the report's budget.
const maxNameBytes = 120

// CellName is a benchmark name ready for a Markdown table cell; a
// benchmark of a package (a key, see results.Key) shows its package under
// the name, small.
func CellName(name string) string {
	cell := EscapeCell(Elide(ShortName(name), maxNameBytes))
	if pkg, _ := results.SplitKey(name); pkg != "" {
		cell += " <sub>" + EscapeCell(Elide(pkg, maxNameBytes)) + "</sub>"
	}
	return cell
}

// Elide shortens s to at most n bytes by cutting its middle, on rune
// boundaries, so both the start and the distinguishing end stay visible.
func Elide(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const dots = "…"
	keep := n - len(dots)
	head := keep / 2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - (keep - head)
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + dots + s[tail:]
}

// EscapeCell makes arbitrary text safe inside a GFM table cell: pipes,
// HTML (so a "<!--" cannot hide the rest of a comment, an <img> stays
// text), emphasis, links and code spans are neutralised; @mentions,
// issue references, bare URLs and e-mail addresses are broken with a
// zero-width space so they neither notify anyone nor turn into links; and
// line breaks, which would end the row, become spaces. Text a pull
// request controls (benchmark names, a worker's messages) goes through it
// wherever a report shows it.
func EscapeCell(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		if writeInert(&b, s, i) {
			continue
		}
		switch r {
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		case '#':
			if startsDigit(s[i+1:]) {
				b.WriteString("#" + zeroWidthSpace) // no issue reference
			} else {
				b.WriteString("\\#")
			}
		case '.':
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteString(zeroWidthSpace) // no autolinked www. address
			}
			b.WriteByte('.')
		case '|', '\\', '`', '*', '_', '[', ']', '~', '!', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			if r < ' ' {
				b.WriteByte(' ')
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeInert writes the rune at s[i] to b and reports true when it is one
// that Markdown and HTML text escape alike: "<", ">" and "&" as entities,
// and "@" and ":" followed by a zero-width space where they would start a
// mention, an e-mail link or a URL ("@octo", "https://"); otherwise it
// writes nothing and reports false.
func writeInert(b *strings.Builder, s string, i int) bool {
	switch s[i] {
	case '<':
		b.WriteString("&lt;")
	case '>':
		b.WriteString("&gt;")
	case '&':
		b.WriteString("&amp;")
	case '@':
		b.WriteByte('@')
		if startsWord(s[i+1:]) {
			b.WriteString(zeroWidthSpace) // no mention, no e-mail link
		}
	case ':':
		b.WriteByte(':')
		if strings.HasPrefix(s[i+1:], "//") {
			b.WriteString(zeroWidthSpace) // no autolinked URL
		}
	default:
		return false
	}
	return true
}

// zeroWidthSpace, written as an entity so the Markdown shows it, splits a
// mention, reference or URL without changing how the text reads (as
// Dependabot and Renovate do in the release notes they quote).
const zeroWidthSpace = "&#8203;"

// startsWord reports whether s starts with a character that can begin a
// GitHub login or an e-mail domain.
func startsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'
}

// startsDigit reports whether s starts with an ASCII digit.
func startsDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// escapeInline makes text from the caller (titles, sources, reasons) safe
// in running Markdown text; it is the cell escaping, which suffices.
func escapeInline(s string) string { return EscapeCell(s) }

// PlainText renders plain text (a note, a reason: anything that may quote
// a pull request or a worker) as inert Markdown on one line: spans
// between backticks stay inline code (inert by nature, and how
// wirebench's own notes show commands), everything else is escaped like a
// cell. An unmatched backtick is shown as one.
func PlainText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' ' // then collapsed with the rest of the white space
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 { // odd number of backticks: the last one is text
		parts[len(parts)-2] += "`" + parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString(code(p))
		} else {
			b.WriteString(escapeInline(p))
		}
	}
	return escapeBlockStart(b.String())
}

// leadingOrdinal is the start of an ordered list item: "1." or "1)".
var leadingOrdinal = regexp.MustCompile(`^[0-9]{1,9}[.)]`)

// escapeBlockStart escapes what would make a line of escaped text start a
// block of its own, where the text stands at the start of a line (a note
// in a list item, a paragraph): a thematic break or a nested list ("-",
// "+"), a setext underline ("=") or an ordered list ("1.").
func escapeBlockStart(s string) string {
	switch {
	case s == "":
		return s
	case strings.ContainsRune("-+=", rune(s[0])):
		return "\\" + s
	case leadingOrdinal.MatchString(s):
		n := len(leadingOrdinal.FindString(s)) - 1
		return s[:n] + "\\" + s[n:]
	}
	return s
}

// code renders s as an inline code span; backticks, which would end it,
// are dropped (commits and refs never contain them).
func code(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '`' || r == '\n' || r == '\r' || r == '|' {
			return -1
		}
		return r
	}, s)
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

// ShortSHA returns the first 7 characters of a commit hash.
func ShortSHA(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// change formats a comparison's change: the percentage, with its interval
// for noisy metrics ("+12.3% [+9.8%, +14.9%]"), or "from 0" when the
// baseline was zero.
func change(c compare.Comparison) string {
	if math.IsInf(c.Ratio, 1) {
		return "from 0"
	}
	s := human.Change(c.Ratio-1, 1)
	if c.Kind == compare.Noisy && !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
		s += " [" + human.Change(c.Lo-1, 1) + ", " + human.Change(c.Hi-1, 1) + "]"
	}
	return s
}

// pValue formats an (adjusted) p-value for a report: "p=0.0003",
// "p<0.0001"; exact metrics have none.
func pValue(c compare.Comparison) string {
	if c.Kind == compare.Exact {
		return "exact"
	}
	p := c.PAdjusted
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 0.0001:
		return "p<0.0001"
	case p < 0.001:
		return fmt.Sprintf("p=%.4f", p)
	case p < 0.01:
		return fmt.Sprintf("p=%.3f", p)
	}
	return fmt.Sprintf("p=%.2f", p)
}

// verdictMark is the symbol of a verdict in tables.
func verdictMark(v compare.Verdict) string {
	switch v {
	case compare.Regression:
		return "❌"
	case compare.Improvement:
		return "✅"
	case compare.Inconclusive:
		return "❔"
	}
	return ""
}

// verdictLabel is a verdict with its symbol, for the Verdict column.
func verdictLabel(v compare.Verdict) string {
	if m := verdictMark(v); m != "" {
		return m + " " + string(v)
	}
	return string(v)
}

// factor formats a speed ratio as "×1.12".
func factor(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "?"
	}
	return fmt.Sprintf("×%.2f", x)
}

// magnitude orders comparisons by the size of their change, in log space
// so that ×2 and ×0.5 weigh alike; unknown changes weigh nothing.
func magnitude(c compare.Comparison) float64 {
	r := c.Ratio
	switch {
	case math.IsInf(r, 1):
		return math.MaxFloat64
	case math.IsNaN(r) || r <= 0:
		return 0
	}
	return math.Abs(math.Log(r))
}
