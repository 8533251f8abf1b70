package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchmarkFileErrors: a results file of input benchmark-file that
// cannot be read is the user's bad input (exit 2), named by its input,
// whether a pull request's check or a push's update reads it.
func TestBenchmarkFileErrors(t *testing.T) {
	tests := []struct {
		name, event, payload, file, content string
	}{
		{"check, missing", "pull_request", "pull_request.json", "missing.txt", ""},
		{"check, not results", "pull_request", "pull_request.json", "bad.txt", "no benchmarks here\n"},
		{"update, missing", "push", "push.json", "missing.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.content != "" {
				if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			event := payload(t, dir, tt.payload, func(map[string]any) {})
			code, stdout, stderr := actionIn(t, dir, map[string]string{"GITHUB_EVENT_NAME": tt.event, "GITHUB_EVENT_PATH": event},
				map[string]string{"github-token": "", "benchmark-file": tt.file})
			if code != exitBadInput || !strings.Contains(stdout+stderr, "input benchmark-file: ") {
				t.Errorf("exit %d, want %d naming input benchmark-file\nstdout: %s\nstderr: %s", code, exitBadInput, stdout, stderr)
			}
		})
	}
}
