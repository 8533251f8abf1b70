package cli

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestGodebugEnviron: the re-executed process gets exactly one GODEBUG,
// the user's settings first, and a GODEBUG that already decides
// madvdontneed is left alone.
func TestGodebugEnviron(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    string // the one GODEBUG of the result
		again   bool
	}{
		{"none", []string{"HOME=/root"}, "GODEBUG=madvdontneed=0", true},
		{"empty", []string{"GODEBUG=", "HOME=/root"}, "GODEBUG=madvdontneed=0", true},
		{"a user's setting", []string{"GODEBUG=memprofilerate=0", "HOME=/root"}, "GODEBUG=memprofilerate=0,madvdontneed=0", true},
		{"twice: the first counts, as for the runtime", []string{"GODEBUG=a=1", "GODEBUG=b=1"}, "GODEBUG=a=1,madvdontneed=0", true},
		{"already decided", []string{"GODEBUG=gctrace=1,madvdontneed=1"}, "GODEBUG=gctrace=1,madvdontneed=1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, again := godebugEnviron(tt.environ)
			if again != tt.again {
				t.Errorf("re-execute %v, want %v", again, tt.again)
			}
			var got []string
			for _, kv := range env {
				if strings.HasPrefix(kv, "GODEBUG=") {
					got = append(got, kv)
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("GODEBUG entries %q, want [%q]", got, tt.want)
			}
			if !slices.Contains(env, "HOME=/root") && slices.Contains(tt.environ, "HOME=/root") {
				t.Errorf("lost HOME: %q", env)
			}
		})
	}
}

// TestUserGODEBUG runs the built binary with a GODEBUG of the user's own:
// it re-executed itself forever before (the appended GODEBUG was never
// the one the runtime read), so help never printed.
func TestUserGODEBUG(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := cliBinary(t)
	for _, godebug := range []string{"", "memprofilerate=0"} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, "help")
		cmd.Env = append(cmd.Environ(), "GODEBUG="+godebug)
		out, err := cmd.CombinedOutput()
		expired := ctx.Err() != nil
		cancel()
		if expired {
			t.Fatalf("GODEBUG=%q: wirebench help did not finish in 30s (re-executing itself?)", godebug)
		}
		if err != nil || !strings.Contains(string(out), "Usage") {
			t.Errorf("GODEBUG=%q: wirebench help: %v\n%s", godebug, err, out)
		}
	}
}
