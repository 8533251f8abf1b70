package check

import (
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// TestClockPlan: the wall-time check beside a count is timed for a
// second per benchmark (10 s to 4 min) unless a budget is given, not for
// update's default budget of a timed run; a check takes the reference's
// wall-time budget and samples, so that its timings are comparable.
func TestClockPlan(t *testing.T) {
	ref := results.New("go test", results.Env{})
	ref.Clock = results.New("go test", results.Env{})
	ref.Clock.Settings.Budget, ref.Clock.Settings.Samples = 37*time.Second, 12
	tests := []struct {
		name    string
		cmd     config.Command
		args    []string
		ref     *results.Results
		n       int
		budget  time.Duration
		samples int
	}{
		{"update, 8 benchmarks", config.Update, nil, nil, 8, 10 * time.Second, config.DefaultSamples},
		{"update, the suite", config.Update, nil, nil, 84, 84 * time.Second, config.DefaultSamples},
		{"update, 500 benchmarks", config.Update, nil, nil, 500, 4 * time.Minute, config.DefaultSamples},
		{"update, a budget given", config.Update, []string{"--budget", "2s"}, nil, 84, 2 * time.Second, config.DefaultSamples},
		{"check, the reference's", config.Check, nil, ref, 8, 37 * time.Second, 12},
		{"check, a budget given", config.Check, []string{"--budget", "5s"}, ref, 8, 5 * time.Second, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Parse(tt.cmd, tt.args)
			if err == nil {
				err = c.Validate(tt.cmd)
			}
			if err != nil {
				t.Fatal(err)
			}
			p := clockPlan(c, source.Plan{}, tt.ref, tt.n)
			if p.Budget != tt.budget || p.Samples != tt.samples || p.Count != nil {
				t.Errorf("budget %s, %d samples, counted %v; want %s, %d, timed", p.Budget, p.Samples, p.Count != nil, tt.budget, tt.samples)
			}
		})
	}
}
