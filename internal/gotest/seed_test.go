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
// counted processes run (GOMAXPROCS=1): with one seed every run prints the
// same map order and math/rand and math/rand/v2 values, also after
// blocking system calls, which can move the goroutine to another thread
// (with the seed alone, before the one stream, 20 runs beside load gave
// 3 outcomes); another seed prints other values, and without the variable
// every run draws new ones, as an unpatched runtime's do.
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
	"os"
)

func main() {
	order := func() {
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
	}
	order()
	for range 50 {
		b, err := os.ReadFile("/proc/self/stat")
		if err != nil || len(b) == 0 {
			panic(err)
		}
	}
	order()
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
	// runs returns how many runs printed each output.
	runs := func(seed string) map[string]int {
		outputs := map[string]int{}
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
			if len(strings.Fields(string(out))) != 18 {
				t.Fatalf("the program printed %q", out)
			}
			outputs[string(out)]++
		}
		return outputs
	}
	a, b, none := runs("12345"), runs("12346"), runs("")
	if len(a) != 1 {
		t.Errorf("seed 12345: %d outputs in 10 runs, want one: %v", len(a), a)
	}
	for out := range a {
		if b[out] > 0 {
			t.Errorf("seeds 12345 and 12346 both printed %q", out)
		}
	}
	if len(none) != 10 {
		t.Errorf("without a seed: %d outputs in 10 runs, want every one new: %v", len(none), none)
	}
}

// TestPatchRuntimeSeedText: the patch needs each of its texts once;
// anything else is left unpatched (counted unseeded), never half patched.
func TestPatchRuntimeSeedText(t *testing.T) {
	const head = "package runtime\n\nimport (\n\t\"unsafe\"\n)\n\n"
	var all strings.Builder
	all.WriteString(head)
	for _, p := range seedPatches {
		all.WriteString("func f() {\n" + p.old + "\t}\n}\n")
	}
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"every text once", all.String(), true},
		{"rewritten", head + "func randinit() {\n\tseed := readSeed()\n}\n", false},
		{"one text missing", strings.Replace(all.String(), seedPatches[1].old, "", 1), false},
		{"one text twice", all.String() + seedPatches[2].old, false},
		{"no import block", strings.Replace(all.String(), "import (", "import", 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := PatchRuntimeSeed(tt.src)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			for _, p := range seedPatches {
				if !strings.Contains(out, p.new) {
					t.Errorf("patched text lacks %q", p.new)
				}
			}
			if !strings.Contains(out, "func wirebenchSeed()") || !strings.Contains(out, SeedVar) {
				t.Errorf("patched text lacks the seed's reading:\n%s", out)
			}
		})
	}
}
