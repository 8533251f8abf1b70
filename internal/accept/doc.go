// Package accept reads what a pull request accepts: intended changes that
// the gate reports but does not fail on. A label (DefaultLabel, the
// accept-label setting) accepts every flagged change of the pull request;
// a line
//
//	Wirebench-Accept: <benchmark pattern> [reason]
//
// in the pull request's description, or as a trailer of one of its
// commits, accepts the benchmarks the pattern matches (a Go regular
// expression, the syntax of the bench and filter settings, searched for in
// the benchmark's name and in its key with the package).
//
// Only the pull request's own text and labels count: its description and
// commit messages (which its author writes) and its labels (which only
// accounts with triage access can set, so they are how a maintainer
// accepts a change of a fork's pull request). Files in the tree, comments
// and review text never accept anything. Everything read here is the pull
// request's text: Reason and Pattern must be escaped wherever they are
// shown.
package accept
