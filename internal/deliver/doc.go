// Package deliver writes a run's outcome (internal/check) where people
// and later steps find it: the results and report files and the terminal
// (Local), and under GitHub Actions also the job summary, the sticky
// pull-request comment, the step's outputs and annotations (GitHub). It
// is the last step of the flow and the only one that writes outside the
// working files.
package deliver
