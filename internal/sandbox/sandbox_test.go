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
	s, err := New(t.TempDir(), "", "/wirebench")
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
