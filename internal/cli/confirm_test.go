package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

func TestFreshArgs(t *testing.T) {
	tests := []struct {
		p    source.Plan
		want []string
	}{
		{source.Plan{Budget: time.Minute, Samples: 15}, []string{"run", "--metric", "time", "--budget", "1m0s", "--samples", "15", "--out", "o.json", "--format", "json"}},
		{source.Plan{Budget: 20 * time.Second, Samples: 9, Filter: "protobuf", Shard: "1/2"},
			[]string{"run", "--metric", "time", "--budget", "20s", "--samples", "9", "--out", "o.json", "--format", "json", "--filter", "protobuf", "--shard", "1/2"}},
	}
	for _, tt := range tests {
		if got := freshArgs(tt.p, "o.json"); !slices.Equal(got, tt.want) {
			t.Errorf("%+v: %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestCheckConfirmsInANewProcess builds wirebench and runs it as a user
// would: five updates make a history; the baseline is edited as if one
// benchmark had been four times as fast, and steady, in all of them;
// check then finds it slower, measures the suite again in a new process of itself, finds it
// slower there too, and fails naming the confirmation.
func TestCheckConfirmsInANewProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures")
	}
	dir := t.TempDir()
	bin := cliBinary(t)
	run := func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), out.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, out.String()
	}
	flags := []string{"--metric", "time", "--filter", "codec=raw/dataset=small$", "--samples", "5", "--budget", "1s"}
	path := filepath.Join(dir, "baseline", "default.json")
	var b *baseline.Baseline
	// Two runs that start within one second (no commit, no run id) are one
	// entry of the history: update until it holds enough.
	for i := 0; b == nil || len(b.History) < compare.MinHistoryRuns; i++ {
		if i == 2*compare.MinHistoryRuns {
			t.Fatalf("%d updates left %d runs in the history", i, len(b.History))
		}
		if code, out := run(append([]string{"update"}, flags...)...); code != 0 {
			t.Fatalf("update %d: exit %d\n%s", i+1, code, out)
		}
		var err error
		if b, err = baseline.Load(path, "default"); err != nil {
			t.Fatal(err)
		}
	}
	const name = "BenchmarkSerialize/codec=raw/dataset=small"
	ns := b.Reference.Lookup(name).Metrics[0]
	med := b.History[b.ReferenceEntry()].Medians[name][results.UnitNsPerOp]
	for i := range ns.Values {
		ns.Values[i] *= 0.25
	}
	// In every run of the history it was a quarter of what it is, within
	// half a percent: 1 s runs on a shared machine move far more, and the
	// check must find the change whatever this machine does meanwhile.
	for i, e := range b.History {
		e.Medians[name][results.UnitNsPerOp] = 0.25 * med * (1 + 0.005*float64(i%3-1))
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	code, out := run("check", "--filter", "codec=raw/dataset=small$", "--measure-all") // this binary recorded the baseline
	report, _ := os.ReadFile(filepath.Join(dir, "wirebench-results", "report.md"))
	// Serialize's regression must hold; Deserialize, whose history is
	// as measured, may be flagged too on a busy machine and hold or not.
	if code != 1 || !strings.Contains(out, "measuring again in a new process") || !strings.Contains(out, "confirmed in a second process") ||
		!heldAgain.Match(report) {
		t.Errorf("check: exit %d, want 1 with the regression confirmed in a second process\n%s\nreport:\n%s", code, out, report)
	}
}

// heldAgain is the report's account of a confirmation in which at least
// one timing regression held.
var heldAgain = regexp.MustCompile(`measured again in a new process; [1-9][0-9]* held, [0-9]+ did not`)
