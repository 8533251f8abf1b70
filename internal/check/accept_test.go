package check

import (
	"errors"
	"testing"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/outcome"
)

// TestAccept: a grown message fails; accepted by the label or by a line
// naming it, it passes, reported as accepted; a line naming another
// benchmark changes nothing; a check that could not measure cannot be
// accepted.
func TestAccept(t *testing.T) {
	label := accept.Acceptance{Source: "label wirebench:accept", By: "maintainer", PR: 42}
	line := accept.Acceptance{Source: "the pull request's description", Pattern: "codec=raw/dataset=small$", Reason: "new field", By: "octo"}
	other := accept.Acceptance{Source: "the pull request's description", Pattern: "codec=json"}
	tests := []struct {
		name     string
		set      accept.Set
		accepted int
		verdict  outcome.Verdict
	}{
		{"nothing accepted", nil, 0, outcome.Fail},
		{"the label", accept.Set{label}, 1, outcome.Pass},
		{"a line naming it", accept.Set{line}, 1, outcome.Pass},
		{"a line naming another benchmark", accept.Set{other}, 0, outcome.Fail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Against(baseline.New(runOf(100, 26), ""), runOf(100, 32), compare.Defaults(), outcome.Report{})
			if err != nil {
				t.Fatal(err)
			}
			if o.Verdict != outcome.Fail {
				t.Fatalf("the grown message did not fail before acceptance: %s", o.Verdict)
			}
			if n := Accept(o, tt.set); n != tt.accepted || o.Verdict != tt.verdict {
				t.Errorf("accepted %d, verdict %s; want %d, %s", n, o.Verdict, tt.accepted, tt.verdict)
			}
			for _, c := range o.Report.Result.Comparisons {
				if c.Verdict == compare.Regression && (c.Accepted != nil) != (tt.accepted > 0) {
					t.Errorf("%s %s accepted = %+v", c.Name, c.Unit, c.Accepted)
				}
			}
			if regs, _ := o.Counts(); regs != 1 {
				t.Errorf("%d regressions counted, want 1: accepted is still a regression, reported", regs)
			}
		})
	}
	broken := Broken(outcome.Report{}, "the head did not build", errors.New("exit 1"))
	if n := Accept(broken, accept.Set{label}); n != 0 || broken.Verdict != outcome.Fail {
		t.Errorf("a broken check: accepted %d, verdict %s; want 0, fail", n, broken.Verdict)
	}
}
