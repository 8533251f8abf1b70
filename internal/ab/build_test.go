package ab

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

func TestCheckModule(t *testing.T) {
	dir := t.TempDir()
	if err := CheckModule(dir); !errors.Is(err, ErrSetup) || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("empty dir: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644)
	if err := CheckModule(dir); err != nil {
		t.Errorf("a module: %v", err)
	}
	if err := CheckModule(filepath.Join(dir, "nope")); !errors.Is(err, ErrSetup) {
		t.Errorf("a missing dir: %v", err)
	}
	if err := CheckModule(""); !errors.Is(err, ErrSetup) {
		t.Errorf("no dir: %v", err)
	}
}

// actionTarget is wirebench's own command as the A/B target (as
// internal/source builds it), for the tests of real processes.
type actionTarget struct{}

func (actionTarget) CheckTree(tree string) error { return CheckModule(tree) }
func (actionTarget) Build(ctx context.Context, tree, dir string) (Program, error) {
	bin := filepath.Join(dir, "action")
	if err := GoBuild(ctx, tree, "./cmd/wirebench", bin, nil); err != nil {
		return nil, err
	}
	return Program{{Command: worker.Command{Path: bin, Args: []string{"worker", "--filter", "codec=raw/dataset=small"}}}}, nil
}

// TestRealProcesses builds this module's ./cmd/wirebench and runs a short
// A/B of two benchmarks against itself with real worker processes.
func TestRealProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and measures for seconds")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	prog, err := (actionTarget{}).Build(context.Background(), "../..", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spawn := Processes(prog, prog, StartOptions{AA: true})
	o, err := Run(context.Background(), spawn, Options{Budget: 3 * time.Second, ConfirmBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	r := o.Result
	if r.Method != compare.MethodPaired || r.AA == nil || r.AA.Benchmarks != 2 {
		t.Errorf("method %q AA %+v", r.Method, r.AA)
	}
	timings := 0
	for _, c := range r.Comparisons {
		if c.Unit == results.UnitNsPerOp {
			timings++
			if !c.Paired || c.Baseline.N < 5 {
				t.Errorf("%s: paired %v, %d pairs", c.Name, c.Paired, c.Baseline.N)
			}
		}
		if c.Kind == compare.Exact && c.Verdict != compare.Unchanged {
			t.Errorf("%s %s: %s between two identical builds", c.Name, c.Unit, c.Verdict)
		}
	}
	if timings != 2 {
		t.Errorf("%d timing comparisons, want 2", timings)
	}
	if err := GoBuild(context.Background(), t.TempDir(), "./cmd/wirebench", filepath.Join(t.TempDir(), "x"), nil); !errors.Is(err, ErrSetup) {
		t.Errorf("building an empty dir: %v", err)
	}
}
