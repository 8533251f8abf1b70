package gotest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fetched is a known release's test toolchain other than the installed
// Go's release, newest first, and the environment in which the go
// command fetches it (releaseEnv): a toolchain the go command keeps in
// its module cache.
func fetched(t *testing.T) (release, version string, env []string) {
	t.Helper()
	installed, err := goEnvIn(t, append(os.Environ(), "GOTOOLCHAIN=local"), "GOVERSION")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	known := KnownReleases()
	slices.Reverse(known)
	for _, r := range known {
		if r != Release(installed) {
			return r, testToolchains[r], releaseEnv(t, r)
		}
	}
	t.Fatalf("every known release is the installed Go's (%s)", installed)
	return "", "", nil
}

// TestUseToolchain: the toolchain the go command picks, and where the
// build runs it from: an installed one as it is; one fetched into the
// module cache as it is for a build that patches nothing, and from a
// copy outside the module cache for one that patches (the go command
// refuses to replace a file beneath GOMODCACHE), the copy a toolchain of
// its own (its go command says the copy is its GOROOT), made once.
func TestUseToolchain(t *testing.T) {
	ctx := context.Background()
	_, version, env := fetched(t)
	tests := []struct {
		name    string
		env     []string
		hooks   bool
		fetched bool
		copied  bool
	}{
		{"installed, patched", append(os.Environ(), "GOTOOLCHAIN=local"), true, false, false},
		{"fetched, not patched", env, false, true, false},
		{"fetched, patched", env, true, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			tree := Tree{Dir: t.TempDir(), Env: tt.env, TimerHooks: tt.hooks, ToolchainCache: cache}
			got, tc, err := UseToolchain(ctx, tree)
			if err != nil {
				t.Fatal(err)
			}
			if tc.Fetched != tt.fetched || (tc.Copy != "") != tt.copied || got.Toolchain == nil || *got.Toolchain != tc {
				t.Fatalf("toolchain %+v (tree's %+v), want fetched %v, copied %v", tc, got.Toolchain, tt.fetched, tt.copied)
			}
			if tt.fetched && tc.Version != version {
				t.Errorf("version %s, want %s", tc.Version, version)
			}
			root, err := goCommand(ctx, got, "env", "GOROOT")
			if err != nil || strings.TrimSpace(string(root)) != tc.Root() {
				t.Errorf("the build's go command says GOROOT %q (%v), want %s", root, err, tc.Root())
			}
			if !tt.copied {
				return
			}
			if !strings.HasPrefix(tc.Copy, cache+string(filepath.Separator)) || within(tc.Copy, tc.GOROOT) || tc.Made <= 0 {
				t.Errorf("copy %s (made in %v) of %s: want a new one under %s", tc.Copy, tc.Made, tc.GOROOT, cache)
			}
			sameFiles(t, tc.GOROOT, tc.Copy, "bin/go", "src/runtime/rand.go", "VERSION")
			if tc.Linked && !sameInode(t, filepath.Join(tc.GOROOT, "VERSION"), filepath.Join(tc.Copy, "VERSION")) {
				t.Error("the copy says its files are linked, and VERSION is not")
			}
			_, again, err := UseToolchain(ctx, tree)
			if err != nil || again.Copy != tc.Copy || again.Made != 0 {
				t.Errorf("again: %+v, %v; want the copy there (%s), not made again", again, err, tc.Copy)
			}
		})
	}
}

// sameFiles fails the test unless each of rels has the same content
// under a and b.
func sameFiles(t *testing.T, a, b string, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		x, err1 := os.ReadFile(filepath.Join(a, rel))
		y, err2 := os.ReadFile(filepath.Join(b, rel))
		if err1 != nil || err2 != nil || string(x) != string(y) {
			t.Errorf("%s differs between %s and %s (%v, %v)", rel, a, b, err1, err2)
		}
	}
}

// sameInode reports whether a and b are one file (hard links of it).
func sameInode(t *testing.T, a, b string) bool {
	t.Helper()
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return os.SameFile(x, y)
}

// minor is the minor version of a release ("go1.27": 27), -1 for "".
func minor(release string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(release, "go1."))
	if err != nil {
		return -1
	}
	return n
}

// TestToolchainCopyRace: processes that need the copy at once (here
// goroutines, as two wirebench runs sharing a cache would) all get the
// one copy, whole, and leave no temporary directory behind.
func TestToolchainCopyRace(t *testing.T) {
	ctx := context.Background()
	_, _, env := fetched(t)
	cache := t.TempDir()
	tree := Tree{Dir: t.TempDir(), Env: env, TimerHooks: true, ToolchainCache: cache}
	const n = 4
	var wg sync.WaitGroup
	copies := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tc Toolchain
			_, tc, errs[i] = UseToolchain(ctx, tree)
			copies[i] = tc.Copy
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || copies[i] == "" || copies[i] != copies[0] {
			t.Errorf("process %d: copy %q, %v; want %q", i, copies[i], errs[i], copies[0])
		}
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || filepath.Join(cache, entries[0].Name()) != copies[0] {
		t.Errorf("the cache holds %v, want the copy alone", entries)
	}
}

