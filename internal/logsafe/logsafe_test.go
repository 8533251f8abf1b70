package logsafe

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
)

// lines splits text where the runner does: at line feeds and carriage
// returns.
func lines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}

// commandFree reports the first line of s the runner would read as a
// workflow command, or "".
func commandFree(s string) string {
	for _, l := range lines(s) {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
			return l
		}
	}
	return ""
}

func TestWriter(t *testing.T) {
	tests := []struct {
		name, prefix, in, want string
	}{
		{"plain text passes", "", "Serialize/codec=raw 12 ns/op\n", "Serialize/codec=raw 12 ns/op\n"},
		{"a command at a line start", "", "::error::pwned\n", "› ::error::pwned\n"},
		{"after white space", "", "  \t::add-mask::secret\n", "›   \t::add-mask::secret\n"},
		{"after a no-break space", "", "\u00a0::stop-commands::x\n", "› \u00a0::stop-commands::x\n"},
		{"after a carriage return", "", "progress 10%\r::error::pwned", "progress 10%\r› ::error::pwned"},
		{"on a later line", "", "ok\n::warning::x\nok\n", "ok\n› ::warning::x\nok\n"},
		{"a single colon also guarded", "", ":)\n", "› :)\n"},
		{"colons within a line pass", "", "a::b ::c\n", "a::b ::c\n"},
		{"old syntax anywhere", "", "name ##[error]pwned\n", "name ##\u200b[error]pwned\n"},
		{"old syntax at a line start", "", "##[add-mask]x", "##\u200b[add-mask]x"},
		{"three hashes", "", "###[x", "###\u200b[x"},
		{"hashes without a bracket", "", "## heading #1\n", "## heading #1\n"},
		{"hashes at the end", "", "x ##", "x ##"},
		{"prefix on every line", "[head worker] ", "a\n::error::b\r\nc", "[head worker] a\n[head worker] ::error::b\r\n[head worker] c"},
		{"prefix and old syntax", "[head worker] ", "##[error]x\n", "[head worker] ##\u200b[error]x\n"},
		{"white space prefix still guards", "  ", "::error::x\n", "  › ::error::x\n"},
		{"empty lines keep no prefix", "[w] ", "\n\na\n", "\n\n[w] a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, split := range []bool{false, true} {
				var b bytes.Buffer
				w := NewWriter(&b, tt.prefix)
				if split { // one byte a write: the result must not depend on how the text arrives
					for i := range len(tt.in) {
						w.Write([]byte{tt.in[i]})
					}
				} else {
					w.Write([]byte(tt.in))
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if b.String() != tt.want {
					t.Errorf("split %v: %q, want %q", split, b.String(), tt.want)
				}
				if l := commandFree(b.String()); l != "" {
					t.Errorf("split %v: line %q would be read as a workflow command", split, l)
				}
			}
		})
	}
}

func TestText(t *testing.T) {
	in := "BenchmarkX\n::error::pwned\n##[warning]y"
	if got := Text(in); commandFree(got) != "" || !strings.Contains(got, "pwned") {
		t.Errorf("Text(%q) = %q", in, got)
	}
	if got := Text("wirebench: fine"); got != "wirebench: fine" {
		t.Errorf("Text changed plain text: %q", got)
	}
}
