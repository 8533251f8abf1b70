package gotest

import (
	"fmt"
	"strings"
	"testing"
)

func TestSplitPattern(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{".", "[[.]]"},
		{"Marshal/size=large", "[[Marshal size=large]]"},
		{"A/x|B", "[[A x] [B]]"},
		{"(A|B)/x", "[[(A|B) x]]"},
		{"[/|]x/y", "[[[/|]x y]]"},
		{`A\/B/c`, `[[A\/B c]]`},
		{"/x", "[[ x]]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(splitPattern(tt.pattern)); got != tt.want {
			t.Errorf("splitPattern(%q) = %s, want %s", tt.pattern, got, tt.want)
		}
	}
}

// TestSelect: a package is kept when the pattern's first level (of any
// alternative) matches one of its benchmark functions; a pattern that
// matches none is an error naming it, where it looked and what is there.
func TestSelect(t *testing.T) {
	pkgs := []Package{
		{ImportPath: "example.com/a", Internal: []string{"BenchmarkMarshal"}},
		{ImportPath: "example.com/b", Internal: []string{"BenchmarkUnmarshal"}, External: []string{"BenchmarkSize"}},
	}
	tests := []struct{ pattern, want string }{
		{".", "example.com/a example.com/b"},
		{"^BenchmarkMarshal$", "example.com/a"},
		{"Size/codec=json", "example.com/b"},
		{"Nothing|Unmarshal/x", "example.com/b"},
		{"/codec=json", "example.com/a example.com/b"},
	}
	for _, tt := range tests {
		got, err := Select(pkgs, tt.pattern, "./...")
		var paths []string
		for _, p := range got {
			paths = append(paths, p.ImportPath)
		}
		if err != nil || strings.Join(paths, " ") != tt.want {
			t.Errorf("Select(%q) = %q, %v; want %q", tt.pattern, paths, err, tt.want)
		}
	}
	_, err := Select(pkgs, "Decode", "./...")
	for _, want := range []string{`--bench "Decode" matches none of the 3 benchmark functions in ./...`, "example.com/a BenchmarkMarshal", "example.com/b BenchmarkSize"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no match: %v, want it to say %q", err, want)
		}
	}
}
