package source

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirebench/wirebench/internal/gotest"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/sandbox"
)

// readableTree is where the sandbox's user can reach tree, a directory of
// a Go module that is about to be built: tree itself, or, when a
// directory on the way bars that user (sandbox.Blocks: a `mktemp -d`
// directory, /root), the same directory in a copy of the module made for
// it (sandbox.View), which a line on progress announces. A module that
// reaches outside its directory (a replace or go.work use of a directory
// beside it) would lose it in a copy: that is an error naming the
// directory that bars the way, its mode and the fix, returned before
// anything is built.
func readableTree(sb *sandbox.Sandbox, tree string, progress io.Writer) (string, error) {
	abs, err := filepath.Abs(tree)
	if err != nil {
		return "", err
	}
	root, err := gotest.ModuleRoot(abs)
	if err != nil {
		return "", fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	blocked, err := sb.Blocks(root)
	if err != nil || blocked == nil {
		return tree, err
	}
	if out, err := outsideDirs(root); err != nil {
		return "", err
	} else if len(out) > 0 {
		return "", fmt.Errorf("%w: %v, so the sandbox cannot build %s, and a copy of it would lose %s, outside it: let every user through (chmod o+x %s) or move the module under a directory every user can enter",
			program.ErrSetup, blocked, root, strings.Join(out, ", "), blocked.Dir)
	}
	view, err := sb.View(root)
	if err != nil {
		return "", fmt.Errorf("%w: %v", program.ErrSetup, err)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(progress, "wirebench: %v: building a copy of %s that it can read\n", blocked, root)
	return filepath.Join(view, rel), nil
}

// outsideDirs lists the directories outside the module at root that its
// go.mod (replace directives) or its go.work (use and replace) name by a
// relative path.
func outsideDirs(root string) ([]string, error) {
	var out []string
	for _, name := range []string{"go.mod", "go.work"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, dir := range localDirs(data) {
			rel, err := filepath.Rel(root, filepath.Join(root, filepath.FromSlash(dir)))
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				out = append(out, name+" names "+dir)
			}
		}
	}
	return out, nil
}

// localDirs returns the relative directory paths ("./x", "../y") a go.mod
// or go.work file names in its use directives and on the right of its
// replace directives, single or in blocks.
func localDirs(data []byte) []string {
	var dirs []string
	block := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		verb := block
		if block == "" {
			v, rest, _ := strings.Cut(line, " ")
			if v != "use" && v != "replace" {
				continue
			}
			verb, line = v, strings.TrimSpace(rest)
			if line == "(" {
				block = v
				continue
			}
		} else if line == ")" {
			block = ""
			continue
		}
		if verb == "replace" {
			_, line, _ = strings.Cut(line, "=>")
		}
		if f := strings.Fields(line); len(f) > 0 {
			p := strings.Trim(f[0], `"`)
			if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
				dirs = append(dirs, p)
			}
		}
	}
	return dirs
}
