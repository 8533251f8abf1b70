package cli

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile" // the go.mod's module path, as the go command reads it

	"github.com/wirebench/wirebench/internal/gotest"
)

// wirebenchModule is this project's module path: in its own repository
// the embedded suite is the suite.
const wirebenchModule = "github.com/wirebench/wirebench"

// maxScannedFiles bounds the files userModule looks at, so that a large
// repository does not delay the first line.
const maxScannedFiles = 5000

// userModule is the module dir is in, when that module is not
// wirebench's and one of its test files declares a benchmark function:
// a run there without --bench measures wirebench's embedded suite, most
// likely not what its user meant. "" otherwise.
func userModule(dir string) string {
	root, err := gotest.ModuleRoot(dir)
	if err != nil {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	path := modfile.ModulePath(data)
	if path == "" || path == wirebenchModule {
		return ""
	}
	errFound := errors.New("found")
	seen := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // unreadable: skip it
		case d.IsDir() && p != root:
			name := d.Name()
			if name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		case d.IsDir() || !strings.HasSuffix(p, "_test.go"):
			return nil
		}
		if seen++; seen > maxScannedFiles {
			return filepath.SkipAll
		}
		if declaresBenchmark(p) {
			return errFound
		}
		return nil
	})
	if errors.Is(err, errFound) {
		return path
	}
	return ""
}

// declaresBenchmark reports whether the Go file at p has a line that
// begins "func Benchmark" (its first megabyte).
func declaresBenchmark(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	return bytes.HasPrefix(b, []byte("func Benchmark")) || bytes.Contains(b, []byte("\nfunc Benchmark"))
}
