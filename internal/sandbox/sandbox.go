// Package sandbox runs code built from a pull request away from what the
// action holds: the token, the runner's file commands (GITHUB_ENV,
// GITHUB_OUTPUT, the job summary), and the action's own process.
//
// In the action's container wirebench runs as root, as Docker actions
// must. Every go command that builds the base or the head and every worker
// that runs them is started as a fixed unprivileged user (UID), with
// no_new_privs set (no setuid program can give privileges back), its own
// home and temporary directory, and an environment without the action's
// inputs, tokens and file-command paths. As another user it can read
// neither /proc/<wirebench>/environ nor the file-command files (owned by
// the runner), and can write nothing of the workspace. The switch happens
// in wirebench's own binary (`wirebench sandbox`, see Exec) just before it
// executes the real program, since Go's os/exec cannot set no_new_privs.
//
// Where wirebench is not root (a developer's machine) it cannot switch
// users: the code then runs as wirebench does, with the environment
// still cleaned, and Sandbox.Why says so, for the report.
package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// UID and GID are the unprivileged user untrusted code runs as: nobody's
// on most systems, and nobody at all in the action's image.
const (
	UID = 65534
	GID = 65534
)

// Command is the hidden command of wirebench's binary that drops to the
// sandbox's user and executes a program (see Exec).
const Command = "sandbox"

// Sandbox is where and how untrusted code runs. A nil *Sandbox runs it as
// is (only the environment is cleaned), for tests.
type Sandbox struct {
	// Active is set when the code runs as UID; Why says why not.
	Active bool
	Why    string
	// Dir holds the sandbox's home and temporary directory, owned by UID.
	Dir string
	// Cache holds the go command's build and module caches for the
	// sandbox's user, kept between runs (under the real home, where
	// actions/cache can save them) and given to that user.
	Cache string
	// self is wirebench's own executable, which makes the switch.
	self string
}

// New prepares a sandbox under dir (a directory of its own is made
// there): active when this process is root on Linux. cache, when not "",
// is where the go command's caches are kept between runs. self is the
// wirebench executable that makes the switch (its `sandbox` command); ""
// means this process's own, unless it is a test binary, which has no
// such command: the sandbox is then not active.
func New(dir, cache, self string) (*Sandbox, error) {
	d, err := os.MkdirTemp(dir, "wirebench-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s := &Sandbox{Dir: d, Cache: cache}
	if s.Cache == "" {
		s.Cache = filepath.Join(d, "cache")
	}
	if err := mkdirOpen(s.Cache); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	for _, sub := range []string{"home", "tmp"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o700); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	switch {
	case runtime.GOOS != "linux":
		s.Why = "not on Linux: the pull request's code ran as wirebench's own user"
	case os.Geteuid() != 0:
		s.Why = fmt.Sprintf("wirebench runs as user %d, not root, so it cannot switch users: the pull request's code ran as that user (in the action's container it runs as an unprivileged user)", os.Geteuid())
	case self == "" && testing.Testing():
		s.Why = "a test binary cannot switch users (it has no sandbox command): the code ran as wirebench's own user"
	default:
		if self == "" {
			var err error
			if self, err = os.Executable(); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
		}
		s.self, s.Active = self, true
		if err := os.Chmod(d, 0o755); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		// Its user must reach its home, its temporary directory and the
		// builds, all made under d: fail now, not in the first build.
		if b, err := s.Blocks(d); err != nil || b != nil {
			s.Close()
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("sandbox: %v, where wirebench makes the directories its builds and workers run in: set TMPDIR to a directory every user can enter (e.g. TMPDIR=/tmp)", b)
		}
		if err := s.Own(filepath.Join(d, "home")); err != nil {
			return nil, err
		}
		if err := s.Own(filepath.Join(d, "tmp")); err != nil {
			return nil, err
		}
		if err := s.own(s.Cache, ToolchainDir); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// mkdirOpen makes the directory dir and those above it that do not
// exist, each of mode 0755 whatever the umask: every directory wirebench
// makes on the way to the cache must let the sandbox's user through. It
// never changes the mode of a directory that was there (the cache may be
// under the system's temporary directory, whose mode is not wirebench's
// to change).
func mkdirOpen(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range missing {
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// GoEnv is Environ for the go command: the caches kept between runs.
func (s *Sandbox) GoEnv(env []string) []string {
	env = s.Environ(env)
	if s == nil {
		return env
	}
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name != "GOCACHE" && name != "GOMODCACHE" && name != "GOPATH" {
			out = append(out, kv)
		}
	}
	return append(out, "GOCACHE="+filepath.Join(s.Cache, "go-build"), "GOMODCACHE="+filepath.Join(s.Cache, "go-mod"),
		"GOPATH="+filepath.Join(s.Cache, "go-path"))
}

// Default is the sandbox wirebench uses: its home and temporary directory
// under the system's, and the go command's caches under this process's
// home, in .cache/wirebench (in the action, /github/home, which
// actions/cache can keep between jobs: see the README).
func Default() (*Sandbox, error) { return New("", DefaultCache(), "") }

// DefaultCache is where Default keeps the go command's caches: under this
// process's home when the sandbox's user can reach it, otherwise under
// the system's temporary directory.
func DefaultCache() string {
	if home, err := os.UserHomeDir(); err == nil && reachable(home) {
		return filepath.Join(home, ".cache", "wirebench")
	}
	return filepath.Join(os.TempDir(), "wirebench-cache")
}

// reachable reports whether another user can traverse dir and every
// directory above it (a home of mode 0700 is not), so the sandbox's user
// can reach a cache below it.
func reachable(dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return true
		}
		d = parent
	}
}

// Close removes the sandbox's directory.
func (s *Sandbox) Close() error {
	if s == nil {
		return nil
	}
	return os.RemoveAll(s.Dir)
}

// Home is the sandbox's home directory ("" for a nil sandbox).
func (s *Sandbox) Home() string {
	if s == nil {
		return ""
	}
	return filepath.Join(s.Dir, "home")
}

// ToolchainDir is the directory of the cache where wirebench keeps its
// copies of the toolchains the go command fetched (internal/gotest's
// UseToolchain): wirebench makes them, and the sandbox's user only runs
// them, so New does not give them to it (nor walks their thousands of
// files on every run).
const ToolchainDir = "go-toolchain"

// Own gives the tree at path to the sandbox's user, so the code can
// write there (a build cache, a build's output directory). It does
// nothing when the sandbox is not active.
func (s *Sandbox) Own(path string) error { return s.own(path, "") }

// own is Own of the tree at path but its entry named except ("" none).
func (s *Sandbox) own(path, except string) error {
	if s == nil || !s.Active {
		return nil
	}
	skip := ""
	if except != "" {
		skip = filepath.Join(path, except)
	}
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == skip && d.IsDir() {
			return filepath.SkipDir
		}
		return os.Lchown(p, UID, GID)
	})
	if err != nil {
		return fmt.Errorf("sandbox: give %s to user %d: %w", path, UID, err)
	}
	return nil
}

