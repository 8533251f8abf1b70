package gotest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HashVersion names the way Hash is computed: it is part of every hash,
// so that a stored hash of another wirebench's making never matches.
const HashVersion = "wirebench-test-binary-1"

// Hash is the identity of what a package's benchmarks run: the sha256 of
// its test binary as built for measuring (built with -trimpath, so two
// checkouts of the same code in different directories give the same
// bytes, and with the same overlay, seed patch and build flags on both
// sides), of the files of the package's directory tree that are not
// compiled Go source (testdata and the like, which the benchmarks may
// read), and of what decides the binary but might not show in it: the
// toolchain's version, GOOS/GOARCH and the build flags. Two packages of
// one hash run the same instructions on the same inputs: their counts can
// differ only by the noise of processes, their times only by the machine.
//
// What the tree leaves out: directories named .git, nested modules
// (a go.mod of their own), and .go files outside testdata and the
// directories the go command ignores (_ or . first), which are source:
// of this package (in the binary) or of another one (in its own).
// Benchmarks that read files elsewhere (above the package, by absolute
// path, from the network) are not covered: the measure-all setting
// measures every package whatever its hash.
//
// toolchain is what the go command says of itself (goenv: version,
// GOOS, GOARCH); flags are the build flags. A pkgDir of "" hashes no
// files: a program that reads none (the embedded suite's).
func Hash(binary, pkgDir, toolchain string, flags []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%q\x00", HashVersion, toolchain, flags)
	if err := hashFile(h, "binary", binary); err != nil {
		return "", err
	}
	if pkgDir == "" {
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	files, err := treeFiles(pkgDir)
	if err != nil {
		return "", fmt.Errorf("hash the files of %s: %w", pkgDir, err)
	}
	for _, f := range files {
		if err := hashFile(h, filepath.ToSlash(f), filepath.Join(pkgDir, f)); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile writes name, the file's size and its bytes to h.
func hashFile(h io.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	fmt.Fprintf(h, "%s\x00%d\x00", name, fi.Size())
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	return nil
}

// treeFiles are the files of dir's tree that Hash covers, relative to
// dir, sorted. A symbolic link is hashed as its target's bytes where it
// points at a file, as its target's name otherwise (a link to a directory
// is not followed).
func treeFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".go") && !dataDir(rel) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
				return nil // a dangling link or one to a directory
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		out = append(out, rel)
		return nil
	})
	slices.Sort(out)
	return out, err
}

// dataDir reports whether the file rel (relative to a package's
// directory) is in a directory the go command does not compile:
// testdata, or one whose name starts with _ or .
func dataDir(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts[:len(parts)-1] {
		if p == "testdata" || strings.HasPrefix(p, "_") || strings.HasPrefix(p, ".") {
			return true
		}
	}
	return false
}
