package check

import (
	"go/build"
	"slices"
	"testing"
)

// TestImports: check makes an outcome.Outcome and knows nothing of how
// it is rendered (internal/report) or written (internal/deliver).
func TestImports(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, forbidden := range []string{"report", "deliver", "cli"} {
		if slices.Contains(p.Imports, "github.com/wirebench/wirebench/internal/"+forbidden) {
			t.Errorf("check imports internal/%s", forbidden)
		}
	}
}
