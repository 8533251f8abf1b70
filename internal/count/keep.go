package count

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/program"
)

// The dumps a count keeps (Options.Keep): per build ("base", "head"; a
// count of one build, for a stored baseline, is the head) and benchmark,
// the directory keptBlock with the dump files of a plain block, or keptN
// and kept2N with those of the difference method's blocks of n and 2n
// operations.
const (
	keptBlock = "block"
	keptN     = "n"
	kept2N    = "2n"
)

// keepDir is where the dumps of a block of benchmark key counted by the
// build side go: a directory the first process of the build to ask for
// it gets, "" for every later one and without Options.Keep.
func (r *run) keepDir(side, key string) string {
	if r.o.Keep == "" {
		return ""
	}
	dir := filepath.Join(r.o.Keep, keptSide(side), dumpName(key))
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.kept == nil {
		r.kept = map[string]bool{}
	}
	if r.kept[dir] {
		return ""
	}
	r.kept[dir] = true
	return dir
}

// keptSide names a build's kept dumps: its side, "head" for the one
// build of a count against a stored baseline.
func keptSide(side string) string {
	if side == "" {
		return "head"
	}
	return side
}

// sub is dir/name, "" when dir is.
func sub(dir, name string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}

// dumpName is a benchmark key as a directory name: the characters a
// file name can carry safely kept, the others "_", at most 80 of them,
// and a short hash of the key so that two keys never share one.
func dumpName(key string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '=', r == '.':
			return r
		}
		return '_'
	}, key)
	if len(safe) > 80 {
		safe = safe[:80]
	}
	sum := sha256.Sum256([]byte(key))
	return safe + "-" + hex.EncodeToString(sum[:4])
}

// DumpsReadme is the name of the file SaveDumps writes beside a
// benchmark's dumps, saying what they are and how to open them.
const DumpsReadme = "README.txt"

// SaveDumps copies the dumps a count kept in kept (Options.Keep) of the
// benchmarks keys into dir, a directory per benchmark (named after its
// key, see dumpName): per build ("base", "head") callgrind's files of
// its block, and its self cost per function and source line in
// cachegrind's format, BUILD.cg.out (for the difference method the
// block of 2n operations less the block of n), which Valgrind's cg_diff
// and cg_annotate compare; and DumpsReadme with the commands. It returns
// each saved benchmark's directory; a benchmark whose dumps were not
// kept is left out.
func SaveDumps(kept, dir string, keys []string) (map[string]string, error) {
	out := map[string]string{}
	for _, key := range keys {
		var sides []string
		dst := filepath.Join(dir, dumpName(key))
		for _, side := range []string{"base", "head"} {
			src := filepath.Join(kept, side, dumpName(key))
			if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err := os.CopyFS(filepath.Join(dst, side), os.DirFS(src)); err != nil {
				return out, fmt.Errorf("save the dumps of %s: %w", key, err)
			}
			if err := writeSelfCost(src, filepath.Join(dst, side+".cg.out"), key); err != nil {
				return out, fmt.Errorf("save the dumps of %s: %w", key, err)
			}
			sides = append(sides, side)
		}
		if len(sides) == 0 {
			continue
		}
		if err := os.WriteFile(filepath.Join(dst, DumpsReadme), []byte(dumpsReadme(key, sides, firstFile(dst, sides[len(sides)-1]))), 0o644); err != nil {
			return out, fmt.Errorf("save the dumps of %s: %w", key, err)
		}
		out[key] = dst
	}
	return out, nil
}

// DiffCommand is the command, run in a benchmark's directory of
// SaveDumps, that shows where the work of the head's block went against
// the base's, per function: Valgrind's cg_diff and cg_annotate
// (callgrind_annotate and KCachegrind of Valgrind 3.19 compare no two
// dumps). The two builds come from two trees, so their source files'
// paths differ: cg_diff keeps only the files' names (a Go function's
// name holds its package), or every function would be two lines, one a
// build. With the head only (a stored baseline keeps no dumps),
// cg_annotate of the head's.
func DiffCommand(both bool) string {
	if !both {
		return "cg_annotate head.cg.out"
	}
	return "cg_diff --mod-filename='s,.*/,,' base.cg.out head.cg.out > diff.cg.out && cg_annotate diff.cg.out"
}

// firstFile is the first dump file under dir/side, relative to dir.
func firstFile(dir, side string) string {
	first := side + "/" + kept2N + "/callgrind.out.1-01"
	filepath.WalkDir(filepath.Join(dir, side), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if rel, err := filepath.Rel(dir, path); err == nil {
				first = filepath.ToSlash(rel)
			}
			return filepath.SkipAll
		}
		return nil
	})
	return first
}

// dumpsReadme says what a benchmark's saved dumps are and how to open
// them, a thread's file of the last side file.
func dumpsReadme(key string, sides []string, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Callgrind's dumps of one counted block of %s, as wirebench counted it, of the %s.\n\n", key, strings.Join(sides, " and the "))
	for _, side := range sides {
		fmt.Fprintf(&b, "  %s/        callgrind's files, one per thread that ran the block (%s/: the block; %s/ and %s/: the blocks of n and 2n operations whose difference is n operations; a name ending %s: the collection counted after that block, gc-instructions/op)\n", side, keptBlock, keptN, kept2N, program.CollectionSuffix)
		fmt.Fprintf(&b, "  %s.cg.out  their self cost per function and source line (for n/2n, 2n less n), in cachegrind's format\n", side)
	}
	fmt.Fprintf(&b, "\nWhere the work went, per function and line (--auto=yes annotates the source files where they are):\n\n  %s\n", DiffCommand(len(sides) == 2))
	fmt.Fprintf(&b, "\nCalls and inclusive costs of one build's block, a thread's file at a time:\n\n  callgrind_annotate --inclusive=yes --tree=calling %s\n  kcachegrind %s\n", file, file)
	return b.String()
}

// writeSelfCost writes the self cost per line of the block kept in src
// (keptBlock, or kept2N less keptN) to path in cachegrind's format.
func writeSelfCost(src, path, key string) error {
	plus, err := readLines(filepath.Join(src, keptBlock))
	if err != nil {
		return err
	}
	var minus callgrind.Lines
	if plus == nil {
		if plus, err = readLines(filepath.Join(src, kept2N)); err != nil {
			return err
		}
		if minus, err = readLines(filepath.Join(src, keptN)); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := callgrind.WriteCachegrind(&b, key, plus, minus); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// readLines is the self cost per line of every dump file in dir, summed;
// nil when dir does not exist.
func readLines(dir string) (callgrind.Lines, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sum := callgrind.Lines{}
	for _, e := range entries {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		l, err := callgrind.ReadLines(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		sum.Add(l)
	}
	return sum, nil
}
