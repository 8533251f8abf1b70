// Command action is wirebench: a serialization benchmark suite that
// guards pull requests against regressions in encoded size, allocations and
// speed. Under GitHub Actions it is the action's entry point; elsewhere it
// is an ordinary command-line tool.
//
// Usage:
//
//	action                      check against baseline/ if present, else run
//	action run [flags]          measure the suite and print a table
//	action compare [flags] OLD NEW
//	action check [flags]        measure, compare with the baseline, report
//	action update [flags]       measure and store the new baseline
//
// Run `action help` or `action COMMAND -h` for the flags.
package main

import (
	"context"

	// TLS roots for the API when the image has no system certificates
	// (the container is FROM scratch).
	_ "golang.org/x/crypto/x509roots/fallback"

	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses, as documented in the README: 1 when the gate fails
// (a regression), 2 on bad input or a failure to run.
const (
	exitOK       = 0
	exitFail     = 1
	exitBadInput = 2
)

func main() {
	reexecWithGODEBUG()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// env is what a command needs from the process: streams and environment.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// Main runs wirebench with args and returns the exit status. It never
// calls os.Exit, so tests can drive it.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "run":
		err = cmdRun(ctx, e, args)
	case "compare":
		err = cmdCompare(ctx, e, args)
	case "check":
		err = cmdCheck(ctx, e, args)
	case "update":
		err = cmdUpdate(ctx, e, args)
	case "worker":
		err = cmdWorker(ctx, e, args)
	case "ab":
		err = cmdAB(ctx, e, args)
	case "merge":
		err = cmdMerge(ctx, e, args)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "":
		if getenv("GITHUB_ACTIONS") == "true" {
			err = cmdAction(ctx, e)
		} else {
			err = cmdDefault(ctx, e)
		}
	default:
		err = badInputf("unknown command %q: want run, compare, check or update (see `action help`)", cmd)
	}
	return exitCode(e, err)
}

const usage = `wirebench: serialization benchmarks that gate pull requests.

Commands:
  run       measure the suite and print a table (or --format bench|json)
  compare   compare two results files (JSON or Go benchmark text)
  check     measure, compare with the stored baseline, report, pass or fail
  update    measure and store the new baseline
  merge     merge the results of a job matrix's shards (run --shard I/N)

With no command, wirebench checks against baseline/ when it exists and
otherwise runs the suite. "action COMMAND -h" lists a command's flags.

Exit status: 0 ok, 1 a regression failed the gate, 2 bad input or error.
`

// errGate is returned when the comparison meets the --fail-on condition.
var errGate = errors.New("gate failed")

// badInput marks errors caused by the user's input (flags, files), which
// exit with status 2.
type badInput struct{ err error }

func (b badInput) Error() string { return b.err.Error() }
func (b badInput) Unwrap() error { return b.err }

func badInputf(format string, args ...any) error { return badInput{fmt.Errorf(format, args...)} }

func exitCode(e *env, err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errGate):
		return exitFail
	}
	fmt.Fprintf(e.stderr, "wirebench: %v\n", err)
	return exitBadInput
}
