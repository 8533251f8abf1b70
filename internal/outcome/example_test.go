package outcome_test

import (
	"fmt"

	"github.com/wirebench/wirebench/internal/outcome"
)

// An update that stored the baseline still fails the job when it was
// asked to fail on a creep it is the first to see.
func ExampleOutcome_Failed() {
	for _, o := range []*outcome.Outcome{
		{Verdict: outcome.Pass},
		{Verdict: outcome.Fail},
		{Verdict: outcome.Updated},
		{Verdict: outcome.Updated, FailsOnCreep: true},
	} {
		regressions, _ := o.Counts()
		fmt.Println(o.Verdict, o.Failed(), regressions)
	}
	// Output:
	// pass false 0
	// fail true 0
	// updated false 0
	// updated true 0
}
