package callgrind

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReadLines: the costs of a real dump's lines add up, per function,
// to its profile (ReadProfile: the same costs, wherever they lie), with
// a file per inlined file as callgrind_annotate has.
func TestReadLines(t *testing.T) {
	for _, name := range []string{"instructions", "cachesim", "profile-head", "profile-cachesim"} {
		t.Run(name, func(t *testing.T) {
			lines := readLinesFile(t, name+".dump")
			_, prof := readProfileFile(t, name+".dump")
			byFn := Profile{}
			files := map[string]bool{}
			for k, c := range lines {
				byFn[k.Fn] = byFn[k.Fn].Add(c)
				files[k.File] = true
				if k.Line <= 0 && k.File != "???" { // callgrind's file and line 0 of code without line information
					t.Errorf("%s (%s): a cost at line %d", k.Fn, k.File, k.Line)
				}
			}
			if !maps.Equal(byFn, prof) {
				t.Errorf("lines add up to %v per function, the profile is %v", byFn, prof)
			}
			if name == "profile-head" && !files["/usr/local/go/src/internal/strconv/math.go"] {
				t.Errorf("no cost in the inlined file math.go: %v", files)
			}
		})
	}
}

func readLinesFile(t *testing.T, name string) Lines {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := ReadLines(f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func readProfileFile(t *testing.T, name string) (Counts, Profile) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, p, err := ReadProfile(f)
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

// TestReadLinesPositions: positions absolute, relative to the cost line
// before (a call's included), the same ("*"), an address column beside
// the line (--dump-instr=yes), a call's target position not moving
// them, and files by fl=, fi= and fe=, compressed.
func TestReadLinesPositions(t *testing.T) {
	dump := `events: Ir
positions: instr line
fl=(1) a.go
fn=(1) main.f
0x10 10 1
+2 +2 2
cfi=(2) b.go
cfn=(2) main.g
calls=1 0x40 50
+1 +1 100
* * 3
fi=(2)
+1 40 4
fe=(1)
+1 -29 5
fn=(2)
fl=(2)
0x40 50 100
totals: 115
`
	got, err := ReadLines(strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	want := Lines{
		{"a.go", "main.f", 10}: {Ir: 1}, {"a.go", "main.f", 12}: {Ir: 2}, {"a.go", "main.f", 13}: {Ir: 3},
		{"b.go", "main.f", 40}: {Ir: 4}, {"a.go", "main.f", 11}: {Ir: 5}, {"b.go", "main.g", 50}: {Ir: 100},
	}
	if !maps.Equal(got, want) {
		t.Errorf("lines\n %v\nwant\n %v", got, want)
	}
	for _, bad := range []string{"events: Ir\nfn=f\n+x 1\n", "events: Ir\npositions: instr line\nfn=f\n0x10\n", "events: Ir\nfl=(9)\n"} {
		if _, err := ReadLines(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadLines(%q) read", bad)
		}
	}
}

// TestWriteCachegrind writes real dumps' lines in cachegrind's format
// and has Valgrind's own tools read them: cg_annotate's total per
// function is the profile's, and cg_diff of the base and the head (the
// head does 3 more checksums a record, 64 records) finds main.checksum
// grown by what the profiles say. Without cg_annotate (Valgrind's
// package) it only checks the text.
func TestWriteCachegrind(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, plus, minus Lines) string {
		var b bytes.Buffer
		if err := WriteCachegrind(&b, "./profile\nx", plus, minus); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "\nx") {
			t.Fatal("a line break in the command survived")
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	base := write("base.cg.out", readLinesFile(t, "profile-base.dump"), nil)
	head := write("head.cg.out", readLinesFile(t, "profile-head.dump"), nil)
	// 128 records less 64: the profile of 64 records without the block's
	// own requests
	diff2n := write("2n.cg.out", readLinesFile(t, "profile-base-2n.dump"), readLinesFile(t, "profile-base.dump"))
	cache := write("cache.cg.out", readLinesFile(t, "profile-cachesim.dump"), nil)
	if b, _ := os.ReadFile(cache); !strings.Contains(string(b), "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n") {
		t.Errorf("the cache simulation's events are not written:\n%.300s", b)
	}
	if _, err := exec.LookPath("cg_annotate"); err != nil {
		t.Skip("cg_annotate is not installed (Valgrind):", err)
	}
	_, baseProf := readProfileFile(t, "profile-base.dump")
	_, headProf := readProfileFile(t, "profile-head.dump")
	if got := annotate(t, base)["main.checksum"]; got != int64(baseProf["main.checksum"].Ir) {
		t.Errorf("cg_annotate: main.checksum %d, the profile %d", got, baseProf["main.checksum"].Ir)
	}
	out, err := exec.Command("cg_diff", base, head).Output()
	if err != nil {
		t.Fatalf("cg_diff: %v", err)
	}
	d := filepath.Join(dir, "diff.cg.out")
	if err := os.WriteFile(d, out, 0o644); err != nil {
		t.Fatal(err)
	}
	moved := annotate(t, d)
	if got, want := moved["main.checksum"], int64(headProf["main.checksum"].Ir)-int64(baseProf["main.checksum"].Ir); got != want || want <= 0 {
		t.Errorf("cg_diff: main.checksum moved %d, the profiles %d", got, want)
	}
	if got := moved["main.(*encoder).encode.func1"]; got != 0 {
		t.Errorf("cg_diff: the unchanged closure moved %d", got)
	}
	if got, want := annotate(t, diff2n)["main.checksum"], int64(baseProf["main.checksum"].Ir); got != want {
		t.Errorf("the difference of 2n and n: main.checksum %d, want n's %d", got, want)
	}
}

// annotate is cg_annotate's total per function of a cachegrind file,
// summed over its files.
func annotate(t *testing.T, path string) map[string]int64 {
	t.Helper()
	out, err := exec.Command("cg_annotate", "--auto=no", "--threshold=0", "--show-percs=no", "--show=Ir", path).Output()
	if err != nil {
		t.Fatalf("cg_annotate %s: %v", path, err)
	}
	got := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(f[0], ",", ""), 10, 64)
		if err != nil {
			continue
		}
		_, fn, ok := strings.Cut(strings.Join(f[1:], " "), ":")
		if ok {
			got[fn] += v
		}
	}
	if len(got) == 0 {
		t.Fatalf("cg_annotate %s shows no function:\n%s", path, out)
	}
	return got
}
