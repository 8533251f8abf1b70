package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEMatrixWorkflow extracts the job-matrix workflow from the
// README into a scratch repository and runs actionlint on it, so the
// documented workflow stays valid.
func TestREADMEMatrixWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds actionlint")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Scaling out over a job matrix")
	if !ok {
		t.Fatal("README has no matrix section")
	}
	_, block, ok := strings.Cut(section, "```yaml\n")
	if !ok {
		t.Fatal("the matrix section has no yaml block")
	}
	workflow, _, ok := strings.Cut(block, "```")
	if !ok || !strings.Contains(workflow, "mode: merge") {
		t.Fatalf("unexpected matrix workflow:\n%s", workflow)
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows", "matrix.yml")
	if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wf, []byte(workflow), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", "-no-color", wf)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok && os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "1" {
			t.Skipf("cannot run actionlint: %v", err)
		}
		t.Fatalf("actionlint on the README's matrix workflow: %v\n%s\n%s", err, out, workflow)
	}
}
