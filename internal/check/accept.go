package check

import (
	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/outcome"
)

// Accept marks every regression of o that set accepts (accept.Set.Match
// on its name) as accepted: reported with who accepted it and why, not
// failing the run. Everything else is judged as before, so a regression
// the pull request did not name still fails it, and a check that could
// not measure (o.Broken) cannot be accepted at all. It returns how many
// regressions it accepted.
func Accept(o *outcome.Outcome, set accept.Set) int {
	r := o.Report.Result
	if r == nil || len(set) == 0 || o.Broken != "" {
		return 0
	}
	n := 0
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		if c.Verdict != compare.Regression || c.Accepted != nil {
			continue
		}
		if a, ok := set.Match(c.Name); ok {
			c.Accepted = &a
			n++
		}
	}
	if n > 0 {
		confirmed := o.Confirmed
		*o = *judged(o.Report)
		o.Confirmed = confirmed
	}
	return n
}
