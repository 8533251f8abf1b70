package config

import (
	"errors"
	"flag"
	"fmt"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/shard"
)

// shardValue is "I/N", checked when set.
type shardValue struct{ p *string }

func (v shardValue) String() string { return deref(v.p) }
func (v shardValue) Set(s string) error {
	if s != "" {
		if _, err := shard.Parse(s); err != nil {
			return err
		}
	}
	*v.p = s
	return nil
}

// formatValue is one of the output formats a command writes: forCommand
// makes it the enum of that command's, so that a refused one is told
// what that command writes.
type formatValue struct{ enum }

// forCommand is v for cmd: run writes results, compare and ab
// comparisons.
func (v formatValue) forCommand(cmd Command) flag.Value {
	v.allowed = comparisonFormats
	if cmd == Run {
		v.allowed = resultFormats
	}
	return v.enum
}

// Validate checks what no single setting can: the arguments, and settings
// that need or exclude each other. Every problem is reported, joined, each
// naming the flag (or, for the action, the input) and the fix.
func (c *Config) Validate(cmd Command) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch cmd {
	case Compare:
		if len(c.Args) != 2 {
			bad("compare needs two files, BASELINE and CANDIDATE, got %s", human.Plural(len(c.Args), "argument", "arguments"))
		}
	case Merge:
		if len(c.Args) == 0 {
			bad("merge needs the shards' results files or directories")
		}
	case AB:
		if c.BasePath == "" {
			bad("ab needs --base DIR: a source tree of the base version (e.g. `git worktree add --detach /tmp/base main`)")
		}
		if c.Shard != "" && c.Metric != MetricInstructions && c.Metric != MetricCycles {
			bad("ab --shard needs --metric instructions or cycles: only a count is split over shards and judged as one in the merge (docs/shards.md)")
		}
		if c.Shard != "" && c.Out == "" {
			bad("ab --shard needs --out FILE: where this shard's part goes, for merge to read")
		}
		fallthrough
	default:
		if len(c.Args) > 0 && cmd != Action {
			bad("%s takes no arguments, got %q", cmd, c.Args)
		}
	}
	if cmd == Action {
		errs = append(errs, c.validateAction()...)
	}
	if err := c.CompareOptions(cmd == AB).Validate(); err != nil && compares(cmd) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// compares reports whether cmd compares results.
func compares(cmd Command) bool {
	return cmd == Compare || cmd == Check || cmd == Merge || cmd == AB || cmd == Action
}

func (c *Config) validateAction() []error {
	var errs []error
	if c.Mode == "merge" && c.MergePath == "" {
		errs = append(errs, errors.New("input merge-path: mode merge needs the directory holding the shards' results (the downloaded artifacts)"))
	}
	if c.Mode == "merge" && c.Shard != "" {
		errs = append(errs, errors.New("inputs shard and mode merge exclude each other: shards measure, one merge job merges"))
	}
	if c.Mode == "compare" && c.BenchmarkFile == "" {
		errs = append(errs, errors.New("input benchmark-file: mode compare needs the path of your `go test -bench` output"))
	}
	return errs
}
