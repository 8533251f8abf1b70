// Package pipeline is wirebench's one path from a candidate to a verdict:
// compare the candidate's results with the stored baseline (or take the
// same-runner A/B engine's comparison), decide the verdict, and describe it
// all as an Outcome that a delivery (internal/deliver) writes out: files,
// the terminal, and under GitHub Actions the job summary, the sticky
// comment and the step's outputs.
//
// Every command (run, check, update, compare, merge, ab) and the action go
// through it, so a comparison is made, judged and reported one way.
package pipeline
