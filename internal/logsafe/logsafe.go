package logsafe

import (
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Guard goes in front of a line that would otherwise start with "::": it is
// not white space, so the runner no longer sees a command.
const Guard = "› "

// hashBreak goes between "##" and "[": the older command syntax is then no
// longer found, and the text reads the same.
const hashBreak = "\u200b"

// maxHeld bounds the white space held at the start of a line while the
// Writer waits for its first character: past it the line is guarded.
const maxHeld = 256

// Writer neutralises workflow commands in the text written through it
// (see the package comment) and puts Prefix before every line that has
// any text. It holds back at most a few bytes of a line it cannot decide
// on yet (leading white space, "##" at the end of a write); Flush writes
// them. It is safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	// midLine is set once the current line's first character is decided
	// (the prefix, or a character that is not white space, written).
	midLine bool
	held    []byte // undecided bytes: leading white space, or trailing '#'s
	out     []byte
}

// NewWriter returns a Writer to w that puts prefix before every line
// (e.g. "[head worker] "; "" for none).
func NewWriter(w io.Writer, prefix string) *Writer {
	return &Writer{w: w, prefix: prefix}
}

// Write neutralises p and writes what is decided. It reports len(p) when
// the underlying write succeeds.
func (lw *Writer) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.out = lw.out[:0]
	for _, c := range p {
		lw.add(c)
	}
	if len(lw.out) > 0 {
		if _, err := lw.w.Write(lw.out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes the bytes held back, as they are: at the end of the text a
// line can no longer become a command.
func (lw *Writer) Flush() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if len(lw.held) == 0 {
		return nil
	}
	lw.out = append(lw.out[:0], lw.held...)
	lw.held = lw.held[:0]
	_, err := lw.w.Write(lw.out)
	return err
}

// add takes one byte of input.
func (lw *Writer) add(c byte) {
	switch {
	case c == '\n' || c == '\r':
		lw.release()
		lw.out = append(lw.out, c)
		lw.midLine = false
	case !lw.midLine:
		lw.lineStart(c)
	default:
		lw.inLine(c)
	}
}

// lineStart takes a byte before the line's first character is decided.
func (lw *Writer) lineStart(c byte) {
	if lw.prefix != "" && len(lw.held) == 0 {
		lw.out = append(lw.out, lw.prefix...)
		if strings.TrimLeftFunc(lw.prefix, unicode.IsSpace) != "" {
			lw.midLine = true // the prefix is the line's start: no command
			lw.inLine(c)
			return
		}
	}
	lw.held = append(lw.held, c)
	r, size := utf8.DecodeRune(lw.held[firstUndecoded(lw.held):])
	switch {
	case r == utf8.RuneError && size <= 1 && !utf8.FullRune(lw.held[firstUndecoded(lw.held):]):
		return // a rune not complete yet
	case unicode.IsSpace(r) && len(lw.held) < maxHeld:
		return // still leading white space
	}
	held := lw.held
	lw.held = nil
	if r == ':' || len(held) >= maxHeld {
		lw.out = append(lw.out, Guard...)
	}
	lw.midLine = true
	for _, b := range held {
		lw.inLine(b)
	}
}

// firstUndecoded is where the last, possibly incomplete, rune of held
// starts.
func firstUndecoded(held []byte) int {
	i := len(held) - 1
	for i > 0 && !utf8.RuneStart(held[i]) {
		i--
	}
	return max(i, 0)
}

// inLine takes a byte within a line: only "##[" needs care, so up to two
// '#' are held until the next byte shows whether a '[' follows.
func (lw *Writer) inLine(c byte) {
	switch {
	case c == '#' && len(lw.held) < 2:
		lw.held = append(lw.held, c)
	case c == '#':
		lw.out = append(lw.out, '#') // the oldest of three: cannot start "##["
	case c == '[' && len(lw.held) == 2:
		lw.out = append(lw.out, "##"+hashBreak+"["...)
		lw.held = lw.held[:0]
	default:
		lw.release()
		lw.out = append(lw.out, c)
	}
}

// release writes the held bytes as they are.
func (lw *Writer) release() {
	lw.out = append(lw.out, lw.held...)
	lw.held = lw.held[:0]
}

// Text returns s neutralised as a Writer with no prefix would write it.
func Text(s string) string {
	var b strings.Builder
	w := NewWriter(&b, "")
	_, _ = w.Write([]byte(s))
	_ = w.Flush()
	return b.String()
}
