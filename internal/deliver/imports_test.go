package deliver

import (
	"go/build"
	"slices"
	"testing"
)

// TestImports: delivery writes an outcome.Outcome and depends on no use
// case that makes one (internal/check), so what to write for a verdict
// is decided here alone.
func TestImports(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, forbidden := range []string{"github.com/wirebench/wirebench/internal/check", "github.com/wirebench/wirebench/internal/config"} {
		if slices.Contains(p.Imports, forbidden) {
			t.Errorf("deliver imports %s", forbidden)
		}
	}
}
