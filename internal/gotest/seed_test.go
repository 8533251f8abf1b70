package gotest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchRuntimeSeed builds a program with the installed toolchain's
// runtime patched (runtimeOverlay) and runs it ten times a setting, as
// counted processes run (GOMAXPROCS=1): with one seed its unseeded
// math/rand and math/rand/v2 values come from that seed's stream (a few
// values again and again: which goroutine takes which draw of the
// stream still depends on scheduling, and 20 runs of this program beside
// load gave 3 outcomes), another seed's from another stream (no value in
// common), and without the variable every value is new, as an unpatched
// runtime's are.
func TestPatchRuntimeSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runtime again (about 20 s on a cold cache)")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/seed\n\ngo 1.22\n",
		"main.go": `package main

import (
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
)

func main() {
	m := map[int]int{}
	for i := range 64 {
		m[i] = i
	}
	n := 0
	for k := range m {
		if n++; n > 8 {
			break
		}
		fmt.Print(k, " ")
	}
	fmt.Println(rand.Int63(), randv2.Uint64())
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	patched := t.TempDir()
	root, err := goroot(ctx, Tree{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	target, src, ok, err := runtimeOverlay(root, patched)
	if err != nil || !ok {
		t.Fatalf("the installed toolchain's runtime does not take the seed patch: ok %v, %v", ok, err)
	}
	overlay := filepath.Join(patched, "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"Replace": {"`+target+`": "`+src+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "seed")
	build := exec.Command("go", "build", "-overlay", overlay, "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build with the patched runtime: %v\n%s", err, out)
	}
	draws := func(seed string) map[string]bool {
		values := map[string]bool{}
		for range 10 {
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
			if seed != "" {
				cmd.Env = append(cmd.Env, SeedVar+"="+seed)
			}
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			f := strings.Fields(string(out))
			if len(f) < 2 {
				t.Fatalf("the program printed %q", out)
			}
			values[f[len(f)-2]], values[f[len(f)-1]] = true, true
		}
		return values
	}
	a, b, none := draws("12345"), draws("12346"), draws("")
	if len(a) > 10 {
		t.Errorf("seed 12345: %d distinct values in 20 draws of 10 processes, want the seed's few: %v", len(a), a)
	}
	for v := range a {
		if b[v] {
			t.Errorf("seeds 12345 and 12346 both drew %s", v)
		}
	}
	if len(none) != 20 {
		t.Errorf("without a seed: %d distinct values in 20 draws, want every one new", len(none))
	}
}

// TestPatchRuntimeSeedText: the patch needs its text once; anything else
// is left unpatched (counted unseeded), never half patched.
func TestPatchRuntimeSeedText(t *testing.T) {
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"the text once", "package runtime\n\nimport (\n\t\"unsafe\"\n)\n\nfunc randinit() {\n" + seedPatch.old + "\t}\n}\n", true},
		{"rewritten", "package runtime\n\nimport (\n\t\"unsafe\"\n)\n\nfunc randinit() {\n\tseed := readSeed()\n}\n", false},
		{"twice", "package runtime\n\nimport (\n\t\"unsafe\"\n)\n" + seedPatch.old + seedPatch.old, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := PatchRuntimeSeed(tt.src)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if ok && (!strings.Contains(out, "wirebenchSeed()") || !strings.Contains(out, SeedVar)) {
				t.Errorf("patched text lacks the seed's reading:\n%s", out)
			}
		})
	}
}
