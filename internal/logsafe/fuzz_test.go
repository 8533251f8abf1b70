package logsafe

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzWriter writes arbitrary text, in two writes split anywhere, through
// a Writer: no line of the output is a workflow command, and the output is
// the input with only the Guard and the hash break added. Run with:
// go test -fuzz FuzzWriter ./internal/logsafe
func FuzzWriter(f *testing.F) {
	f.Add("::error::pwned\n", 3, false)
	f.Add("a\r  ::add-mask::x ##[error]y", 5, true)
	f.Add("\u00a0\u3000::stop-commands::tok\n###[", 2, false)
	f.Fuzz(func(t *testing.T, in string, at int, prefixed bool) {
		prefix := ""
		if prefixed {
			prefix = "[head worker] "
		}
		var b bytes.Buffer
		w := NewWriter(&b, prefix)
		at = min(max(at, 0), len(in))
		w.Write([]byte(in[:at]))
		w.Write([]byte(in[at:]))
		w.Flush()
		out := b.String()
		if l := commandFree(out); l != "" {
			t.Fatalf("input %q: output line %q is a workflow command", in, l)
		}
		strip := func(s string) string {
			for _, added := range []string{prefix, Guard, hashBreak} {
				if added != "" {
					s = strings.ReplaceAll(s, added, "")
				}
			}
			return s
		}
		if strip(out) != strip(in) {
			t.Fatalf("input %q: output %q is not the input with only guards added", in, out)
		}
	})
}
