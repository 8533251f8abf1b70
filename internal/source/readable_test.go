package source

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/sandbox"
)

func TestLocalDirs(t *testing.T) {
	tests := []struct{ file, want string }{
		{"module x\n\nreplace example.com/y => ../y\n", "../y"},
		{"module x\nreplace (\n\texample.com/y v1.0.0 => ./y // vendored\n\texample.com/z => example.com/z2 v1.2.0\n\t\"example.com/w\" => \"../w\"\n)\n", "./y ../w"},
		{"go 1.22\n\nuse ./a\nuse (\n\t.\n\t../b\n)\n", "./a . ../b"},
		{"module x\n// replace example.com/y => ../y\nrequire example.com/y v1.0.0\n", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(localDirs([]byte(tt.file)), " "); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.file, got, tt.want)
		}
	}
}

// TestUnreachableTrees: as root, builds and workers run as the sandbox's
// user, which cannot enter a directory of mode 0700 (what mktemp -d makes,
// and /root). A module under one is built and measured from a copy that
// user can read, for a module's benchmarks (run, check, update and both
// sides of ab) and for the embedded suite's command (ab); a module whose
// go.mod reaches outside it, which a copy would break, fails before any
// build with the directory, its mode and the fix.
func TestUnreachableTrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wirebench and a test binary")
	}
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("the sandbox switches users only as root on Linux")
	}
	ctx := context.Background()
	open, err := os.MkdirTemp("", "wirebench-source-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(open)
	os.Chmod(open, 0o755)
	bin := filepath.Join(open, "wirebench")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/wirebench/wirebench/cmd/wirebench").CombinedOutput(); err != nil {
		t.Fatalf("build wirebench, whose sandbox command switches users: %v\n%s", err, out)
	}
	sb, err := sandbox.New(open, sandbox.DefaultCache(), bin)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if !sb.Active {
		t.Fatalf("the sandbox is not active as root: %s", sb.Why)
	}
	closed, err := os.MkdirTemp("", "wirebench-closed-") // mode 0700
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(closed)
	write := func(files map[string]string) {
		for name, content := range files {
			p := filepath.Join(closed, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(map[string]string{
		"mod/go.mod":                  "module example.com/wire\n\ngo 1.22\n",
		"mod/wire.go":                 "package wire\n",
		"mod/wire_test.go":            "package wire\n\nimport \"testing\"\n\nfunc BenchmarkSum(b *testing.B) {\n\ts := 0\n\tfor i := 0; i < b.N; i++ {\n\t\ts += i\n\t}\n\t_ = s\n}\n",
		"suite/go.mod":                "module example.com/suite\n\ngo 1.22\n",
		"suite/cmd/wirebench/main.go": "package main\n\nfunc main() {}\n",
		"outside/go.mod":              "module example.com/outside\n\ngo 1.22\n\nreplace example.com/wire => ../mod\n",
		"outside/a_test.go":           "package outside\n",
	})
	barred := "cannot enter " + closed + " (drwx------)"

	var progress bytes.Buffer
	p := Plan{Budget: 300 * time.Millisecond, Samples: 2, Sandbox: sb, Progress: &progress}
	r, _, err := GoTest{Dir: filepath.Join(closed, "mod"), Bench: "."}.Results(ctx, p)
	if err != nil {
		t.Fatalf("a module under a directory of mode 0700: %v\n%s", err, progress.String())
	}
	if len(r.Benchmarks) != 1 || r.Benchmarks[0].Key() != "example.com/wire BenchmarkSum" || !strings.Contains(progress.String(), barred) {
		t.Errorf("measured %d benchmarks; progress:\n%s", len(r.Benchmarks), progress.String())
	}

	out := filepath.Join(open, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.Own(out)
	progress.Reset()
	prog, _, err := Embedded{}.Target(p).Build(ctx, filepath.Join(closed, "suite"), filepath.Join(out, "suite"))
	if err != nil || len(prog) != 1 || !strings.Contains(progress.String(), barred) {
		t.Errorf("the embedded suite's command under a directory of mode 0700: %v, %d workers; progress:\n%s", err, len(prog), progress.String())
	}

	progress.Reset()
	_, _, err = GoTest{Bench: "."}.Target(p).Build(ctx, filepath.Join(closed, "outside"), filepath.Join(out, "outside"))
	if !errors.Is(err, program.ErrSetup) {
		t.Fatalf("a module that replaces a module by a directory beside it: %v", err)
	}
	for _, want := range []string{barred, "go.mod names ../mod", "chmod o+x " + closed} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}
