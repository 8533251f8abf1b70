package cli

import "github.com/wirebench/wirebench/internal/sandbox"

// cmdSandbox is `wirebench sandbox --uid U --gid G -- PROGRAM ARGS...`: the
// step between wirebench and code from a pull request (a go build of it,
// its worker). It drops to the unprivileged user and executes PROGRAM;
// it is started by wirebench, not by people (see internal/sandbox).
func cmdSandbox(args []string) error {
	uid, gid, argv, err := sandbox.Parse(args)
	if err != nil {
		return badInput{Err: err}
	}
	return sandbox.Exec(uid, gid, argv)
}

// newSandbox prepares the sandbox for code of a pull request.
func newSandbox() (*sandbox.Sandbox, error) { return sandbox.Default() }
