package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
)

// Command names a wirebench command. Each setting says which commands
// take it.
type Command string

// The commands. Action is wirebench under GitHub Actions: its flags are
// the action's inputs (action.yml).
const (
	Run     Command = "run"
	Compare Command = "compare"
	Check   Command = "check"
	Update  Command = "update"
	Merge   Command = "merge"
	AB      Command = "ab"
	Worker  Command = "worker"
	Action  Command = "action"
	// Comment is mode comment from a workflow step's shell.
	Comment Command = "comment"
)

// Commands lists the commands people run, in the order help shows them.
var Commands = []Command{Run, Compare, Check, Update, Merge, AB, Comment}

// Default output locations, relative to the working directory.
const (
	OutDir     = "wirebench-results"
	ReportFile = OutDir + "/report.md"
	ResultFile = OutDir + "/results.json"
)

// Defaults that depend on how timings are compared: against a stored
// baseline (measured at another time, maybe on another machine) or
// same-runner A/B (both builds here, now, pair by pair).
const (
	StoredBudget    = 60 * time.Second
	StoredThreshold = 0.05
	ABBudget        = 4 * time.Minute
	ABThreshold     = 0.01
)

// DefaultSamples is the samples per benchmark when neither the user nor
// the baseline says.
const DefaultSamples = 15

// The metrics of the metric setting: wall time, or work counted under
// Valgrind (internal/callgrind), or auto.
const (
	MetricTime         = "time"
	MetricInstructions = "instructions"
	MetricCycles       = "cycles"
	MetricAuto         = "auto"
)

// Metrics lists the metric setting's values.
var Metrics = []string{MetricTime, MetricInstructions, MetricCycles, MetricAuto}

// CountedThreshold is the default effect floor of a counted metric, in
// both ways of comparing: counts move between processes by tenths of a
// percent, so 1% is a change the measurement can see, and smaller ones
// rarely matter.
const CountedThreshold = 0.01

// ClockThreshold is the default effect floor of the wall-time check made
// beside a count (metric auto): wide, because the two builds' code layout
// alone moves a benchmark's time by up to about 10% (docs/ab-mode.md,
// "Code layout") while its count stays put, and what the clock is there
// for, work counting cannot see, is large (docs/design/counted.md, "Both
// instruments: why the wall-time floor is wide").
const ClockThreshold = 0.15

// Config is every setting of every command. Budget 0, Samples 0 and
// Threshold < 0 mean "the default of the comparison made" (see
// MeasureBudget, MeasureSamples and CompareOptions): the action decides
// between a stored baseline and A/B only once it sees the event, and a
// check against a stored baseline measures with the baseline's budget and
// samples unless they are given.
type Config struct {
	// Measuring.
	Budget  time.Duration
	Samples int
	Filter  string
	Seed    uint64
	Shard   string
	// Metric is what measures and gates speed (see Metrics); Processes
	// the counted processes per build (0: the default or the baseline's).
	Metric    string
	Processes int
	// A module's own benchmarks: the go test -bench pattern (empty: the
	// embedded suite), package patterns and build flags, each list
	// separated by spaces.
	Bench, Packages, BuildFlags string

	// Output. Verbose also writes the workers' own output and the
	// chatter of every round and generation on stderr.
	Out, Format, Plots, Report string
	Verbose                    bool

	// Comparing. TimeThreshold is the wall-time check's floor beside a
	// count (metric auto).
	Threshold, SizeThreshold, AllocThreshold, Alpha float64
	TimeThreshold                                   float64
	Correction                                      string
	Normalize                                       string
	FailOn                                          string

	// The baseline.
	BaselinePath, BaselineBranch string
	History                      int
	// FailOnChangePoint fails an update on an unexplained new change
	// point of the history.
	FailOnChangePoint bool
	// CreepLimit is the change beyond which a count's creep is reported
	// (0: none is looked for), CreepSince the run it is measured from
	// (see CreepRuns), FailOnCreep whether a new upward one fails the
	// update.
	CreepLimit  float64
	CreepSince  string
	FailOnCreep bool

	// ArtifactPath is, in mode comment, the directory of the downloaded
	// relay of a fork's pull request run.
	ArtifactPath string

	// Merging the shards of a matrix.
	MergePath    string
	MergePartial bool

	// Same-runner A/B.
	BasePath, HeadPath   string
	ConfirmBudget, Block time.Duration
	Generations          int
	AA                   bool
	Pin                  bool
	// MeasureAll measures packages whose hash (gotest.Hash) is the same
	// on both sides, instead of reporting them identical.
	MeasureAll bool

	// The action.
	Mode, Token, Comment, BenchmarkFile string
	// CommentAuthor is the login the sticky comment is written as ("":
	// learned from the token).
	CommentAuthor string
	// AcceptLabel is the label that accepts every flagged change of a
	// pull request ("": none); AcceptText whether Wirebench-Accept lines
	// of its description and commits accept the benchmarks they name.
	AcceptLabel string
	AcceptText  bool

	// Args are the command's arguments after the flags.
	Args []string

	// given are the flags (or action inputs) set, by name.
	given map[string]bool
}

