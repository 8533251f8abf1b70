package gotest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/sandbox"
)

// Toolchain is the Go toolchain that builds a tree's test binaries: the
// one the go command picks for the tree (its go.mod's go and toolchain
// lines, GOTOOLCHAIN), installed or fetched into the module cache.
type Toolchain struct {
	// Version is its go env GOVERSION ("go1.27.3").
	Version string
	// GOROOT is where the go command keeps it: the installed one's
	// directory, or the module cache's for one it fetched.
	GOROOT string
	// Fetched is set when GOROOT is in the go command's module cache.
	Fetched bool
	// Copy, for a fetched toolchain whose sources are patched, is the
	// copy of it that the go command runs from (see UseToolchain); "" to
	// run the go command as found in PATH.
	Copy string
	// Made is how long making Copy took in this run (0: it was there),
	// and Linked says whether its files are hard links of the module
	// cache's (a copy of each otherwise).
	Made   time.Duration
	Linked bool
}

// Root is the GOROOT the build patches and runs from: Copy, or GOROOT.
func (tc Toolchain) Root() string {
	if tc.Copy != "" {
		return tc.Copy
	}
	return tc.GOROOT
}

// String says which Go it is and where from: "go1.26.8 (/usr/local/go)"
// or "go1.27.3 (fetched by the go command)".
func (tc Toolchain) String() string {
	if tc.Fetched {
		return tc.Version + " (fetched by the go command)"
	}
	return fmt.Sprintf("%s (%s)", tc.Version, tc.GOROOT)
}

// ToolchainDir is the directory, under the cache the sandbox keeps
// between runs (beside its go-build and go-mod), that holds wirebench's
// copies of toolchains the go command fetched, one a version: the
// sandbox's user reads them, and does not own them.
const ToolchainDir = sandbox.ToolchainDir

