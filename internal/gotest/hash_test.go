package gotest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// hashModule is a module of two packages with benchmarks, the second
// importing the first, with testdata in the second.
var hashModule = map[string]string{
	"go.mod":       "module example.com/h\n\ngo 1.22\n",
	"README.md":    "a module\n",
	"leaf/leaf.go": "package leaf\n\nfunc Work(n int) int { s := 0; for i := range n { s += i }; return s }\n",
	"leaf/leaf_test.go": `package leaf

import "testing"

func BenchmarkWork(b *testing.B) { for range b.N { Work(100) } }
`,
	"user/user.go": "package user\n\nimport \"example.com/h/leaf\"\n\nfunc Use() int { return leaf.Work(10) }\n",
	"user/user_test.go": `package user

import (
	"os"
	"testing"
)

func BenchmarkUse(b *testing.B) {
	data, _ := os.ReadFile("testdata/in.txt")
	for range b.N { _ = Use() + len(data) }
}
`,
	"user/testdata/in.txt":    "input\n",
	"user/testdata/golden.go": "package golden // data, not source\n",
}

// buildHashes builds the module files in a directory of its own and
// returns each package's hash by import path.
func buildHashes(t *testing.T, files map[string]string, hooks bool) map[string]string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "src"), files)
	tree := Tree{Dir: filepath.Join(dir, "src"), TimerHooks: hooks}
	ctx := context.Background()
	pkgs, err := Discover(ctx, tree, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	bins, _, err := Build(ctx, tree, pkgs, filepath.Join(dir, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, b := range bins {
		out[b.Package.ImportPath] = b.Hash
	}
	return out
}

func with(files map[string]string, name, content string) map[string]string {
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	out[name] = content
	return out
}

// Two checkouts of the same code in different directories have the same
// hashes; a change reaches the packages it can reach and no others.
func TestHash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	base := buildHashes(t, hashModule, true)
	if len(base) != 2 || base["example.com/h/leaf"] == "" || base["example.com/h/user"] == "" || base["example.com/h/leaf"] == base["example.com/h/user"] {
		t.Fatalf("hashes %v: want two distinct", base)
	}
	for _, tc := range []struct {
		name    string
		files   map[string]string
		changed []string
	}{
		{"the same code elsewhere", hashModule, nil},
		{"a README", with(hashModule, "README.md", "edited\n"), nil},
		{"a comment after the leaf's code", with(hashModule, "leaf/leaf.go", hashModule["leaf/leaf.go"]+"\n// Work sums.\n"), nil},
		// Line numbers are in the binary (tracebacks, the profile's
		// lines): a comment that moves code makes another binary.
		{"a comment that moves the leaf's code", with(hashModule, "leaf/leaf.go", "package leaf\n\n// Work sums.\nfunc Work(n int) int { s := 0; for i := range n { s += i }; return s }\n"), []string{"example.com/h/leaf", "example.com/h/user"}},
		{"the leaf's code", with(hashModule, "leaf/leaf.go", "package leaf\n\nfunc Work(n int) int { s := 1; for i := range n { s += i }; return s }\n"), []string{"example.com/h/leaf", "example.com/h/user"}},
		{"the user's benchmark", with(hashModule, "user/user_test.go", "package user\n\nimport \"testing\"\n\nfunc BenchmarkUse(b *testing.B) { for range b.N { _ = Use() * 2 } }\n"), []string{"example.com/h/user"}},
		{"the user's testdata", with(hashModule, "user/testdata/in.txt", "other\n"), []string{"example.com/h/user"}},
		{"a .go file in testdata", with(hashModule, "user/testdata/golden.go", "package golden // changed\n"), []string{"example.com/h/user"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := buildHashes(t, tc.files, true)
			for pkg, h := range base {
				want := !containsString(tc.changed, pkg)
				if got := head[pkg] == h; got != want {
					t.Errorf("%s: same hash = %v, want %v", pkg, got, want)
				}
			}
		})
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTreeFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go": "", "a_test.go": "", "data.json": "", "testdata/x.go": "", "_old/y.go": "", "sub/z.go": "", "sub/z.txt": "",
		".git/HEAD": "", "nested/go.mod": "module n\n", "nested/n.txt": "",
	})
	if err := os.Symlink("data.json", filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	got, err := treeFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"_old/y.go", "data.json", "link.json", "sub/z.txt", "testdata/x.go"}
	if len(got) != len(want) {
		t.Fatalf("treeFiles = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("treeFiles = %q, want %q", got, want)
		}
	}
}
