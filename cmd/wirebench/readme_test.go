package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEWorkflows extracts the complete workflows from the README into
// a scratch repository and runs actionlint on them, so the documented
// workflows stay valid.
func TestREADMEWorkflows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds actionlint")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file, section, want string
	}{
		{"user.yml", "## Use it in a workflow", "bench: ."},
		{"matrix.yml", "## Scaling out over a job matrix", "mode: merge"},
		{"ab.yml", "### Same-runner A/B on pull requests", "path: base"},
	}
	dir := t.TempDir()
	var files []string
	for _, tt := range tests {
		_, section, ok := strings.Cut(string(readme), tt.section)
		if !ok {
			t.Fatalf("README has no section %q", tt.section)
		}
		_, block, ok := strings.Cut(section, "```yaml\n")
		if !ok {
			t.Fatalf("README section %q has no yaml block", tt.section)
		}
		workflow, _, ok := strings.Cut(block, "```")
		if !ok || !strings.Contains(workflow, tt.want) {
			t.Fatalf("README section %q: the first yaml block lacks %q:\n%s", tt.section, tt.want, workflow)
		}
		wf := filepath.Join(dir, ".github", "workflows", tt.file)
		if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(wf, []byte(workflow), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, wf)
	}
	cmd := exec.Command("go", append([]string{"run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", "-no-color"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok && os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "1" {
			t.Skipf("cannot run actionlint: %v", err)
		}
		t.Fatalf("actionlint on the README's workflows: %v\n%s", err, out)
	}
}
