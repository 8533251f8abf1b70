package outcome_test

import (
	"go/build"
	"slices"
	"testing"
)

// TestImports: an outcome is made by check, rendered by report and
// written by deliver, and each knows only the outcome of the others:
// check nothing of how it is rendered or written, deliver nothing of the
// use cases that make it (so what to write for a verdict is decided
// there alone).
func TestImports(t *testing.T) {
	const internal = "github.com/wirebench/wirebench/internal/"
	for _, tt := range []struct {
		pkg       string
		forbidden []string
	}{
		{"check", []string{"report", "deliver", "cli"}},
		{"deliver", []string{"check", "config"}},
	} {
		p, err := build.ImportDir("../"+tt.pkg, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range tt.forbidden {
			if slices.Contains(p.Imports, internal+f) {
				t.Errorf("%s imports internal/%s", tt.pkg, f)
			}
		}
	}
}
