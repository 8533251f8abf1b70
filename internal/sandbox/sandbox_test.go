package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// openDir is a temporary directory, removed after the test, that every
// user can enter (t.TempDir's is under one of mode 0700).
func openDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEnviron: code from a pull request sees no token, no action input
// and no file-command path.
func TestEnviron(t *testing.T) {
	in := []string{
		"PATH=/usr/local/go/bin", "HOME=/github/home", "GODEBUG=madvdontneed=0", "GITHUB_SHA=abc", "GITHUB_REPOSITORY=o/r",
		"INPUT_GITHUB-TOKEN=ghs_secret1", "INPUT_BASE-PATH=base", "GITHUB_TOKEN=ghs_secret2", "GH_TOKEN=x",
		"ACTIONS_RUNTIME_TOKEN=t", "ACTIONS_ID_TOKEN_REQUEST_TOKEN=t", "ACTIONS_ID_TOKEN_REQUEST_URL=https://x", "NPM_TOKEN=t", "MY_SECRET=s",
		"GITHUB_ENV=/github/file_commands/set_env", "GITHUB_OUTPUT=/o", "GITHUB_STEP_SUMMARY=/s", "GITHUB_PATH=/p", "GITHUB_STATE=/st",
	}
	want := []string{"PATH=/usr/local/go/bin", "HOME=/github/home", "GODEBUG=madvdontneed=0", "GITHUB_SHA=abc", "GITHUB_REPOSITORY=o/r"}
	var none *Sandbox
	if got := none.Environ(in); !slices.Equal(got, want) {
		t.Errorf("Environ = %q, want %q", got, want)
	}
	s := &Sandbox{Dir: "/sb", Cache: "/cache"}
	got := s.GoEnv(append(in, "GOCACHE=/root/.cache/go-build"))
	for _, kv := range got {
		if kv == "HOME=/github/home" || kv == "GOCACHE=/root/.cache/go-build" || strings.HasPrefix(kv, "GITHUB_ENV") {
			t.Errorf("GoEnv kept %s", kv)
		}
	}
	for _, w := range []string{"HOME=/sb/home", "TMPDIR=/sb/tmp", "GOCACHE=/cache/go-build", "GOMODCACHE=/cache/go-mod"} {
		if !slices.Contains(got, w) {
			t.Errorf("GoEnv lacks %s: %q", w, got)
		}
	}
}

func TestParse(t *testing.T) {
	uid, gid, argv, err := Parse([]string{"--uid", "65534", "--gid", "65533", "--", "/bin/prog", "-x"})
	if err != nil || uid != 65534 || gid != 65533 || !slices.Equal(argv, []string{"/bin/prog", "-x"}) {
		t.Errorf("%d %d %q %v", uid, gid, argv, err)
	}
	for _, bad := range [][]string{nil, {"--uid", "0", "--gid", "1", "--", "p"}, {"--uid", "5", "--", "p"}, {"--uid", "5", "--gid", "5", "--"}, {"--bogus", "1"}} {
		if _, _, _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestNew: as root on Linux the sandbox is active and its directories
// belong to its user; otherwise it says why not, and Wrap runs the
// program as is.
func TestNew(t *testing.T) {
	s, err := New(openDir(t), "", "/wirebench")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path, args, _ := s.Wrap("/bin/true", []string{"-x"}, nil)
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		if s.Active || s.Why == "" || path != "/bin/true" {
			t.Errorf("active %v, why %q, wraps %s %q", s.Active, s.Why, path, args)
		}
		return
	}
	if !s.Active || path != "/wirebench" || args[0] != Command || args[len(args)-2] != "/bin/true" {
		t.Errorf("active %v, wraps %s %q", s.Active, path, args)
	}
	for _, d := range []string{filepath.Join(s.Dir, "home"), filepath.Join(s.Dir, "tmp"), s.Cache} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != UID {
			t.Errorf("%s belongs to %+v, want user %d", d, fi.Sys(), UID)
		}
	}
}

