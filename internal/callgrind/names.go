package callgrind

import (
	"iter"
	"strings"
)

// FuncName is a function's symbol as callgrind names it (a Profile's
// key) made readable, for a report: the Go linker's name (package path,
// receiver, function, closures as F.func1) without an assembly
// function's ABI suffix, and with the type arguments of an
// instantiation of generic code as Go spells them rather than as the
// compiler's shapes ("pkg.Map[go.shape.int]" is "pkg.Map[int]", a
// struct's shape with its fields and tags "struct{…}"). A name it does
// not understand (an address, a bracket left open) stays as it is.
func FuncName(sym string) string {
	sym = strings.TrimSuffix(strings.TrimSuffix(sym, ".abi0"), ".abiinternal")
	var b strings.Builder
	for {
		open := strings.IndexByte(sym, '[')
		if open < 0 {
			b.WriteString(sym)
			return b.String()
		}
		end := closing(sym, open)
		if end < 0 {
			b.WriteString(sym)
			return b.String()
		}
		b.WriteString(sym[:open+1])
		for i, arg := range splitTop(sym[open+1 : end]) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(typeArg(arg))
		}
		b.WriteByte(']')
		sym = sym[end+1:]
	}
}

// typeArg is one type argument of a symbol, readable: its shape's
// "go.shape." dropped, a struct or interface type's body elided.
func typeArg(a string) string {
	a = strings.ReplaceAll(strings.TrimSpace(a), "go.shape.", "")
	for _, kind := range []string{"struct", "interface"} {
		if rest, ok := strings.CutPrefix(a, kind); ok && strings.HasPrefix(strings.TrimSpace(rest), "{") {
			if strings.TrimSpace(rest) == "{}" {
				return kind + "{}"
			}
			return kind + "{…}"
		}
	}
	return a
}

// structure yields the brackets, braces, parentheses and commas of s
// from start on that lie outside quoted strings (struct tags), each
// index with the nesting depth after it.
func structure(s string, start int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		depth, quoted := 0, false
		for i := start; i < len(s); i++ {
			c := s[i]
			switch {
			case quoted && c == '\\':
				i++
				continue
			case c == '"':
				quoted = !quoted
				continue
			case quoted:
				continue
			case c == '[' || c == '{' || c == '(':
				depth++
			case c == ']' || c == '}' || c == ')':
				depth--
			case c != ',':
				continue
			}
			if !yield(i, depth) {
				return
			}
		}
	}
}

// closing is the index of the bracket that closes the one at open in s,
// brackets and braces nested and quoted strings (struct tags) skipped;
// -1 when there is none.
func closing(s string, open int) int {
	for i, depth := range structure(s, open) {
		if depth == 0 && s[i] != ',' {
			if s[i] != ']' {
				return -1
			}
			return i
		}
	}
	return -1
}

// splitTop splits s at the commas outside brackets, braces and quotes.
func splitTop(s string) []string {
	var out []string
	start := 0
	for i, depth := range structure(s, 0) {
		if s[i] == ',' && depth == 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
