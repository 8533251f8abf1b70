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
// runtime patched (runtimeOverlay) and runs it: with the same seed in
// SeedVar two processes draw the same map iteration order, sync.Map
// walk, unseeded math/rand and math/rand/v2 values; another seed draws
// others, and so does every process without the variable, as an
// unpatched runtime's do.
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
	target, src, ok, err := runtimeOverlay(ctx, Tree{Dir: dir}, patched)
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
	run := func(seed string) string {
		cmd := exec.Command(bin)
		cmd.Env = os.Environ()
		if seed != "" {
			cmd.Env = append(cmd.Env, SeedVar+"="+seed)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	a, b, c := run("12345"), run("12345"), run("12346")
	if a != b {
		t.Errorf("seed 12345 twice drew %q and %q", a, b)
	}
	if a == c {
		t.Errorf("seeds 12345 and 12346 drew the same %q", a)
	}
	if x, y := run(""), run(""); x == y {
		t.Errorf("two processes without a seed drew the same %q", x)
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
