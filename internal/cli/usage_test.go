package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/config"
)

// TestUsage: the command line describes itself. help lists every command
// that exists; every command answers -h with its usage and exit 0, and
// help COMMAND with the same; an unknown command names them all; a bad
// flag value is one line.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range config.Commands {
		if _, ok := commands[c]; !ok {
			t.Errorf("help lists %s, but there is no such command", c)
		}
	}
	for c := range commands {
		if c == config.Worker || c == config.Action {
			continue // started by wirebench itself, not by people
		}
		found := false
		for _, listed := range config.Commands {
			found = found || listed == c
		}
		if !found {
			t.Errorf("command %s is missing from help", c)
		}
	}
	code, out, _ := wb(t, dir, "help")
	for _, c := range config.Commands {
		if code != exitOK || !strings.Contains(out, "  wirebench "+string(c)) {
			t.Errorf("help (exit %d) does not list %s:\n%s", code, c, out)
		}
	}
	for c := range commands {
		_, help, _ := wb(t, dir, "help", string(c))
		for _, h := range []string{"-h", "--help"} {
			code, out, errOut := wb(t, dir, string(c), h)
			if code != exitOK || !strings.HasPrefix(out, "usage: wirebench "+string(c)) || errOut != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", c, h, code, out, errOut)
			}
			if out != help {
				t.Errorf("help %s is not %s %s:\n%s\nwant:\n%s", c, c, h, help, out)
			}
		}
	}
	if code, _, errOut := wb(t, dir, "help", "frobnicate"); code != exitBadInput || !strings.Contains(errOut, "help takes one command of run") {
		t.Errorf("help of an unknown command: exit %d, %s", code, errOut)
	}
	_, _, errOut := wb(t, dir, "frobnicate")
	for _, c := range config.Commands {
		if !strings.Contains(errOut, string(c)) {
			t.Errorf("the unknown-command error does not name %s: %s", c, errOut)
		}
	}
	code, out, errOut = wb(t, dir, "run", "--samples", "many")
	if code != exitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || out != "" || !strings.Contains(errOut, `--samples "many" is not valid`) {
		t.Errorf("bad flag value: exit %d, stdout %q, stderr %q; want 2 and one line", code, out, errOut)
	}
}

// TestMessagesNameTheBinary: no message or hint in wirebench's source
// names a command other than the binary people install: not `action
// ...` (the action image's entrypoint, which people do not run), not `go
// run ./cmd/...` (which works only in wirebench's own clone). The one
// literal "./cmd/action" is the package a base tree from before the
// command was named after its binary is built from.
func TestMessagesNameTheBinary(t *testing.T) {
	bad := regexp.MustCompile("`action[ `]|\"action [a-z]|action help|go run \\./cmd|cmd/action\\b")
	var files []string
	for _, root := range []string{"../../cmd", "../../internal", "../../matrix"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") && !strings.Contains(path, "testdata") {
				files = append(files, path)
			}
			return err
		})
	}
	if len(files) < 50 {
		t.Fatalf("found %d source files: walked the wrong tree?", len(files))
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && s != "./cmd/action" && bad.MatchString(s) {
				t.Errorf("%s: %q names a command other than wirebench", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
}
