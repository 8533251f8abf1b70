package gotest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// seedProgram prints what a process draws from the runtime's random
// state: a map's iteration order before and after 50 blocking reads
// (which can move the goroutine to another thread) and math/rand's and
// math/rand/v2's unseeded global sources, all from the one stream (18
// fields), then a draw of cheaprand64, the profilers' cheap generator
// (go1.27's cheaprandu64, on a state of its own).
const seedProgram = `package main

import (
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	_ "unsafe" // for go:linkname
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
	fmt.Println(rand.Int63(), randv2.Uint64(), cheaprand64())
}

// cheaprand64 is the runtime's 63-bit cheap generator (go1.27: on a
// state of its own, cheaprandu64's), which the profilers draw from.
//
//go:linkname cheaprand64 runtime.cheaprand64
func cheaprand64() int64
`

// TestPatchRuntimeSeed builds a program with each release's runtime
// patched as a counted build patches it (UseToolchain, applyPatches: a
// toolchain the go command fetched runs from wirebench's copy) and runs
// it ten times a setting, as counted processes run (GOMAXPROCS=1): with
// one seed every run prints the same values (seedProgram), also after
// blocking system calls, which can move the goroutine to another thread
// (with the seed alone, before the one stream, 20 runs beside load gave
// 3 outcomes); another seed prints other values, and without the
// variable every run draws new ones, as an unpatched runtime's do.
func TestPatchRuntimeSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runtime again (about 20 s a release on a cold cache)")
	}
	for _, release := range KnownReleases() {
		t.Run(release, func(t *testing.T) {
			bin := buildSeeded(t, release)
			// A release whose cheaprand64 has a state of its own
			// (go1.27's cheaprandu64) draws it the same in every run
			// of a seed too. go1.26's is cheaprand's state, which the
			// runtime also draws from when its own locks meet
			// contention (unlock2Wake), a matter of timing: 1 run in
			// 100 of one seed drew once more there, at start-up.
			cheap64, _ := seedFile(setOf(t, release)).patch(releaseSource(t, release, "runtime/rand.go"))
			own64 := strings.Contains(cheap64, "wirebenchCheap64")
			// runs returns how many runs printed each output: the one
			// stream's values, and with own64 the cheap draw.
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
					f := strings.Fields(string(out))
					if len(f) != 19 {
						t.Fatalf("the program printed %q", out)
					}
					if !own64 && seed != "" {
						f = f[:18]
					}
					outputs[strings.Join(f, " ")]++
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
		})
	}
}

// buildSeeded builds seedProgram with release's toolchain, its whole
// patch set applied, and returns the binary.
func buildSeeded(t *testing.T, release string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/seed\n\ngo 1.22\n", "main.go": seedProgram})
	ctx := context.Background()
	tree, tc, err := UseToolchain(ctx, Tree{Dir: dir, Env: releaseEnv(t, release), TimerHooks: true, ToolchainCache: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if Release(tc.Version) != release {
		t.Fatalf("built with %s, want %s", tc.Version, release)
	}
	patched := t.TempDir()
	p, extra, err := applyPatches(tc.Root(), tc.Version, patched)
	if err != nil || !p.Seeded() || len(p.Skipped) > 0 {
		t.Fatalf("%s's toolchain (%s) does not take its patch set: %s, %v", release, tc.Root(), p, err)
	}
	data, err := json.Marshal(map[string]any{"Replace": extra})
	if err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(patched, "overlay.json")
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "seed")
	if _, err := goCommand(ctx, tree, "build", "-trimpath", "-overlay", overlay, "-o", bin, "."); err != nil {
		t.Fatalf("build with %s's patched runtime (%s): %v", release, tc, err)
	}
	return bin
}

// TestPatchRuntimeSeedText: each release's seed patch needs each of its
// texts once and its imports; anything else is left unpatched (counted
// unseeded), never half patched.
func TestPatchRuntimeSeedText(t *testing.T) {
	sets := []struct {
		release string
		needs   []string
		texts   []textPatch
	}{
		{"go1.26", seedNeeds126, seedPatches126},
		{"go1.27", seedNeeds127, seedPatches127},
	}
	if len(sets) != len(releases) {
		t.Errorf("%d releases' seed texts tested, of %d releases", len(sets), len(releases))
	}
	for _, set := range sets {
		t.Run(set.release, func(t *testing.T) {
			patch := seedFile(setOf(t, set.release)).patch
			var all strings.Builder
			all.WriteString("package runtime\n\nimport (" + strings.Join(set.needs, "") + ")\n\n")
			for _, p := range set.texts {
				all.WriteString("func f() {\n" + p.old + "\t}\n}\n")
			}
			tests := []struct {
				name, src string
				ok        bool
			}{
				{"every text once", all.String(), true},
				{"rewritten", "package runtime\n\nfunc randinit() {\n\tseed := readSeed()\n}\n", false},
				{"one text missing", strings.Replace(all.String(), set.texts[1].old, "", 1), false},
				{"one text twice", all.String() + set.texts[2].old, false},
				{"an import missing", strings.Replace(all.String(), set.needs[2], "\n", 1), false},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					out, ok := patch(tt.src)
					if ok != tt.ok {
						t.Fatalf("ok = %v, want %v", ok, tt.ok)
					}
					if !ok {
						return
					}
					for _, p := range set.texts {
						if !strings.Contains(out, p.new) {
							t.Errorf("patched text lacks %q", p.new)
						}
					}
					if !strings.Contains(out, "func wirebenchSeed()") || !strings.Contains(out, SeedVar) {
						t.Errorf("patched text lacks the seed's reading:\n%s", out)
					}
				})
			}
		})
	}
}
