package cli

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

	"github.com/wirebench/wirebench/internal/check"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/logsafe"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/sandbox"
	"github.com/wirebench/wirebench/internal/source"
)

// Exit statuses, as documented in the README: 1 when the gate fails (a
// regression, or benchmarks that do not build or run: the code's
// failure), 2 on bad input or an error of wirebench's own.
const (
	exitOK       = 0
	exitFail     = 1
	exitBadInput = 2
)

// Entry is what a binary does when it is given no command.
type Entry int

const (
	// Wirebench is the command-line tool's entry (cmd/wirebench): under
	// GitHub Actions (GITHUB_ACTIONS=true) the action, elsewhere the main
	// job on the embedded suite.
	Wirebench Entry = iota
	// Action is the action image's entry (cmd/action): the action, which
	// reads its inputs from INPUT_* variables.
	Action
)

// Main is a binary's main: it runs the command os.Args names (with none,
// what entry says) and exits with its status. Every binary serves every
// command: the action's image runs its own binary as the embedded suite's
// worker, as the sandbox's first step, and again to measure in a new
// process.
func Main(entry Entry) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.Command {
		// The step before code of a pull request runs: it must not
		// change the environment that code gets.
		if err := cmdSandbox(os.Args[2:]); err != nil {
			fmt.Fprintf(os.Stderr, "wirebench: %v\n", err)
		}
		os.Exit(exitBadInput)
	}
	reexecWithGODEBUG()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	args := os.Args[1:]
	if entry == Action && len(args) == 0 {
		args = []string{string(config.Action)}
	}
	code := Run(ctx, args, os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// env is what a command needs from the process: streams and environment.
// fresh, when set, measures in place of a new process of this binary
// (measureFresh): tests set it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	fresh          func(context.Context, source.Plan) (*results.Results, error)
}

// commands are the commands by name.
var commands = map[config.Command]func(context.Context, *env, []string) error{
	config.Run:     cmdRun,
	config.Compare: cmdCompare,
	config.Check:   cmdCheck,
	config.Update:  cmdUpdate,
	config.Merge:   cmdMerge,
	config.AB:      cmdAB,
	config.Worker:  cmdWorker,
	config.Action:  cmdActionArgs,
	config.Comment: cmdComment,
}

// Run runs wirebench with args and returns the exit status. It never
// calls os.Exit, so tests can drive it.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return dispatch(ctx, &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}, args)
}

// dispatch runs the command args name (the main job with none) in e and
// returns the exit status.
func dispatch(ctx context.Context, e *env, args []string) int {
	name := ""
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if lw := logSafeStderr(name, e.stderr, e.getenv); lw != nil {
		defer lw.Flush()
		e.stderr = lw
	}
	var err error
	switch name {
	case "help", "-h", "-help", "--help":
		return help(e, args)
	case "":
		switch {
		case e.getenv("GITHUB_ACTIONS") == "true":
			err = cmdAction(ctx, e)
		default:
			err = cmdDefault(ctx, e)
		}
	default:
		run, ok := commands[config.Command(name)]
		if !ok {
			err = badInputf("unknown command %q: want %s (see `%s help`)", name, commandList(), config.Program)
			break
		}
		err = run(ctx, e, args)
	}
	return exitCode(e, err)
}

// logSafeStderr returns stderr neutralised by logsafe when it is the job
// log of a GitHub Actions step, or nil. Progress lines, workers' stderr
// and errors written there may quote a pull request (benchmark names, a
// head build's output); wirebench never writes a workflow command to
// stderr. A worker's stderr is left as it is: the orchestrator reading it
// neutralises it.
func logSafeStderr(cmd string, stderr io.Writer, getenv func(string) string) *logsafe.Writer {
	if getenv("GITHUB_ACTIONS") != "true" || cmd == string(config.Worker) {
		return nil
	}
	return logsafe.NewWriter(stderr, "")
}

// commandList names the commands people run.
func commandList() string {
	s := ""
	for i, c := range config.Commands {
		switch {
		case i == 0:
		case i == len(config.Commands)-1:
			s += " or "
		default:
			s += ", "
		}
		s += string(c)
	}
	return s
}

// help is `wirebench help [COMMAND]`: the overview, or what COMMAND -h
// prints.
func help(e *env, args []string) int {
	switch {
	case len(args) == 0:
		config.Help(e.stdout)
		return exitOK
	case len(args) == 1 && commands[config.Command(args[0])] != nil:
		config.Usage(e.stdout, config.Command(args[0]))
		return exitOK
	}
	return exitCode(e, badInputf("help takes one command of %s, got %q", commandList(), args))
}

// cmdActionArgs is `wirebench action`: the action run by hand. It reads the
// inputs from INPUT_* variables, so it takes no flags but -h.
func cmdActionArgs(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		if _, err := parse(e, config.Action, args); err != nil {
			return err
		}
		return badInputf("action takes no arguments: it reads its inputs from INPUT_* variables (INPUT_BUDGET=2m for budget: 2m)")
	}
	return cmdAction(ctx, e)
}

// errGate is returned when the comparison meets the --fail-on condition.
var errGate = errors.New("gate failed")

// errHelp is returned when a command printed its usage on request.
var errHelp = errors.New("help requested")

// badInput marks errors caused by the user's input (flags, files): the
// check's own mark (check.BadInput), so that one exit status serves both.
type badInput = check.BadInput

func badInputf(format string, args ...any) error { return badInput{Err: fmt.Errorf(format, args...)} }

func exitCode(e *env, err error) int {
	var code *source.CodeError
	var bad badInput
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.Is(err, errGate):
		return exitFail
	case !errors.As(err, &bad) && errors.As(err, &code):
		// The code measured failed (run, update): the gate's failure,
		// not wirebench's.
		fmt.Fprintf(e.stderr, "wirebench: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(e.stderr, "wirebench: %v\n", err)
	return exitBadInput
}

// parse reads cmd's flags into a config and validates it: -h prints the
// usage on stdout (errHelp, exit 0); a bad flag is one error.
func parse(e *env, cmd config.Command, args []string) (*config.Config, error) {
	c, err := config.Parse(cmd, args)
	if errors.Is(err, config.ErrHelp) {
		config.Usage(e.stdout, cmd)
		return nil, errHelp
	}
	if err != nil {
		return nil, badInput{Err: err}
	}
	if err := c.Validate(cmd); err != nil {
		return nil, badInput{Err: err}
	}
	return c, nil
}

// gate turns a failed outcome into errGate.
func gate(failed bool) error {
	if failed {
		return errGate
	}
	return nil
}
