package githubapi

import (
	"context"
	"fmt"
	"testing"
)

// TestReleases: the latest release's tag ("" without one), and which
// commits it contains: its own and those before it on the branch.
func TestReleases(t *testing.T) {
	c, srv, _ := setup(t)
	ctx := context.Background()
	if tag, err := c.LatestRelease(ctx, "o", "r"); err != nil || tag != "" {
		t.Errorf("no release: %q, %v", tag, err)
	}
	var line []string
	for i := range 6 {
		line = append(line, fmt.Sprintf("%040x", i+1))
	}
	srv.AddCommitLine("o", "r", line)
	srv.AddRelease("o", "r", "v1.0.0", line[1])
	srv.AddRelease("o", "r", "v1.1.0", line[3])
	tag, err := c.LatestRelease(ctx, "o", "r")
	if err != nil || tag != "v1.1.0" {
		t.Fatalf("latest release %q, %v; want v1.1.0", tag, err)
	}
	for i, sha := range line {
		got, err := c.Contains(ctx, "o", "r", tag, sha)
		if err != nil || got != (i <= 3) {
			t.Errorf("commit %d: contained %v, %v; want %v", i, got, err, i <= 3)
		}
	}
	if _, err := c.Contains(ctx, "o", "r", tag, "unknown"); err == nil {
		t.Error("an unknown commit: no error")
	}
}
