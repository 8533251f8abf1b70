package check

import (
	"bytes"
	"context"
	"errors"
	"github.com/wirebench/wirebench/internal/outcome"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/baseline/baselinetest"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// testHost is a check's host in tests: progress into a buffer, no
// environment, and fresh in place of a new process.
type testHost struct {
	progress io.Writer
	fresh    func(context.Context, source.Plan) (*results.Results, error)
}

func (h testHost) Progress() io.Writer  { return h.progress }
func (h testHost) Getenv(string) string { return "" }
func (h testHost) MeasureFresh(ctx context.Context, p source.Plan) (*results.Results, error) {
	return h.fresh(ctx, p)
}

// historyOf is a baseline of eight runs of two benchmarks that move a
// fraction of a percent between runs, and a run of them with the first
// slower by f.
func historyOf(t *testing.T) (*baseline.Baseline, func(f float64) *results.Results) {
	t.Helper()
	return baselinetest.History([]string{"BenchmarkSerialize/codec=raw/dataset=small", "BenchmarkDeserialize/codec=raw/dataset=small"},
		func(k, i int) float64 { return 0.004 * float64((3*k+i)%5-2) })
}

// TestConfirmStep: a timing regression that would fail the run is
// measured again with the check's own plan; it stands when the second
// measurement shows it too, or cannot be made, and is reported, not
// enforced, when it does not reproduce.
func TestConfirmStep(t *testing.T) {
	base, run := historyOf(t)
	plan := source.Plan{Budget: 7 * time.Second, Samples: 11, Filter: "raw"}
	tests := []struct {
		name  string
		again func() (*results.Results, error)
		fail  bool
		note  string
	}{
		{"reproduces", func() (*results.Results, error) { return run(1.5), nil }, true, "confirmed in a second process"},
		{"does not reproduce", func() (*results.Results, error) { return run(1), nil }, false, "did not reproduce in a second process"},
		{"cannot measure again", func() (*results.Results, error) { return nil, errors.New("no such binary") }, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Against(base, run(1.5), compare.Defaults(), outcome.Report{BaselineSource: "b.json"})
			if err != nil || !o.Failed() {
				t.Fatalf("the first measurement does not fail (%v): the test needs it to", err)
			}
			var stderr bytes.Buffer
			var got source.Plan
			h := testHost{progress: &stderr, fresh: func(_ context.Context, p source.Plan) (*results.Results, error) {
				got = p
				return tt.again()
			}}
			o = confirm(context.Background(), h, o, base, source.Embedded{}, plan, compare.Defaults())
			if got.Budget != plan.Budget || got.Samples != plan.Samples || got.Filter != plan.Filter {
				t.Errorf("measured again with %+v, want the check's plan %+v", got, plan)
			}
			var c compare.Comparison
			for _, x := range o.Report.Result.Comparisons {
				if x.Name == "BenchmarkSerialize/codec=raw/dataset=small" {
					c = x
				}
			}
			if o.Failed() != tt.fail || !strings.Contains(c.Note, tt.note) {
				t.Errorf("failed %v, note %q; want failed %v, a note with %q", o.Failed(), c.Note, tt.fail, tt.note)
			}
			if tt.note == "" && !strings.Contains(stderr.String(), "could not confirm") {
				t.Errorf("no warning that the regressions could not be confirmed: %q", stderr.String())
			}
		})
	}
}
