package config

import (
	"flag"
	"fmt"
	"slices"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
)

// setting is one setting: its flag (and action input) name, the commands
// that take it, its default, its help and where its value lives.
type setting struct {
	name string
	// aliases are older flag names still accepted.
	aliases []string
	cmds    []Command
	// def is the default; defFor overrides it for some commands.
	def    string
	defFor map[Command]string
	// help says what it is; helpFor overrides it for some commands, so
	// that each command's usage says what it does there.
	help    string
	helpFor map[Command]string
	value   func(c *Config) flag.Value
}

func (s setting) takes(cmd Command) bool { return slices.Contains(s.cmds, cmd) }

func (s setting) helpOf(cmd Command) string {
	if h, ok := s.helpFor[cmd]; ok {
		return h
	}
	return s.help
}

func (s setting) defaultFor(cmd Command) string {
	if d, ok := s.defFor[cmd]; ok {
		return d
	}
	return s.def
}

// Formats of the format setting, by command: run writes results, compare
// and ab write comparisons.
var (
	resultFormats     = []string{"text", "table", "bench", "json"}
	comparisonFormats = []string{"text", "markdown", "json"}
)

// formatHelp is the format setting's help for a command that writes
// formats: each of them, said once.
func formatHelp(formats []string) string {
	what := map[string]string{
		"text":     "text (a table of the run)",
		"table":    "table (the same)",
		"bench":    "bench (the Go benchmark format, one line a sample, for benchstat and compare)",
		"json":     "json (the results)",
		"markdown": "markdown (the report)",
	}
	if slices.Equal(formats, comparisonFormats) {
		what["text"] = "text (the comparison, like benchstat)"
		what["json"] = "json (the comparison, see internal/report/json.md)"
	}
	var parts []string
	for _, f := range formats {
		parts = append(parts, what[f])
	}
	return "output on stdout: " + orList(parts)
}

