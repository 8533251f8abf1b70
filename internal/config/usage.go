package config

import (
	"fmt"
	"io"
	"strings"

	"github.com/wirebench/wirebench/internal/human"
)

// Program is the name of wirebench's binary (go install
// .../cmd/wirebench), as every message, hint and usage names it.
const Program = "wirebench"

// about describes a command for help: its arguments and what it does.
type about struct {
	args, summary, detail string
}

var commandAbout = map[Command]about{
	Run: {"", "measure your module's benchmarks (--bench) or the embedded suite; print the run",
		"Measures a module's own go test benchmarks (--bench, in --packages, from the module's directory) or, without --bench, wirebench's embedded serialization suite, in interleaved rounds, and prints the run. Nothing is compared or stored."},
	Compare: {"BASELINE CANDIDATE", "compare two files: results, baseline or Go benchmark text",
		"Each side is a wirebench results or baseline JSON file, or Go benchmark text (go test -bench output, or run --format bench). Sizes and allocations gate always. Timings gate against a baseline file's history of 5 runs or more, or when BASELINE is Go benchmark text of 5 go test processes or more, each a run (the header lines repeat per process): for i in 1 2 3 4 5; do go test -run '^$' -bench . -count 2 ./...; done > old.txt, and the same for CANDIDATE. The samples of one process (-count=N) are reported, not enforced: a benchmark moves from one process to the next by more than one process's samples show."},
	Check: {"", "measure, compare with the stored baseline, report, pass or fail",
		"Reads the baseline first (a corrupt file fails in a second), measures like run (with the baseline's budget and samples unless given), compares, and writes the report and the results. No baseline yet passes; update makes one. Benchmarks that do not build or run fail the check with a report."},
	Update: {"", "measure and store the run as the new baseline",
		"Measures like run and stores the run as the baseline's reference, adding it to the bounded history. A corrupt baseline is an error and is left untouched."},
	Merge: {"SHARD_RESULTS...", "merge a job matrix's shards (run --shard I/N, ab --shard I/N), then compare like check or judge like ab",
		"Merges the results of the shards of a job matrix (files, or directories of *.json) and, when a baseline exists, compares and reports like check. The shards of a same-runner A/B comparison (the files ab writes with its shard option) are checked against each other and the partition, and judged as one comparison, reported and exited as an unsharded ab would (docs/shards.md)."},
	AB: {"--base DIR [--head DIR]", "build two source trees and compare them on this machine, pair by pair",
		"Builds both trees (with --bench a test binary per package of your module; without, the embedded suite's command, ./cmd/wirebench) and compares them on this machine. Counted (--metric instructions or cycles; auto where Valgrind is installed), each build's benchmarks are counted in processes of their own, and what is flagged is counted again in fresh ones; timed (--metric time), both run alternating in short blocks and are compared pair by pair, with an A/A check and a confirmation of what it flags (see docs/counted.md, docs/ab-mode.md, docs/your-benchmarks.md). A head that does not build or run fails with a report."},
	Comment: {"", "in a workflow_run job, post a fork's pull request comment from its run's relay",
		"The trusted half of a check of a pull request from a fork (docs/action.md, \"Fork pull requests\"): reads the relay.json the pull request's run uploaded (--artifact-path), finds the pull request by the run's head as the workflow_run event (GITHUB_EVENT_PATH) tells it, refuses a relay that names another pull request or commit, and posts the sticky comment, rendered here from the relay's numbers, with GITHUB_TOKEN. It builds and runs nothing of the pull request's."},
	Worker: {"", "the A/B mode's worker (started by ab, not by people)",
		"Serves the suite's benchmarks to the A/B orchestrator over stdin and stdout (see internal/worker)."},
	Action: {"", "run as the GitHub Action (reads INPUT_* like flags)",
		"What wirebench does under GitHub Actions: every action input INPUT_NAME is read as the flag -name."},
}

// HelpWidth is the widest line help and usage print: a terminal of 100
// columns shows them unbroken.
const HelpWidth = 100

// Help writes the overview of every command: what wirebench is for, each
// command's synopsis and summary, and the exit statuses.
func Help(w io.Writer) {
	fmt.Fprintf(w, "%s gates Go benchmarks: your module's own go test benchmarks, or its embedded\nserialization suite, measured, tested for significant change, and failed on a\nregression of encoded size, allocations or speed.\n\nUsage:\n", Program)
	// Two columns, the summaries wrapped to fit HelpWidth.
	synopsis := func(c Command) string { return strings.TrimSuffix(Program+" "+string(c)+" "+commandAbout[c].args, " ") }
	col := 0
	for _, c := range Commands {
		col = max(col, len(synopsis(c)))
	}
	indent := strings.Repeat(" ", 2+col+3)
	for _, c := range Commands {
		for i, line := range human.Wrap(commandAbout[c].summary, HelpWidth-len(indent)) {
			if i == 0 {
				fmt.Fprintf(w, "  %-*s   %s\n", col, synopsis(c), line)
			} else {
				fmt.Fprintf(w, "%s%s\n", indent, line)
			}
		}
	}
	fmt.Fprintf(w, `
Your module's benchmarks, from its directory:

  %[1]s ab --base ../base --bench .    this tree against a checkout of the base, side by side
  %[1]s update --bench .               measure and store baseline/default.json
  %[1]s check --bench .                measure and compare with it

With no command, %[1]s checks its embedded suite against baseline/default.json
when it exists and otherwise measures it; under GitHub Actions it runs as the
action. "%[1]s help COMMAND" or "%[1]s COMMAND -h" lists a command's flags.

Exit status: 0 ok; 1 the gate failed: a regression, or benchmarks that do not
build or run; 2 bad input or an error of %[1]s's own.
`, Program)
}

// Usage writes cmd's synopsis, description and flags, each flag's help
// as it applies to cmd.
func Usage(w io.Writer, cmd Command) {
	a := commandAbout[cmd]
	syn := "usage: " + Program + " " + string(cmd) + " [flags]"
	if a.args != "" {
		syn += " " + a.args
	}
	fmt.Fprintf(w, "%s\n\n", syn)
	for _, line := range human.Wrap(a.detail, 76) {
		fmt.Fprintln(w, line)
	}
	fmt.Fprint(w, "\nFlags:\n")
	for _, s := range settings {
		if !s.takes(cmd) {
			continue
		}
		name := "  -" + s.name
		for _, al := range s.aliases {
			name += ", -" + al
		}
		fmt.Fprintln(w, name)
		help := s.helpOf(cmd)
		if d := s.defaultFor(cmd); d != "" {
			help += " (default " + d + ")"
		}
		for _, line := range human.Wrap(help, 72) {
			fmt.Fprintln(w, "    \t"+line)
		}
	}
}

// Known reports whether name is a command.
func Known(name string) bool {
	_, ok := commandAbout[Command(name)]
	return ok
}
