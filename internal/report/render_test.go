package report

import (
	"github.com/wirebench/wirebench/internal/outcome"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteRenderSamples writes sample reports for tools/render (the real
// Mermaid and Chromium check, which is not part of CI) when
// WIREBENCH_RENDER_DIR names a directory:
//
//	WIREBENCH_RENDER_DIR=/tmp/reports go test ./internal/report -run WriteRenderSamples
func TestWriteRenderSamples(t *testing.T) {
	dir := os.Getenv("WIREBENCH_RENDER_DIR")
	if dir == "" {
		t.Skip("WIREBENCH_RENDER_DIR not set")
	}
	for name, md := range map[string]string{
		"typical.md":   Markdown(typicalInput(), Options{}),
		"first-run.md": Markdown(firstRunInput(), Options{}),
		"unchanged.md": Markdown(unchangedInput(), Options{}),
		"mixed.md":     Markdown(outcome.Report{Result: mixedResult()}, Options{}),
		"2000.md":      Markdown(bigInput(2000), Options{}),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