// Given reports whether the flag name (or the action's input of that
// name) was set, rather than left to its default.
func (c *Config) Given(name string) bool { return c.given[name] }

// noteGiven records the flags fs has set.
func (c *Config) noteGiven(fs *flag.FlagSet) {
	if c.given == nil {
		c.given = map[string]bool{}
	}
	fs.Visit(func(f *flag.Flag) { c.given[f.Name] = true })
}

// FlagSet returns the flags of cmd, bound to c, with their defaults set on
// c: the one definition of every setting. Errors and usage are left to the
// caller (the FlagSet writes nothing).
func (c *Config) FlagSet(cmd Command) *flag.FlagSet { return c.flagSet(cmd, nil) }

// flagSet is FlagSet; failed, when not nil, is told of every value a flag
// refused.
func (c *Config) flagSet(cmd Command, failed func(name, value string, err error)) *flag.FlagSet {
	fs := flag.NewFlagSet(string(cmd), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	for _, s := range settings {
		if !s.takes(cmd) {
			continue
		}
		v := s.value(c)
		if pc, ok := v.(interface{ forCommand(Command) flag.Value }); ok {
			v = pc.forCommand(cmd) // a value that depends on the command
		}
		if err := v.Set(s.defaultFor(cmd)); err != nil && s.defaultFor(cmd) != "" {
			panic(fmt.Sprintf("config: default %q of %s: %v", s.defaultFor(cmd), s.name, err))
		}
		fs.Var(named{v, s.name, failed}, s.name, s.help)
		for _, a := range s.aliases {
			fs.Var(named{v, a, failed}, a, "the same as -"+s.name)
		}
	}
	return fs
}

// ErrHelp is returned by Parse when the arguments ask for help.
var ErrHelp = flag.ErrHelp

// Parse reads cmd's flags and arguments, in any order (`compare OLD NEW
// --threshold 3%` as `compare --threshold 3% OLD NEW`); after "--" every
// argument is one. A bad value is one error naming the flag, its value
// and what would be valid; -h and --help give ErrHelp.
func Parse(cmd Command, args []string) (*Config, error) {
	c := &Config{}
	var bad error
	fs := c.flagSet(cmd, func(name, value string, err error) {
		bad = fmt.Errorf("--%s %q is not valid: %w", name, value, err)
	})
	for {
		if err := fs.Parse(args); err != nil {
			switch {
			case errors.Is(err, flag.ErrHelp):
				return nil, ErrHelp
			case bad != nil:
				err = bad
			}
			return nil, fmt.Errorf("%w (see `%s %s -h`)", err, Program, cmd)
		}
		c.noteGiven(fs)
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			c.Args = append(c.Args, rest...) // the terminator: no flags after it
			break
		}
		if len(rest) == 0 {
			break
		}
		c.Args, args = append(c.Args, rest[0]), rest[1:]
	}
	return c, nil
}

