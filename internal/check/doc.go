// Package check is how a run becomes a verdict: wirebench's one path
// from a candidate to an outcome.Outcome that a delivery (internal/deliver)
// writes out.
//
// It owns every use case that judges: the check against a stored
// baseline (Stored, the command line's check and the action's on a pull
// request), the same-runner A/B comparison (AB: both builds timed
// against each other by internal/ab's engine, or counted under callgrind
// by countPair), the comparison of two files and the update that
// refreshes the baseline (Against, Update), and the runs that only
// measure (Run). With them it decides what they share, once: the
// instrument a run measures with (Instrument: a count, or the clock);
// the rule that confirms a change in fresh processes before it fails the
// run or is claimed (confirmable, settle); the wall-time check beside a
// count with both of its budget policies (clock.go); what a pull request
// accepts (Accept); the callgrind dumps kept of the counted changes.
//
// What it needs of the program that runs it (where progress goes, the
// environment, a new process to measure in) it asks through Host; the
// command line (internal/cli) keeps the flags, the events, the exit
// statuses and reading acceptances from GitHub.
package check
