package ab

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

// suiteTarget is wirebench's own command as the A/B target (as
// internal/source builds it), for the tests of real processes.
type suiteTarget struct{}

func (suiteTarget) CheckTree(tree string) error { return program.CheckModule(tree) }
func (suiteTarget) Build(ctx context.Context, tree, dir string) (program.Program, []results.Trouble, error) {
	bin := filepath.Join(dir, "wirebench")
	if err := program.GoBuild(ctx, tree, "./cmd/wirebench", bin, nil); err != nil {
		return nil, nil, err
	}
	return program.Program{{Command: worker.Command{Path: bin, Args: []string{"worker", "--filter", "codec=raw/dataset=small"}}}}, nil, nil
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
	prog, _, err := (suiteTarget{}).Build(context.Background(), "../..", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spawn := Processes(prog, prog, StartOptions{AA: true, Dir: t.TempDir()})
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
}
