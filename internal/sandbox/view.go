package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Blocked says why the sandbox's user cannot reach a tree: a directory on
// the way to it (or the tree's own), Dir, whose Mode does not let that
// user through.
type Blocked struct {
	Dir  string
	Mode fs.FileMode
}

func (b *Blocked) Error() string {
	return fmt.Sprintf("user %d cannot enter %s (%s)", UID, b.Dir, b.Mode)
}

// Blocks reports what keeps the sandbox's user from reaching the tree at
// root: every directory above it must let that user through (search
// permission) and root itself must also be listable. It returns nil when
// nothing does, or when the sandbox is not active (the code then runs as
// this process's user, who reached root to name it). Every `mktemp -d`
// directory is one that bars the way (mode 0700), and so is /root.
func (s *Sandbox) Blocks(root string) (*Blocked, error) {
	if s == nil || !s.Active {
		return nil, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// The highest directory that bars the way is the one to name: opening
	// it may be all that is needed.
	var dirs []string
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		dfi, err := os.Stat(dirs[i])
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		if !sandboxMay(dfi, 0o1) {
			return &Blocked{Dir: dirs[i], Mode: dfi.Mode()}, nil
		}
	}
	if !sandboxMay(fi, 0o5) {
		return &Blocked{Dir: abs, Mode: fi.Mode()}, nil
	}
	return nil, nil
}

// View makes a copy of the tree at root that the sandbox's user can reach,
// under the sandbox's directory (removed by Close), and returns its path.
// Only the way in is opened: the copy's own directory can be listed by
// every user, and everything in it keeps its permission bits, so the
// sandbox's user reads in the copy exactly what it could read in the tree
// if the directories above it let it through (a file of mode 0600 stays
// closed to it). Symbolic links are copied as links, never followed: the
// copy is made as root, and must not open what a link points to.
// Directories named .git are left out: the builds do not stamp version
// control information, and a checkout's credentials may be in them.
func (s *Sandbox) View(root string) (string, error) {
	trees := filepath.Join(s.Dir, "trees")
	if err := os.MkdirAll(trees, 0o755); err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	dst, err := os.MkdirTemp(trees, filepath.Base(root)+"-")
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	if err := copyTree(root, dst); err != nil {
		return "", fmt.Errorf("sandbox: copy %s for user %d: %w", root, UID, err)
	}
	if err := os.Chmod(dst, 0o755); err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	return dst, nil
}

// copyTree copies the tree at src into the existing directory dst (see
// View for what is copied, and how).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case rel == ".":
			return nil
		case d.IsDir():
			if err := os.Mkdir(to, 0o700); err != nil {
				return err
			}
			return os.Chmod(to, fi.Mode().Perm()) // root fills it whatever its bits
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyRegular(path, to, fi.Mode().Perm())
		}
		return nil // devices, sockets, pipes: nothing a build reads
	})
}

// copyRegular copies the regular file src to dst with the permission
// bits perm.
func copyRegular(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
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
	return os.Chmod(dst, perm)
}

// Program returns a path at which the sandbox's user can execute (and
// Valgrind read) the program at path: path itself when that user reaches
// it, else a copy under the sandbox's directory (removed by Close).
// wirebench's own binary is the embedded suite's worker, and `go install`
// as root puts it under /root, which no other user can enter.
func (s *Sandbox) Program(path string) (string, error) {
	if s == nil || !s.Active {
		return path, nil
	}
	b, err := s.Blocks(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	if b == nil && sandboxMay(fi, 0o5) {
		return path, nil
	}
	bin := filepath.Join(s.Dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	if err := os.Chmod(bin, 0o755); err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	dst := filepath.Join(bin, filepath.Base(abs)+"-"+hex.EncodeToString(sum[:4]))
	if _, err := os.Stat(dst); err == nil {
		return dst, nil // copied before, in this sandbox
	}
	if err := copyRegular(abs, dst, 0o755); err != nil {
		return "", fmt.Errorf("sandbox: copy %s for user %d: %w", path, UID, err)
	}
	return dst, nil
}
