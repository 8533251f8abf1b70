// Package program is one build of benchmarks and its worker processes:
// the Program a source tree is built into (the embedded suite's command, or a
// test binary per package of a module), and that program started as one
// Worker, which sends each benchmark's requests to the process that
// serves it.
//
// The same-runner A/B comparison (internal/ab) starts two builds, the
// base's and the head's, side by side; counting (internal/count) starts
// one build's program in fresh processes under callgrind. Errors carry
// the build they come from (Side): a base that cannot be built or run is
// not the pull request's doing, a head that cannot is.
package program