// FromInputs reads the action's inputs: every non-empty INPUT_NAME (as the
// runner writes it: upper case, hyphens kept) is set on the flag -name of
// the action. Every bad input is named with its value and what would be
// valid; all of them are reported, joined.
func FromInputs(getenv func(string) string) (*Config, error) {
	c := &Config{}
	fs := c.FlagSet(Action)
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		if isAlias(f.Name) {
			return
		}
		v := strings.TrimSpace(getenv(InputVar(f.Name)))
		if v == "" {
			return
		}
		if err := fs.Set(f.Name, v); err != nil {
			errs = append(errs, fmt.Errorf("input %s: %q is not valid: %w", f.Name, v, err))
		}
	})
	c.noteGiven(fs)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// named is a setting's value under one of its names: it tells the
// caller which flag refused which value, since the flag package keeps
// only the text of that error.
type named struct {
	flag.Value
	name   string
	failed func(name, value string, err error)
}

func (n named) Set(s string) error {
	err := n.Value.Set(s)
	if err != nil && n.failed != nil {
		n.failed(n.name, s, err)
	}
	return err
}

// IsBoolFlag lets boolean settings be given as a bare -name.
func (n named) IsBoolFlag() bool {
	b, ok := n.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// InputVar is the environment variable the runner passes an action input
// in.
func InputVar(name string) string { return "INPUT_" + strings.ToUpper(name) }

func isAlias(name string) bool {
	for _, s := range settings {
		if slices.Contains(s.aliases, name) {
			return true
		}
	}
	return false
}

// MeasureBudget is the measuring time: the given budget, or the default
// of the comparison made (longer in A/B, which measures two builds).
func (c *Config) MeasureBudget(ab bool) time.Duration {
	switch {
	case c.Budget > 0:
		return c.Budget
	case ab:
		return ABBudget
	}
	return StoredBudget
}

// MeasureSamples is the samples per benchmark: the given count, or the
// default.
func (c *Config) MeasureSamples() int {
	if c.Samples > 0 {
		return c.Samples
	}
	return DefaultSamples
}

// CompareOptions are the comparison's thresholds and levels. The
// threshold defaults to the effect floor of the A/B mode, or the stored
// baseline's threshold.
func (c *Config) CompareOptions(ab bool) compare.Options {
	o := compare.Defaults()
	switch {
	case c.Threshold >= 0:
		o.Threshold = c.Threshold
	case ab:
		o.Threshold = ABThreshold
	default:
		o.Threshold = StoredThreshold
	}
	o.SizeThreshold, o.AllocThreshold = c.SizeThreshold, c.AllocThreshold
	if c.Alpha > 0 {
		o.Alpha = c.Alpha
	}
	if c.Correction != "" {
		o.Correction = compare.Correction(c.Correction)
	}
	if c.Normalize != "" {
		o.Normalize = compare.Normalize(c.Normalize)
	}
	if ab {
		o.Normalize = compare.NormalizeNever
	}
	return o
}

// CreepRelease is the creep-since value that measures creep from the
// last release's run.
const CreepRelease = "release"

// CreepRuns is how many runs back the creep-since setting puts the
// reference run, and whether it names the last release instead.
func (c *Config) CreepRuns() (runs int, release bool) {
	if c.CreepSince == CreepRelease {
		return 0, true
	}
	n, _ := strconv.Atoi(c.CreepSince)
	return n, false
}

// HistoryFloor is the effect floor of a count's step in the history:
// the threshold given, or the counted comparisons'. A threshold of 0
// (any change) is the smallest positive floor, since the history's
// options read 0 as their default.
func (c *Config) HistoryFloor() float64 {
	switch {
	case c.Threshold == 0:
		return math.SmallestNonzeroFloat64
	case c.Threshold > 0:
		return c.Threshold
	}
	return CountedThreshold
}

// PackageList and BuildFlagList are the packages and build-flags
// settings as lists.
func (c *Config) PackageList() []string   { return strings.Fields(c.Packages) }
func (c *Config) BuildFlagList() []string { return strings.Fields(c.BuildFlags) }

// FailCondition is the fail-on setting.
func (c *Config) FailCondition() compare.FailOn {
	if c.FailOn == "" {
		return compare.FailOnRegression
	}
	return compare.FailOn(c.FailOn)
}
