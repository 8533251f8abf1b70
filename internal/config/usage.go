package config

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Program is the name of wirebench's binary (go install
// .../cmd/wirebench), as every message, hint and usage names it.
const Program = "wirebench"

// about describes a command for help: its arguments and what it does.
type about struct {
	args, summary, detail string
}

var commandAbout = map[Command]about{
	Run: {"", "measure the suite and print a table (or --format bench|json)",
		"Measures the embedded suite in interleaved rounds and prints the run."},
	Compare: {"BASELINE CANDIDATE", "compare two results files (JSON, baseline or Go benchmark text)",
		"Each side is a wirebench results or baseline JSON file, or Go benchmark text (go test -bench output). Sizes and allocations gate always. Timings gate against a baseline file's history of 5 runs or more, or when BASELINE is Go benchmark text of 5 go test processes or more, each a run (the header lines repeat per process): for i in 1 2 3 4 5; do go test -run '^$' -bench . -count 2 ./...; done > old.txt, and the same for CANDIDATE. The samples of one process (-count=N) are reported, not enforced: a benchmark moves from one process to the next by more than one process's samples show."},
	Check: {"", "measure, compare with the stored baseline, report, pass or fail",
		"Reads the baseline first (a corrupt file fails in a second), measures, compares and writes the report. No baseline yet passes."},
	Update: {"", "measure and store the new baseline",
		"Measures and stores the run as the baseline's reference, adding it to the bounded history. A corrupt baseline is an error and is left untouched."},
	Merge: {"SHARD_RESULTS...", "merge a job matrix's shards (run --shard I/N), then compare like check",
		"Merges the results of the shards of a job matrix (files, or directories of *.json) and, when a baseline exists, compares and reports like check."},
	AB: {"--base DIR [--head DIR]", "build two source trees and compare them same-runner, pair by pair",
		"Builds both trees (wirebench's ./cmd/wirebench, or with --bench your module's test binaries), runs both on this machine alternating in short blocks, and compares them pair by pair (see docs/ab-mode.md, docs/your-benchmarks.md)."},
	Worker: {"", "the A/B mode's worker (started by ab, not by people)",
		"Serves the suite's benchmarks to the A/B orchestrator over stdin and stdout (see internal/worker)."},
	Action: {"", "run as the GitHub Action (reads INPUT_* like flags)",
		"What wirebench does under GitHub Actions: every action input INPUT_NAME is read as the flag -name."},
}

// Help writes the overview of every command.
func Help(w io.Writer) {
	fmt.Fprint(w, "wirebench: serialization benchmarks that gate pull requests.\n\nCommands:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, c := range Commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c, commandAbout[c].summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
With no command, wirebench checks against baseline/ when it exists and
otherwise runs the suite; under GitHub Actions it runs as the action.
"action COMMAND -h" lists a command's flags.

Exit status: 0 ok, 1 a regression failed the gate, 2 bad input or error.
`)
}

// Usage writes cmd's synopsis, description and flags.
func Usage(w io.Writer, cmd Command) {
	a := commandAbout[cmd]
	syn := "usage: action " + string(cmd) + " [flags]"
	if a.args != "" {
		syn += " " + a.args
	}
	fmt.Fprintf(w, "%s\n\n%s\n\nFlags:\n", syn, a.detail)
	for _, s := range settings {
		if !s.takes(cmd) {
			continue
		}
		name := "  -" + s.name
		for _, al := range s.aliases {
			name += ", -" + al
		}
		fmt.Fprintln(w, name)
		help := s.help
		if d := s.defaultFor(cmd); d != "" {
			help += " (default " + d + ")"
		}
		for _, line := range wrap(help, 72) {
			fmt.Fprintln(w, "    \t"+line)
		}
	}
}

// Known reports whether name is a command.
func Known(name string) bool {
	_, ok := commandAbout[Command(name)]
	return ok
}

// wrap breaks s into lines of at most width bytes, at spaces.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
