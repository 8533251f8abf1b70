// Package logsafe keeps text that a pull request controls from acting on
// the GitHub Actions runner when wirebench prints it to the job log.
//
// The runner reads every line of a step's output, stdout and stderr
// alike, for workflow commands: a line that starts, after leading white
// space, with "::" (::error::, ::add-mask::, ::stop-commands::, ...), and,
// in the older syntax, "##[" anywhere in a line (##[error]...). It splits
// lines at a carriage return as well as at a line feed. A benchmark name,
// a worker's stderr or an error message printed as it is could raise
// annotations, mask text, or stop command processing for the rest of the
// step and so silence wirebench's own annotations.
//
// A Writer neutralises both forms as text passes through it: a line whose
// first character after white space is ':' gets the visible Guard in
// front, and "##[" gets a zero-width space after its hashes. Everything
// else, including line breaks, passes unchanged. wirebench's own workflow
// commands are written past it (go-githubactions escapes their data).
package logsafe