// TestBuildFetchedToolchain: a module whose go.mod asks for a Go the
// installed one is not is built for counting with the toolchain the go
// command fetches for it (GOTOOLCHAIN=auto, as the action runs it), its
// release's whole patch set applied (the go command refused the overlay
// of a toolchain in its module cache before the copy), and its worker
// lists and runs the benchmarks.
func TestBuildFetchedToolchain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries with another toolchain")
	}
	ctx := context.Background()
	release, version, _ := fetched(t)
	choose := "GOTOOLCHAIN=auto"
	if installed, _ := goEnvIn(t, append(os.Environ(), "GOTOOLCHAIN=local"), "GOVERSION"); minor(Release(installed)) > minor(release) {
		choose = "GOTOOLCHAIN=" + version // auto would keep the newer installed Go
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":      "module example.com/fetched\n\ngo " + strings.TrimPrefix(version, "go") + "\n",
		"sum.go":      "package sum\n\nfunc Sum(m map[string]int) (s int) {\n\tfor _, v := range m {\n\t\ts += v\n\t}\n\treturn s\n}\n",
		"sum_test.go": "package sum\n\nimport \"testing\"\n\nfunc BenchmarkSum(b *testing.B) {\n\tm := map[string]int{\"a\": 1, \"b\": 2, \"c\": 3}\n\tfor b.Loop() {\n\t\tSum(m)\n\t}\n}\n",
	})
	tree := Tree{Dir: dir, Env: append(os.Environ(), choose), TimerHooks: true, ToolchainCache: t.TempDir()}
	pkgs, err := Discover(ctx, tree, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	bins, troubles, err := Build(ctx, tree, pkgs, t.TempDir())
	if err != nil || len(troubles) > 0 {
		t.Fatalf("build with %s (%s): %v %v", version, choose, troubles, err)
	}
	b := bins[0]
	if b.Go.Version != version || !b.Go.Fetched || b.Go.Copy == "" || b.Patches == nil || !b.Patches.Seeded() || len(b.Patches.Skipped) > 0 {
		t.Fatalf("built with %+v, patches %+v; want %s fetched, run from a copy, its whole set applied", b.Go, b.Patches, version)
	}
	want := version + " (fetched by the go command; patches for " + release + ": testing, runtime seed, sched, code)"
	if got := b.BuiltWith(); got != want {
		t.Errorf("built with %q, want %q", got, want)
	}
	var diag strings.Builder
	c := startWorker(t, b, &diag)
	if names, troubles, err := c.List(ctx, "."); err != nil || len(troubles) > 0 || !slices.Equal(names, []string{"BenchmarkSum"}) {
		t.Fatalf("listed %q, %v, %v\n%s", names, troubles, err, diag.String())
	}
	if s, err := c.Run(ctx, "BenchmarkSum", 100, 0); err != nil || s.Iterations != 100 {
		t.Errorf("run: %+v, %v\n%s", s, err, diag.String())
	}
}

// TestLinkTree: the copy of a tree has its directories (open to every
// user), its files (hard links, with their content and mode) and its
// symbolic links as links, never followed.
func TestLinkTree(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	writeFiles(t, src, map[string]string{"bin/go": "#!go", "src/runtime/rand.go": "package runtime\n"})
	if err := os.Chmod(filepath.Join(src, "bin", "go"), 0o555); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "src", "link")); err != nil {
		t.Fatal(err)
	}
	linked, err := linkTree(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, src, dst, "bin/go", "src/runtime/rand.go")
	if fi, err := os.Stat(filepath.Join(dst, "bin", "go")); err != nil || fi.Mode().Perm() != 0o555 {
		t.Errorf("bin/go: %v, %v; want mode 0555", fi, err)
	}
	if same := sameInode(t, filepath.Join(src, "bin", "go"), filepath.Join(dst, "bin", "go")); linked != same {
		t.Errorf("linkTree says linked %v; bin/go is one file with its source: %v", linked, same)
	}
	if target, err := os.Readlink(filepath.Join(dst, "src", "link")); err != nil || target != "/etc/passwd" {
		t.Errorf("the link: %q, %v; want a link to /etc/passwd", target, err)
	}
	if fi, err := os.Stat(filepath.Join(dst, "src")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("src: %v, %v; want mode 0755", fi, err)
	}
}

// TestCopyFileRefusesAnother: a file copied must be the one the walk
// saw; another in its place since (a link to another file) is refused.
func TestCopyFileRefusesAnother(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"seen": "a", "other": "b"})
	seen, err := os.Lstat(filepath.Join(dir, "seen"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"the file seen", "seen", true},
		{"another in its place", "other", false},
	}
	for _, tt := range tests {
		err := copyFile(filepath.Join(dir, tt.src), filepath.Join(t.TempDir(), "copy"), seen)
		if (err == nil) != tt.ok {
			t.Errorf("%s: %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
