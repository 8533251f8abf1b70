package check

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/count"
	"github.com/wirebench/wirebench/internal/human"
)

// DumpsSubdir is where, in the results directory, the callgrind dumps of
// the flagged counted benchmarks go (count.SaveDumps): with the results,
// and so in the action's artifacts.
const DumpsSubdir = "callgrind"

// DumpsDir is the directory of the flagged benchmarks' dumps beside the
// file out (the results, or ab's report), "" when no file is written.
func DumpsDir(out string) string {
	if out == "" || out == "-" {
		return ""
	}
	return filepath.Join(filepath.Dir(out), DumpsSubdir)
}

// keptDumps is a new temporary directory where a count keeps a block's
// dumps of every benchmark (count.Options.Keep), and the function that
// removes it; "" (and a no-op) when dir, where the flagged ones go, is
// "" or no directory could be made.
func keptDumps(dir string) (string, func()) {
	if dir == "" {
		return "", func() {}
	}
	kept, err := os.MkdirTemp("", "wirebench-dumps-")
	if err != nil {
		return "", func() {}
	}
	return kept, func() { os.RemoveAll(kept) }
}

// saveDumps saves into dir the dumps a count kept in kept of the
// benchmarks whose counted change r explains (compare.Where), after
// removing what an earlier run left there, and points each Where at its
// benchmark's dumps and the command that opens them. Nothing to save
// leaves dir as it is; a failure is a warning on stderr, and the report
// stands without them.
func saveDumps(stderr io.Writer, r *compare.Result, kept, dir string) {
	if r == nil || kept == "" || dir == "" {
		return
	}
	var keys []string
	for _, c := range r.Comparisons {
		if c.Where != nil {
			keys = append(keys, c.Name)
		}
	}
	if len(keys) == 0 {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintf(stderr, "wirebench: warning: the callgrind dumps of the counted changes are not kept: %v\n", err)
		return
	}
	saved, err := count.SaveDumps(kept, dir, keys)
	if err != nil {
		fmt.Fprintf(stderr, "wirebench: warning: the callgrind dumps of the counted changes are not all kept: %v\n", err)
	}
	for i := range r.Comparisons {
		w := r.Comparisons[i].Where
		d, ok := saved[r.Comparisons[i].Name]
		if w == nil || !ok {
			continue
		}
		_, err := os.Stat(filepath.Join(d, "base.cg.out"))
		w.Dumps, w.Open = d, count.DiffCommand(err == nil)
	}
	if len(saved) > 0 {
		fmt.Fprintf(stderr, "wirebench: callgrind's dumps of %s are in %s (%s in each says how to open them)\n",
			human.Plural(len(saved), "counted change", "counted changes"), dir, count.DumpsReadme)
	}
}
