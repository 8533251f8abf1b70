package reporttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden compares got with the file at path, naming the first line that
// differs, or with rewrite (a test's -update flag) writes got there.
func Golden(t testing.TB, path, got string, rewrite bool) {
	t.Helper()
	if rewrite {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the package's tests with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got: %q\nwant: %q\n(review, then run the package's tests with -update)", path, i+1, g, w)
			}
		}
	}
}
