package report

import (
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
)

// The comparison method (same-runner A/B or stored baseline), the A/A check
// and unconfirmed regressions, shared by the Markdown and text reports.

// paired reports whether timings were compared as same-runner A/B pairs.
func paired(r *compare.Result) bool { return r.Method == compare.MethodPaired }

// methodSentence says which comparison was made and why, or "" for a
// stored-baseline comparison with no reason given (the default); in the
// style st.
func methodSentence(r *compare.Result, st style) string {
	why := strings.TrimSpace(r.Why)
	switch {
	case paired(r):
		s := "Comparison: same-runner A/B (the base and this build measured on this machine, alternating in short blocks, compared pair by pair)."
		if why != "" {
			s += " Why: " + st.text(why) + "."
		}
		return s
	case r.Method == compare.MethodCounted && r.Clock != nil:
		s := "Comparison: same-runner A/B, counted and timed (the base and this build counted on this machine, each in processes of its own, process set against process set; then both timed natively, alternating in short blocks, compared pair by pair, for the wall-time check)."
		if why != "" {
			s += " Why: " + st.text(why) + "."
		}
		return s
	case r.Method == compare.MethodCounted:
		s := "Comparison: same-runner A/B, counted (the base and this build counted on this machine, each in processes of its own, process set against process set; no A/A check, since a count does not move with the machine's load and the processes measure its spread)."
		if why != "" {
			s += " Why: " + st.text(why) + "."
		}
		return s
	case why != "":
		return "Comparison: stored baseline (samples measured at another time, maybe on another machine). Why: " + st.text(why) + "."
	}
	return ""
}

// aaSentence describes the A/A check of a paired run in the style st, or
// "".
func aaSentence(r *compare.Result, st style) string {
	a := r.AA
	if a == nil {
		if paired(r) {
			return "A/A check: not run (disabled), so nothing guards the timings against a noisy machine."
		}
		return ""
	}
	if !a.Noisy {
		return fmt.Sprintf("A/A check: the base build against a second base worker, measured the same way on %s: none came out changed, so timing regressions may fail the run (one flagged there would have kept them from it).",
			human.Plural(a.Benchmarks, "benchmark", "benchmarks"))
	}
	names := make([]string, len(a.Flagged))
	for i, n := range a.Flagged {
		names[i] = st.name(n)
	}
	s := fmt.Sprintf("A/A check: the base build against a second base worker flagged %s of %d (%s), also on re-measurement: the machine was too noisy to trust the timings, so timing regressions are reported but do not fail the run. Exact metrics still gate.",
		human.Plural(len(a.Flagged), "benchmark", "benchmarks"), a.Benchmarks, strings.Join(names, ", "))
	return st.warning(s)
}

// enforced reports whether a regression counts towards failing the run.
func enforced(r *compare.Result, c compare.Comparison) bool {
	return c.Verdict == compare.Regression && !c.Unconfirmed && r.Enforced(c)
}

// comparisonLabel is verdictLabel with why a regression is not enforced.
func comparisonLabel(r *compare.Result, c compare.Comparison) string {
	l := verdictLabel(c.Verdict)
	if c.Verdict != compare.Regression {
		return l
	}
	switch {
	case c.Accepted != nil:
		return l + " (accepted)"
	case c.Unconfirmed:
		return l + " (not reproduced: not enforced)"
	case c.NotEnforced != "":
		return l + " (not enforced)"
	case !enforced(r, c):
		return l + " (A/A check noisy: not enforced)"
	}
	return l
}

// notFailingReason says why regressions do not fail the run.
func notFailingReason(r *compare.Result, failOn compare.FailOn) string {
	if failOn != compare.FailOnRegression {
		return "fail-on " + escapeInline(string(failOn))
	}
	accepted, unconfirmed, reported, noisy := 0, 0, 0, 0
	for _, c := range r.Comparisons {
		switch {
		case c.Verdict != compare.Regression:
		case c.Accepted != nil:
			accepted++
		case c.Unconfirmed:
			unconfirmed++
		case c.NotEnforced != "":
			reported++
		case !enforced(r, c):
			noisy++
		}
	}
	var why []string
	if accepted > 0 {
		why = append(why, pick(accepted == 1, "accepted by the pull request", fmt.Sprintf("%d accepted by the pull request", accepted)))
	}
	if unconfirmed > 0 {
		why = append(why, pick(unconfirmed == 1, "it did not reproduce on re-measurement", fmt.Sprintf("%d did not reproduce on re-measurement", unconfirmed)))
	}
	if reported > 0 {
		why = append(why, "timings are reported only ("+notEnforcedShort(r)+")")
	}
	if noisy > 0 {
		why = append(why, "the A/A check found the machine too noisy for timings")
	}
	return strings.Join(why, "; ")
}