// settings is the one definition of every setting of every command.
var settings = []setting{
	// Measuring.
	{name: "budget", cmds: []Command{Run, Check, Update, AB, Action},
		def: "60s", defFor: map[Command]string{AB: "4m", Action: "", Check: ""},
		help: "time the measurement should take, warm-up included; empty: against a stored baseline the baseline's own (timings of another budget are reported, not enforced), else 60s; 4m in the same-runner A/B mode (whose builds and confirmation come on top). Counted with metric auto it is the wall-time check's beside the count; with an explicit counted metric the count's, cut to fit by its estimate (fewer blocks, then processes down to 3)",
		helpFor: map[Command]string{
			Run:    "time the measurement should take, warm-up included; a count is cut to fit by its estimate (fewer blocks, then processes down to 3)",
			Update: "time the measurement should take, warm-up included (checks against the baseline measure with the same unless told otherwise); counted with metric auto, the wall-time check's beside the count; with an explicit counted metric the count's, cut to fit by its estimate",
			Check:  "time the measurement should take, warm-up included; empty: the baseline's own (timings measured with another budget are reported, not enforced), 60s without one; counted with metric auto, the wall-time check's; with an explicit counted metric the count's, cut to fit by its estimate",
			AB:     "time the measurement of both builds should take (the builds, and the confirmation of flagged changes, come on top); counted with metric auto, the wall-time check's (empty: a fifth of the count's time); with an explicit counted metric the count's, cut to fit by its estimate",
		},
		value: func(c *Config) flag.Value { return duration{p: &c.Budget} }},
	{name: "samples", cmds: []Command{Run, Check, Update, Action}, def: "15", defFor: map[Command]string{Check: "", Action: ""},
		help: "samples per benchmark (one per interleaved round); empty: against a stored baseline the baseline's own (timings of another count are reported, not enforced), else 15",
		helpFor: map[Command]string{
			Run:    "samples per benchmark, one per interleaved round",
			Update: "samples per benchmark, one per interleaved round (checks against the baseline measure with the same unless told otherwise)",
			Check:  "samples per benchmark, one per interleaved round; empty: the baseline's own (timings measured with another count are reported, not enforced), 15 without one",
		},
		value: func(c *Config) flag.Value { return count{p: &c.Samples, min: 2} }},
	{name: "filter", cmds: []Command{Run, Check, Update, AB, Worker, Action},
		help:  "the embedded suite: a regular expression selecting its benchmarks by name; opt-in datasets run only when named (your module's benchmarks: bench)",
		value: func(c *Config) flag.Value { return pattern{&c.Filter} }},
	{name: "bench", cmds: []Command{Run, Check, Update, AB, Action},
		help:  "your module's own go test benchmarks: a regular expression with the meaning of go test -bench (level by level on /), checked against the benchmark functions before anything is built; empty: wirebench's embedded serialization suite",
		value: func(c *Config) flag.Value { return pattern{&c.Bench} }},
	{name: "packages", cmds: []Command{Run, Check, Update, AB, Action}, def: "./...",
		help:  "with bench: the Go package patterns whose benchmarks run, separated by spaces, relative to the module's directory (in the action, the workspace)",
		value: func(c *Config) flag.Value { return stringValue{&c.Packages} }},
	{name: "build-flags", cmds: []Command{Run, Check, Update, AB, Action},
		help:  "with bench: flags for building the test binaries, separated by spaces (e.g. -tags=integration)",
		value: func(c *Config) flag.Value { return stringValue{&c.BuildFlags} }},
	{name: "seed", cmds: []Command{Run, Check, Update, AB}, def: "0",
		help:  "seed of the shuffled order (0: random)",
		value: func(c *Config) flag.Value { return seed{&c.Seed} }},
	{name: "metric", cmds: []Command{Run, Check, Update, AB, Action}, def: "auto",
		help:  "what measures and gates speed: time (wall time), instructions (instructions/op counted under Valgrind's callgrind, which a busy or shared machine does not move), cycles (est-cycles/op from callgrind's cache simulation, 2-3 times slower to count; instructions/op reported beside) or auto (instructions where valgrind is installed, else time; a check takes its baseline's metric)",
		value: func(c *Config) flag.Value { return enum{&c.Metric, Metrics} }},
	{name: "processes", cmds: []Command{Run, Check, Update, AB, Action},
		help:  "with a counted metric, the worker processes each build is counted in (processes are the replicates: a count moves between processes with map order and hash seeds); empty: 5, and 3 for benchmarks whose one operation takes 10 ms or more, or a check's baseline's own",
		value: func(c *Config) flag.Value { return count{p: &c.Processes, min: 2} }},
	{name: "measure-all", cmds: []Command{Check, AB, Action}, def: "false",
		help:  "measure every package, also those whose test binary and files are identical in the base and the head (ab), or to the stored baseline's (check, with --bench): by default they are listed as identical and not measured, which is wrong only for benchmarks that read files outside their package's directory",
		value: func(c *Config) flag.Value { return boolValue{&c.MeasureAll} }},
	{name: "shard", cmds: []Command{Run, Check, Update, AB, Action},
		help:    "measure only shard I of N of the embedded suite (I/N), for a job matrix; merge the shards' results with merge (in the action, mode merge)",
		helpFor: map[Command]string{AB: "count only shard I of N of the benchmarks (I/N), for a job matrix: build both trees, list every benchmark, count this shard's part and write it to --out; merge joins the shards into one verdict (needs --metric instructions or cycles)"},
		value:   func(c *Config) flag.Value { return shardValue{&c.Shard} }},

	// Output.
	{name: "out", cmds: []Command{Run, Check, Update, Merge, AB},
		defFor:  map[Command]string{Check: ResultFile, Merge: ResultFile},
		help:    "also write the results as JSON to this file",
		helpFor: map[Command]string{AB: "also write the head's results as JSON to this file, one sample per pair"},
		value:   func(c *Config) flag.Value { return stringValue{&c.Out} }},
	{name: "format", cmds: []Command{Run, Check, Compare, AB, Merge}, def: "text",
		help:    "output on stdout",
		helpFor: map[Command]string{Run: formatHelp(resultFormats), Check: formatHelp(comparisonFormats), Compare: formatHelp(comparisonFormats), AB: formatHelp(comparisonFormats), Merge: formatHelp(comparisonFormats)},
		value:   func(c *Config) flag.Value { return formatValue{enum{p: &c.Format}} }},
	{name: "v", cmds: []Command{Run, Check, Update, AB}, def: "false",
		help:  "verbose: also print what the workers print (their PASS lines, a benchmark's own output) and a line per round, generation of workers and plan",
		value: func(c *Config) flag.Value { return boolValue{&c.Verbose} }},
	{name: "plots", cmds: []Command{Run, Update},
		help:    "also draw the results as PNG charts into this directory",
		helpFor: map[Command]string{Update: "also draw every benchmark's history as PNG charts, in the history subdirectory of this directory"},
		value:   func(c *Config) flag.Value { return stringValue{&c.Plots} }},
	{name: "report", cmds: []Command{Check, Merge, AB},
		defFor: map[Command]string{Check: ReportFile, Merge: ReportFile},
		help:   "write the Markdown report to this file",
		value:  func(c *Config) flag.Value { return stringValue{&c.Report} }},

	// Comparing.
	{name: "threshold", cmds: []Command{Compare, Check, Merge, AB, Update, Action},
		help: "relative change of a timing or a count that matters (5% or 0.05), the effect floor: smaller changes never fail, however significant; empty: 5% for timings against a stored baseline, 1% in the same-runner A/B mode and for counted metrics; on a push, a count's step in the history smaller than it is no change point (it adds to the creep)",
		helpFor: map[Command]string{
			Update: "the effect floor of a count's step in the history (1% or 0.01): a smaller step, however certain, is no change point, and adds to the creep (empty: 1%)",
		},
		value: func(c *Config) flag.Value { c.Threshold = -1; return percent{&c.Threshold} }},
	{name: "time-threshold", cmds: []Command{Check, AB, Action}, def: fmt.Sprintf("%g%%", 100*ClockThreshold),
		help:  "with metric auto, counted: the effect floor of the wall-time check beside the count (the code also timed natively, so that what a count cannot see still fails the run: sleeps, the kernel, caches, code that acts differently under Valgrind)",
		value: func(c *Config) flag.Value { return percent{&c.TimeThreshold} }},
	{name: "size-threshold", cmds: []Command{Compare, Check, Merge, AB, Action}, def: "0%",
		help:  "growth of the encoded size (B/msg) that fails (0%: any byte)",
		value: func(c *Config) flag.Value { return percent{&c.SizeThreshold} }},
	{name: "alloc-threshold", cmds: []Command{Compare, Check, Merge, AB}, def: "0%",
		help:  "growth of a deterministic allocation count that fails (0%: any allocation)",
		value: func(c *Config) flag.Value { return percent{&c.AllocThreshold} }},
	{name: "alpha", cmds: []Command{Compare, Check, Merge, AB, Update, Action}, def: "0.01",
		help:  "significance level after adjustment: the chance of any false alarm in the run (Holm); on update, the chance of any false change point in the history (Bonferroni over the series that vary)",
		value: func(c *Config) flag.Value { return probability{&c.Alpha} }},
	{name: "correction", cmds: []Command{Compare, Check, Merge}, def: "holm",
		help:  "multiple-comparison adjustment: holm (family-wise), bh (false discovery rate, exploratory) or none",
		value: func(c *Config) flag.Value { return enum{&c.Correction, []string{"holm", "bh", "none"}} }},
	{name: "normalize", cmds: []Command{Compare, Check, Merge}, def: "auto",
		help:  "judge timings against the machine's speed shift: auto (when the machines differ), always or never",
		value: func(c *Config) flag.Value { return enum{&c.Normalize, []string{"auto", "always", "never"}} }},
	{name: "fail-on", cmds: []Command{Compare, Check, Merge, AB, Action}, def: "regression",
		help:  "fail (exit 1) on: regression or never",
		value: func(c *Config) flag.Value { return enum{&c.FailOn, []string{"regression", "never"}} }},

	// The baseline.
	{name: "baseline-path", aliases: []string{"baseline"}, cmds: []Command{Check, Update, Merge, Action}, def: baseline.DefaultPath,
		help:  "the baseline file (in the action: its path in the repository, on the baseline branch)",
		value: func(c *Config) flag.Value { return stringValue{&c.BaselinePath} }},
	{name: "baseline-branch", cmds: []Command{Action},
		help:  "the branch that holds the baseline (empty: the default branch); pull requests are judged against it, never against their own tree",
		value: func(c *Config) flag.Value { return stringValue{&c.BaselineBranch} }},
	{name: "history", cmds: []Command{Update, Action}, def: "50",
		help:  "keep at most this many runs in the baseline's history",
		value: func(c *Config) flag.Value { return count{p: &c.History, min: 1} }},
	{name: "fail-on-change-point", cmds: []Command{Update, Action}, def: "false",
		help:  "on update, fail (exit 1) when the history shows a change point for the first time that nothing explains (no acceptance recorded with its run, the same environment); the baseline is stored all the same",
		value: func(c *Config) flag.Value { return boolValue{&c.FailOnChangePoint} }},
	{name: "creep-limit", cmds: []Command{Update, Action}, def: "2%",
		help:  "on update, report a count's creep beyond this change (2% or 0.02): its trend since the creep-since run, the steps that were change points or accepted left out, each of the rest below the threshold (0: no creep is looked for)",
		value: func(c *Config) flag.Value { return percent{&c.CreepLimit} }},
	{name: "creep-since", cmds: []Command{Update, Action}, def: "20",
		help:  "the run a count's creep is measured from: N (the run N runs before the latest, or the oldest stored) or release (the last release's run: the newest tag reachable from the commit, as git describe finds tags; in the action the repository's latest release)",
		value: func(c *Config) flag.Value { return creepSince{&c.CreepSince} }},
	{name: "fail-on-creep", cmds: []Command{Update, Action}, def: "false",
		help:  "on update, fail (exit 1) when a count's creep upward beyond creep-limit shows for the first time; the baseline is stored all the same",
		value: func(c *Config) flag.Value { return boolValue{&c.FailOnCreep} }},

	// Commenting for a fork's pull request.
	{name: "artifact-path", cmds: []Command{Action, Comment}, def: OutDir,
		help:  "mode comment: the directory holding the pull request run's downloaded artifact (its relay.json)",
		value: func(c *Config) flag.Value { return stringValue{&c.ArtifactPath} }},

	// Merging.
	{name: "merge-path", cmds: []Command{Action},
		help:  "mode merge: the directory holding the shards' results (the downloaded artifacts)",
		value: func(c *Config) flag.Value { return stringValue{&c.MergePath} }},
	{name: "merge-partial", aliases: []string{"partial"}, cmds: []Command{Merge, Action}, def: "false",
		help:  "merge even if shards are missing (the report shows the gap)",
		value: func(c *Config) flag.Value { return boolValue{&c.MergePartial} }},

	// Same-runner A/B.
	{name: "base-path", aliases: []string{"base"}, cmds: []Command{AB, Action},
		help:  "a checkout of the base version (ab: e.g. a git worktree of main; the action: the pull request's base commit, e.g. base): both are built and measured here, interleaved",
		value: func(c *Config) flag.Value { return stringValue{&c.BasePath} }},
	{name: "head", cmds: []Command{AB}, def: ".",
		help:  "source tree of the head version",
		value: func(c *Config) flag.Value { return stringValue{&c.HeadPath} }},
	{name: "confirm-budget", cmds: []Command{AB},
		help:  "time bound of re-measuring flagged changes in fresh workers before the verdict (empty: half of --budget; negative: no confirmation)",
		value: func(c *Config) flag.Value { return duration{p: &c.ConfirmBudget, signed: true} }},
	{name: "block", cmds: []Command{AB}, def: "1ms",
		help:  "work in one block; base and head alternate block by block",
		value: func(c *Config) flag.Value { return duration{p: &c.Block} }},
	{name: "generations", cmds: []Command{AB}, def: "0",
		help:  "generations of workers (fresh processes on fresh copies of the binaries) the measurement is split into (0: chosen from the budget)",
		value: func(c *Config) flag.Value { return count{p: &c.Generations, min: 0} }},
	{name: "aa", cmds: []Command{AB}, def: "true",
		help:  "run the built-in A/A check: a second base worker measured like the head and compared with the first, every benchmark (the head is then compared with both); if it flags anything, timings do not fail the run",
		value: func(c *Config) flag.Value { return boolValue{&c.AA} }},
	{name: "pin", cmds: []Command{AB, Action}, def: "true",
		help:  "in the same-runner A/B mode, run every worker on one CPU (the last of those wirebench may use, when it may use two or more), so the base's and the head's blocks meet the same neighbours; false runs them on every CPU, GOMAXPROCS as go test sets it (a package with a benchmark that calls b.RunParallel always runs so: one CPU would serialize it)",
		value: func(c *Config) flag.Value { return boolValue{&c.Pin} }},

	// The action.
	{name: "mode", cmds: []Command{Action}, def: "auto",
		help: "auto (pull_request: check; push to the default branch: update; other events: run), check, update, run, compare (benchmark-file against the baseline), merge (a matrix's shards, then what auto would do) or comment (in a workflow_run job: post the comment of a fork's pull request run from the relay it uploaded)",
		value: func(c *Config) flag.Value {
			return enum{&c.Mode, []string{"auto", "check", "update", "run", "compare", "merge", "comment"}}
		}},
	{name: "github-token", cmds: []Command{Action},
		help:  "token for the GitHub API: reads the baseline, comments, writes the baseline; never printed",
		value: func(c *Config) flag.Value { return stringValue{&c.Token} }},
	{name: "comment", cmds: []Command{Action, Comment}, def: "always",
		help:  "the sticky pull-request comment: always, on-change (only when something changed, or to refresh an existing comment) or never",
		value: func(c *Config) flag.Value { return enum{&c.Comment, []string{"always", "on-change", "never"}} }},
	{name: "comment-author", cmds: []Command{Action, Comment},
		help:  "login of the account the sticky comment is written as, whose comments alone are edited (empty: learned from the token; a GitHub App's token: <app-slug>[bot])",
		value: func(c *Config) flag.Value { return stringValue{&c.CommentAuthor} }},
	{name: "accept-label", cmds: []Command{Action}, def: accept.DefaultLabel,
		help:  "the pull-request label that accepts every flagged change of the pull request as intended: reported as accepted, not failing the check (only accounts with triage access can set a label; empty: no label accepts)",
		value: func(c *Config) flag.Value { return stringValue{&c.AcceptLabel} }},
	{name: "accept-text", cmds: []Command{Action}, def: "true",
		help:  "honour \"Wirebench-Accept: <benchmark pattern> [reason]\" lines in the pull request's description and commit trailers, which accept the benchmarks the pattern matches; false: only the label accepts (the author of a pull request writes its text)",
		value: func(c *Config) flag.Value { return boolValue{&c.AcceptText} }},
	{name: "benchmark-file", cmds: []Command{Action},
		help:  "your own go test -bench -count=10 output, compared with the baseline instead of running the embedded suite",
		value: func(c *Config) flag.Value { return stringValue{&c.BenchmarkFile} }},
}