// TestNewOwnsCache: as root, New gives the go command's caches to the
// sandbox's user and leaves wirebench's copies of fetched toolchains
// (ToolchainDir) to wirebench: its user runs them and need not write.
func TestNewOwnsCache(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("only root can give files to another user")
	}
	cache := filepath.Join(openDir(t), "cache")
	for _, f := range []string{"go-mod/m/a.go", ToolchainDir + "/go1.27.3/bin/go"} {
		p := filepath.Join(cache, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(openDir(t), cache, "/wirebench")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for f, uid := range map[string]uint32{"": UID, "go-mod/m/a.go": UID, ToolchainDir: 0, ToolchainDir + "/go1.27.3/bin/go": 0} {
		fi, err := os.Stat(filepath.Join(cache, f))
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != uid {
			t.Errorf("%s belongs to user %d, want %d", filepath.Join(cache, f), st.Uid, uid)
		}
	}
}

// TestNotInTests: in a test binary, which has no sandbox command, the
// default sandbox is never active.
func TestNotInTests(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Active || s.Why == "" {
		t.Errorf("active %v in a test binary (%s)", s.Active, s.Why)
	}
}

// TestNewLeavesModes: the directories New makes on the way to the cache
// let every user through whatever the umask, and one that was there
// keeps its mode (the system's temporary directory, 1777, once lost its
// sticky bit and its write permission to a cache made in it).
func TestNewLeavesModes(t *testing.T) {
	dir := openDir(t)
	if err := os.Chmod(dir, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	defer syscall.Umask(syscall.Umask(0o077))
	for _, cache := range []string{filepath.Join(dir, "wirebench-cache"), filepath.Join(dir, "home", ".cache", "wirebench")} {
		s, err := New(dir, cache, "/wirebench")
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	for d, want := range map[string]os.FileMode{
		dir:                                   0o777 | os.ModeSticky,
		filepath.Join(dir, "wirebench-cache"): 0o755,
		filepath.Join(dir, "home"):            0o755,
		filepath.Join(dir, "home", ".cache"):  0o755,
	} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (os.ModePerm | os.ModeSticky); got != want {
			t.Errorf("%s: mode %v, want %v", d, got, want)
		}
	}
}

// TestBlocks: as root, the sandbox's user is barred from a tree under a
// directory of mode 0700 (what mktemp -d makes, and /root), and from a
// tree of that mode itself; the highest directory that bars the way is
// named. A sandbox that is not active is never barred.
func TestBlocks(t *testing.T) {
	open := openDir(t)
	var inactive *Sandbox
	if b, err := inactive.Blocks(open); b != nil || err != nil {
		t.Errorf("a nil sandbox: %v, %v", b, err)
	}
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("the sandbox is active only as root on Linux")
	}
	s, err := New(open, "", "/wirebench")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	closed := filepath.Join(open, "closed")
	tree := filepath.Join(closed, "inner", "tree")
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(closed, 0o700)
	os.Chmod(filepath.Join(closed, "inner"), 0o700)
	tests := []struct {
		tree, dir string
		mode      os.FileMode
	}{
		{open, "", 0},
		{tree, closed, os.ModeDir | 0o700},
		{filepath.Join(closed, "inner"), closed, os.ModeDir | 0o700},
	}
	for _, tt := range tests {
		b, err := s.Blocks(tt.tree)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.dir == "" && b != nil:
			t.Errorf("%s: %v, want nothing in the way", tt.tree, b)
		case tt.dir != "" && (b == nil || b.Dir != tt.dir || b.Mode != tt.mode):
			t.Errorf("%s: %v, want %s (%v) named", tt.tree, b, tt.dir, tt.mode)
		}
	}
	os.Chmod(closed, 0o711) // through, but not listable: fine
	os.Chmod(filepath.Join(closed, "inner"), 0o711)
	if b, _ := s.Blocks(tree); b != nil {
		t.Errorf("through directories of mode 0711: %v", b)
	}
	os.Chmod(tree, 0o700)
	if b, _ := s.Blocks(tree); b == nil || b.Dir != tree || !strings.Contains(b.Error(), "drwx------") {
		t.Errorf("a tree of mode 0700: %v", b)
	}
}

// TestView: the copy keeps every file's permission bits (a file closed to
// other users stays closed), copies links as links, leaves .git out, and
// can be entered by every user.
func TestView(t *testing.T) {
	s, err := New(openDir(t), "", "/wirebench")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tree := t.TempDir() // mode 0700
	files := map[string]os.FileMode{"go.mod": 0o644, "pkg/a.go": 0o644, "secret.json": 0o600, "run.sh": 0o755, ".git/config": 0o600}
	for name, mode := range files {
		p := filepath.Join(tree, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(name), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(tree, "link")); err != nil {
		t.Fatal(err)
	}
	view, err := s.View(tree)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(view); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the copy's directory: %v, %v", fi.Mode(), err)
	}
	for name, mode := range files {
		fi, err := os.Lstat(filepath.Join(view, name))
		if name == ".git/config" {
			if err == nil {
				t.Errorf("%s was copied", name)
			}
			continue
		}
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v, %v, want mode %v", name, fi, err, mode)
		}
	}
	if target, err := os.Readlink(filepath.Join(view, "link")); err != nil || target != "/etc/passwd" {
		t.Errorf("link: %q, %v", target, err)
	}
}

// TestProgram: a program the sandbox's user can reach is run where it is;
// one under a directory of mode 0700 (as `go install` as root puts one
// under /root) is copied where that user can execute it, once.
func TestProgram(t *testing.T) {
	var inactive *Sandbox
	if p, err := inactive.Program("/x/wirebench"); p != "/x/wirebench" || err != nil {
		t.Errorf("a nil sandbox: %q, %v", p, err)
	}
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("the sandbox is active only as root on Linux")
	}
	open := openDir(t)
	s, err := New(open, "", "/wirebench")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	reachable := filepath.Join(open, "wb")
	closed := filepath.Join(t.TempDir(), "wb") // mode 0700 above it
	for _, p := range []string{reachable, closed} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := s.Program(reachable); p != reachable || err != nil {
		t.Errorf("reachable: %q, %v; want it run where it is", p, err)
	}
	p, err := s.Program(closed)
	if err != nil || p == closed || !strings.HasPrefix(p, s.Dir) {
		t.Fatalf("behind 0700: %q, %v; want a copy under %s", p, err, s.Dir)
	}
	if b, err := s.Blocks(filepath.Dir(p)); b != nil || err != nil {
		t.Errorf("the copy's directory: %v, %v", b, err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the copy: %v, %v, want mode 0755", fi, err)
	}
	if again, err := s.Program(closed); again != p || err != nil {
		t.Errorf("second call: %q, %v, want the same copy %q", again, err, p)
	}
}
