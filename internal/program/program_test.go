package program

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/worker"
)

func TestCheckModule(t *testing.T) {
	dir := t.TempDir()
	if err := CheckModule(dir); !errors.Is(err, ErrSetup) || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("empty dir: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644)
	if err := CheckModule(dir); err != nil {
		t.Errorf("a module: %v", err)
	}
	if err := CheckModule(filepath.Join(dir, "nope")); !errors.Is(err, ErrSetup) {
		t.Errorf("a missing dir: %v", err)
	}
	if err := CheckModule(""); !errors.Is(err, ErrSetup) {
		t.Errorf("no dir: %v", err)
	}
}

// TestGoBuildFails: a tree without the package is the setup's failure,
// with the compiler's words.
func TestGoBuildFails(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	err := GoBuild(context.Background(), t.TempDir(), "./cmd/wirebench", filepath.Join(t.TempDir(), "x"), nil)
	if !errors.Is(err, ErrSetup) || !strings.Contains(err.Error(), "go build ./cmd/wirebench") {
		t.Errorf("building an empty dir: %v", err)
	}
}

// TestSide: a build's failure says whose it is, through wrapping.
func TestSide(t *testing.T) {
	head := &SideError{Side: "head", Err: errors.New("broke")}
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("the machine"), ""},
		{head, "head"},
		{errors.Join(errors.New("x"), &SideError{Side: "base", Err: ErrSetup}), "base"},
	}
	for _, tt := range tests {
		if got := Side(tt.err); got != tt.want {
			t.Errorf("Side(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
	if !errors.Is(&SideError{Side: "base", Err: ErrSetup}, ErrSetup) {
		t.Error("a SideError does not unwrap to its error")
	}
}

func TestIntersect(t *testing.T) {
	common, onlyBase, onlyHead := Intersect([]string{"a", "b", "c"}, []string{"d", "c", "a"})
	if !slices.Equal(common, []string{"c", "a"}) || !slices.Equal(onlyBase, []string{"b"}) || !slices.Equal(onlyHead, []string{"d"}) {
		t.Errorf("Intersect = %q, %q, %q; want [c a], [b], [d]", common, onlyBase, onlyHead)
	}
}

// TestNotStarted: a part's NoHandshake is added to the failure to start
// its worker when the process sent no handshake, and only then: not to
// another failure, not when the start was cancelled, not when the part
// names no cause.
func TestNotStarted(t *testing.T) {
	silent := fmt.Errorf("the x worker (x.test) %w: the worker exited", worker.ErrNotStarted)
	other := fmt.Errorf("%w: no handshake", worker.ErrIncompatible)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	const cause = "its TestMain (x_test.go) ended the test binary"
	for _, tt := range []struct {
		name string
		ctx  context.Context
		part Part
		err  error
		want string
	}{
		{"no handshake", context.Background(), Part{NoHandshake: cause}, silent, silent.Error() + ": " + cause},
		{"no cause named", context.Background(), Part{}, silent, silent.Error()},
		{"another failure", context.Background(), Part{NoHandshake: cause}, other, other.Error()},
		{"cancelled", cancelled, Part{NoHandshake: cause}, silent, silent.Error()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := notStarted(tt.ctx, tt.part, tt.err)
			if got.Error() != tt.want || !errors.Is(got, tt.err) {
				t.Errorf("%v, want %q wrapping the failure", got, tt.want)
			}
		})
	}
}

// TestProgramSays: what a program says of its parts' toolchain and
// patches is what every part says alike, and nothing when they differ
// or say nothing.
func TestProgramSays(t *testing.T) {
	const with, patched = "go1.27.3 (fetched by the go command; patches for go1.27: testing)", "patches for go1.27: testing"
	tests := []struct {
		name          string
		prog          Program
		with, patches string
	}{
		{"none", nil, "", ""},
		{"one part", Program{{BuiltWith: with, Patches: patched}}, with, patched},
		{"alike", Program{{BuiltWith: with, Patches: patched}, {BuiltWith: with, Patches: patched}}, with, patched},
		{"different", Program{{BuiltWith: with, Patches: patched}, {BuiltWith: "go1.26.8 (/usr/local/go)", Patches: ""}}, "", ""},
		{"unsaid", Program{{}, {}}, "", ""},
	}
	for _, tt := range tests {
		if w, p := tt.prog.BuiltWith(), tt.prog.Patches(); w != tt.with || p != tt.patches {
			t.Errorf("%s: built with %q, patches %q; want %q, %q", tt.name, w, p, tt.with, tt.patches)
		}
	}
}

// TestForKeys: a process that counts some benchmarks starts the parts of
// their packages only, in the program's order; the suite's one part
// serves every key.
func TestForKeys(t *testing.T) {
	prog := Program{{Package: "example.com/m/a"}, {Package: "example.com/m/b"}, {Package: "example.com/m/c"}}
	tests := []struct {
		keys []string
		want []string
	}{
		{[]string{results.Key("example.com/m/c", "BenchmarkX"), results.Key("example.com/m/a", "BenchmarkY/sub")}, []string{"example.com/m/a", "example.com/m/c"}},
		{[]string{results.Key("example.com/m/b", "BenchmarkZ")}, []string{"example.com/m/b"}},
		{nil, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range prog.ForKeys(tt.keys) {
			got = append(got, p.Package)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ForKeys(%q) = %q, want %q", tt.keys, got, tt.want)
		}
	}
	if suite := (Program{{}}).ForKeys([]string{"protobuf/small/serialize"}); len(suite) != 1 {
		t.Errorf("the suite's part: %d parts, want 1", len(suite))
	}
}
