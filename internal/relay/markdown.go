package relay

import (
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"regexp"

	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/report"
)

// conclusionPattern is what a run's conclusion looks like (success,
// failure, cancelled, timed_out, …).
var conclusionPattern = regexp.MustCompile(`^[a-z_]{1,30}$`)

// Markdown renders the comment of the relay of run: the report of the
// comparison it carries, rendered and escaped here from the numbers, with
// a note of where they came from and the run's own conclusion, which is
// GitHub's word and the check's pass or fail. Paths of callgrind dumps
// are left out: they are of the other run's files.
func (r *Relay) Markdown(run *event.WorkflowRun) string {
	conclusion := run.Conclusion
	if !conclusionPattern.MatchString(conclusion) {
		conclusion = "unknown"
	}
	note := fmt.Sprintf("Posted by the base repository's workflow from the results that the pull request's run %d uploaded; "+
		"that run concluded %s, and its check is the pass or fail. The numbers were written where the pull request's code ran.", run.ID, conclusion)
	if r.Broken != nil {
		return report.BrokenMarkdown(r.Title, r.Broken.What, errors.New(r.Broken.Error), []string{note})
	}
	res := *r.Result
	res.Comparisons = append(res.Comparisons[:0:0], res.Comparisons...)
	for i, c := range res.Comparisons {
		if c.Where != nil {
			w := *c.Where
			w.Dumps, w.Open = "", ""
			res.Comparisons[i].Where = &w
		}
	}
	return report.Markdown(outcome.Report{Result: &res, Title: r.Title, FailOn: r.FailOn, Notes: []string{note}, Details: run.URL}, report.Options{})
}