// Wrap returns the program, arguments and environment that run path with
// args as the sandbox's user, env cleaned (see Environ).
func (s *Sandbox) Wrap(path string, args, env []string) (string, []string, []string) {
	env = s.Environ(env)
	if s == nil || !s.Active {
		return path, args, env
	}
	wrapped := append([]string{Command, "--uid", strconv.Itoa(UID), "--gid", strconv.Itoa(GID), "--", path}, args...)
	return s.self, wrapped, env
}

// Environ is env without what untrusted code must not see (see Secret),
// with the sandbox's home and temporary directory.
func (s *Sandbox) Environ(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if Secret(name) {
			continue
		}
		if s != nil && (name == "HOME" || name == "TMPDIR") {
			continue
		}
		out = append(out, kv)
	}
	if s != nil {
		out = append(out, "HOME="+s.Home(), "TMPDIR="+filepath.Join(s.Dir, "tmp"))
	}
	return out
}

// Secret reports whether an environment variable must not reach code
// from a pull request: the action's inputs (the token among them), the
// runner's tokens and URLs to get them, the file-command paths through
// which a step sets outputs, environment and the job summary, and
// anything named like a credential.
func Secret(name string) bool {
	up := strings.ToUpper(name)
	switch {
	case strings.HasPrefix(up, "INPUT_"), strings.HasPrefix(up, "ACTIONS_"):
		return true
	case up == "GITHUB_ENV", up == "GITHUB_OUTPUT", up == "GITHUB_STEP_SUMMARY", up == "GITHUB_PATH", up == "GITHUB_STATE":
		return true
	case up == "GITHUB_TOKEN", up == "GH_TOKEN", up == "GITHUB_PAT":
		return true
	}
	return strings.Contains(up, "TOKEN") || strings.Contains(up, "SECRET") || strings.Contains(up, "PASSWORD")
}

// ErrUsage is returned by Parse for arguments that are not
// `--uid U --gid G -- PROGRAM ARGS...`.
var ErrUsage = errors.New("usage: sandbox --uid UID --gid GID -- PROGRAM [ARGS...]")

// Parse reads the sandbox command's arguments.
func Parse(args []string) (uid, gid int, argv []string, err error) {
	uid, gid = -1, -1
	for len(args) > 0 && args[0] != "--" {
		if len(args) < 2 {
			return 0, 0, nil, ErrUsage
		}
		n, err := strconv.Atoi(args[1])
		if err != nil || n <= 0 {
			return 0, 0, nil, ErrUsage
		}
		switch args[0] {
		case "--uid":
			uid = n
		case "--gid":
			gid = n
		default:
			return 0, 0, nil, ErrUsage
		}
		args = args[2:]
	}
	if len(args) < 2 || uid <= 0 || gid <= 0 {
		return 0, 0, nil, ErrUsage
	}
	return uid, gid, args[1:], nil
}