// UseToolchain asks the go command which toolchain it builds t with (go
// env, as t's GOTOOLCHAIN says: the go command fetches the one the
// module asks for) and returns t set to build with it.
//
// The go command refuses an overlay that replaces a file beneath
// GOMODCACHE, so a toolchain it fetched there cannot take wirebench's
// patches of its testing package and runtime. For a tree whose build
// patches them (t.TimerHooks), such a toolchain runs from a copy outside
// the module cache instead (toolchainCopy): the go command finds its
// GOROOT from its own executable, and with GOROOT set and
// GOTOOLCHAIN=local it runs as it is (goCommand).
func UseToolchain(ctx context.Context, t Tree) (Tree, Toolchain, error) {
	out, err := goCommand(ctx, t, "env", "GOVERSION", "GOROOT", "GOMODCACHE")
	if err != nil {
		return t, Toolchain{}, fmt.Errorf("go env: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 || lines[0] == "" || lines[1] == "" {
		return t, Toolchain{}, fmt.Errorf("go env GOVERSION GOROOT GOMODCACHE said %q", out)
	}
	tc := Toolchain{Version: lines[0], GOROOT: lines[1], Fetched: within(lines[1], lines[2])}
	if tc.Fetched && t.TimerHooks {
		if tc.Copy, tc.Made, tc.Linked, err = toolchainCopy(ctx, t, tc); err != nil {
			return t, Toolchain{}, err
		}
	}
	t.Toolchain = &tc
	return t, tc, nil
}

// within reports whether path is dir or beneath it, as written or with
// symbolic links resolved (the go command compares the paths it is
// given; either may be a link).
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	beneath := func(p, d string) bool {
		rel, err := filepath.Rel(d, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	if beneath(filepath.Clean(path), filepath.Clean(dir)) {
		return true
	}
	p, err1 := filepath.EvalSymlinks(path)
	d, err2 := filepath.EvalSymlinks(dir)
	return err1 == nil && err2 == nil && beneath(p, d)
}

// toolchainCache is where t's copies of fetched toolchains are kept:
// t.ToolchainCache, or in the sandbox's cache (kept between runs: the
// README's actions/cache step), or for a tree without a sandbox the
// cache wirebench's default sandbox uses.
func toolchainCache(t Tree) string {
	if t.ToolchainCache != "" {
		return t.ToolchainCache
	}
	if t.Sandbox != nil {
		return filepath.Join(t.Sandbox.Cache, ToolchainDir)
	}
	return filepath.Join(sandbox.DefaultCache(), ToolchainDir)
}

// toolchainCopy returns wirebench's copy of the fetched toolchain tc,
// making it when it is not there yet: under toolchainCache, named as the
// module cache names it (toolchain@v0.0.1-go1.27.3.linux-amd64: one a
// version and platform), its files hard links of the module cache's
// where the file system allows (cheap: the directories are new, the
// files shared) and copies otherwise. The copy is made in a temporary
// directory beside it, checked (its go command must say it is its own
// GOROOT, of tc's version), and renamed into place: a copy that is there
// is whole, and of two processes making it at once one wins and the
// other uses the winner's. made is how long it took (0 when it was
// there).
func toolchainCopy(ctx context.Context, t Tree, tc Toolchain) (dir string, made time.Duration, linked bool, err error) {
	parent := toolchainCache(t)
	dir = filepath.Join(parent, filepath.Base(tc.GOROOT))
	if _, err := os.Stat(filepath.Join(dir, "bin", "go")); err == nil {
		return dir, 0, false, nil
	}
	start := time.Now()
	if err := mkdirOpen(parent); err != nil {
		return "", 0, false, fmt.Errorf("the copy of %s: %w", tc.Version, err)
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-"+filepath.Base(tc.GOROOT)+"-")
	if err != nil {
		return "", 0, false, fmt.Errorf("the copy of %s: %w", tc.Version, err)
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	if linked, err = linkTree(tc.GOROOT, tmp); err != nil {
		return "", 0, false, fmt.Errorf("copy %s out of the module cache (%s) into %s: %w", tc.Version, tc.GOROOT, parent, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", 0, false, err
	}
	if err := checkCopy(ctx, t, tmp, tc.Version); err != nil {
		return "", 0, false, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "bin", "go")); serr != nil {
			return "", 0, false, fmt.Errorf("the copy of %s: %w", tc.Version, err)
		}
		// Another process put its copy there first: it is whole.
	}
	return dir, time.Since(start), linked, nil
}

// checkCopy runs the go command of the copy at root, as the builds run it
// (the sandbox's user, GOTOOLCHAIN=local) but with GOROOT unset, and
// checks that it finds itself there, of version: the copy is a working
// toolchain.
func checkCopy(ctx context.Context, t Tree, root, version string) error {
	probe := t
	probe.Toolchain = &Toolchain{Version: version, Copy: root}
	out, err := goCommandEnv(ctx, probe, []string{"GOROOT="}, "env", "GOROOT", "GOVERSION")
	if err != nil {
		return fmt.Errorf("the copy of %s in %s does not run: %w", version, root, err)
	}
	got := strings.Fields(string(out))
	if len(got) != 2 || got[0] != root || got[1] != version {
		return fmt.Errorf("the copy of %s in %s says it is %q, not its own GOROOT and version", version, root, out)
	}
	return nil
}

// mkdirOpen makes dir and the directories above it that are missing,
// each of mode 0755 whatever the umask, so the sandbox's user can reach
// what is below.
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

// linkTree fills dst, an existing directory, with the tree at src: its
// directories made anew (mode 0755, so the copy can be removed as the
// module cache's read-only tree cannot), its files hard-linked, or copied
// with their mode where linking fails (another file system, a kernel that
// forbids linking another user's file), and its symbolic links copied as
// links, never followed: wirebench makes the copy as root, and the
// sandbox's user, whose code runs in earlier runs, owns the module cache.
// linked is false when any file was copied.
func linkTree(src, dst string) (linked bool, err error) {
	linked = true
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if err := os.Mkdir(to, 0o755); err != nil {
				return err
			}
			return os.Chmod(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			if linked {
				if err := os.Link(path, to); err == nil {
					return nil
				}
				linked = false
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return copyFile(path, to, fi)
		}
		return fmt.Errorf("%s is neither a file, a directory nor a link", path)
	})
	return linked, err
}

// copyFile copies the regular file src, as the walk saw it (seen, not
// followed), to dst, with its mode. The file opened must be that one: a
// link put in its place since (the module cache is the sandbox's user's)
// is refused, never followed.
func copyFile(src, dst string, seen fs.FileInfo) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || !os.SameFile(fi, seen) {
		return fmt.Errorf("%s changed while it was copied", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, fi.Mode().Perm())
}
