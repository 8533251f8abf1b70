package check

import (
	"testing"

	"github.com/wirebench/wirebench/internal/program"
)

// TestBuiltWith: the progress line names the Go that built each side,
// and is not written for builds that do not say (the embedded suite's).
func TestBuiltWith(t *testing.T) {
	base := program.Program{{BuiltWith: "go1.26.8 (/usr/local/go; patches for go1.26: testing, runtime seed, sched, code)"}}
	head := program.Program{{BuiltWith: "go1.27.3 (fetched by the go command; patches for go1.27: testing, runtime seed, sched, code)"}}
	tests := []struct {
		name       string
		base, head program.Program
		want       string
	}{
		{"both", base, head, "wirebench: base built with go1.26.8 (/usr/local/go; patches for go1.26: testing, runtime seed, sched, code), " +
			"head with go1.27.3 (fetched by the go command; patches for go1.27: testing, runtime seed, sched, code)"},
		{"the head only", program.Program{{}}, head, "wirebench: base built with a Go it does not say, head with go1.27.3 (fetched by the go command; patches for go1.27: testing, runtime seed, sched, code)"},
		{"neither", program.Program{{}}, program.Program{{}}, ""},
	}
	for _, tt := range tests {
		if got := builtWith(tt.base, tt.head); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
