package callgrind

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadProfile reads the self cost of every function of real dumps
// and checks it against callgrind_annotate's, Valgrind's own reader:
// testdata/NAME.annotate is `callgrind_annotate --threshold=100
// --auto=no --show-percs=no NAME.dump` (Valgrind 3.19), whose rows are
// per file and function (code inlined from another file has a row of its
// own), summed here per function. The dumps: instructions.dump and
// cachesim.dump, a block of wirebench's worker (64 raw/small encodes);
// profile-head.dump and profile-cachesim.dump, a block of
// testdata/profile (see testdata/README.md).
//
// One function differs, by design: the request that starts a block
// (Begin) switches instrumentation on inside a call, which callgrind
// writes as "calls=0" with the call's inclusive cost on the next line.
// callgrind_annotate 3.19 adds that line to the caller's self cost (it
// skips a call's line only when the count is above 0); callgrind's own
// "totals:" line does not, and ReadProfile agrees with the totals.
func TestReadProfile(t *testing.T) {
	const startedInside = "github.com/wirebench/wirebench/internal/callgrind.Begin"
	for _, name := range []string{"instructions", "cachesim", "profile-head", "profile-cachesim"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", name+".dump"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			total, got, err := ReadProfile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := readAnnotate(t, filepath.Join("testdata", name+".annotate"))
			for _, fn := range slices.Sorted(maps.Keys(want)) {
				w := want[fn]
				w.CacheSim = total.CacheSim
				switch {
				case fn == startedInside:
					if got[fn].Ir >= w.Ir {
						t.Errorf("%s: %d instructions, want fewer than callgrind_annotate's %d (its calls=0 line)", fn, got[fn].Ir, w.Ir)
					}
				case got[fn] != w:
					t.Errorf("%s: %+v, callgrind_annotate says %+v", fn, got[fn], w)
				}
			}
			for fn := range got {
				if _, ok := want[fn]; !ok {
					t.Errorf("%s: %+v, not in callgrind_annotate's", fn, got[fn])
				}
			}
			if sum := got.Total(); sum != total {
				t.Errorf("the functions add up to %+v, the totals are %+v", sum, total)
			}
		})
	}
}

// readAnnotate reads callgrind_annotate's table of functions (without
// percentages) into the self cost of each function, summed over its
// files.
func readAnnotate(t *testing.T, path string) Profile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []string
	p := Profile{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "Events shown:"); ok {
			events = strings.Fields(e)
			continue
		}
		fields := strings.Fields(line)
		if len(events) == 0 || len(fields) <= len(events) {
			continue
		}
		var c Counts
		ok := true
		for i, e := range events {
			v := strings.ReplaceAll(fields[i], ",", "")
			if v == "." {
				v = "0"
			}
			x, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				ok = false
				break
			}
			c.addEvent(slices.Index(eventFields, e), x)
		}
		if !ok {
			continue // a header
		}
		rest := strings.TrimSpace(strings.Join(fields[len(events):], " "))
		if rest == "PROGRAM TOTALS" {
			continue
		}
		// "file:function [object]": files have no colon here; a
		// function's name may (a struct tag in a type argument).
		_, fn, found := strings.Cut(rest, ":")
		if !found {
			t.Fatalf("%s: no file:function in %q", path, line)
		}
		if i := strings.LastIndex(fn, " ["); i >= 0 && strings.HasSuffix(fn, "]") {
			fn = fn[:i]
		}
		p[fn] = p[fn].Add(c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(p) == 0 {
		t.Fatalf("%s: no functions", path)
	}
	return p
}

// TestReadProfileFormat reads what the real dumps do not show: positions
// of two columns (--dump-instr=yes: an address, then a line) compressed
// and not, a call's inclusive cost on the line after calls= (never self
// cost), names first defined on a cfn= line, recursion levels, values
// left out as trailing zeros, and blank and comment lines.
func TestReadProfileFormat(t *testing.T) {
	dump := `# callgrind format
version: 1
positions: instr line
events: Ir Dr

ob=(1) /bin/x
fl=(1) x.go
fn=(1) main.outer
0x401000 10 5 1
+4 * 3
cfl=(1)
cfn=(2) main.inner
calls=2 0x402000 20
+2 +1 100 40
* -1 7
fn=(2)
0x402000 20 60 20
fi=(2) y.go
+8 +3 40 20
fe=(1)
fn=(3) main.rec'2
0x403000 30 9
fn=(4) main.rec
* * 1 1
totals: 125 42
`
	total, p, err := ReadProfile(strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	want := Profile{"main.outer": {Ir: 15, Dr: 1}, "main.inner": {Ir: 100, Dr: 40}, "main.rec": {Ir: 10, Dr: 1}}
	if !maps.Equal(p, want) {
		t.Errorf("profile %+v, want %+v", p, want)
	}
	if total != (Counts{Ir: 125, Dr: 42}) {
		t.Errorf("totals %+v", total)
	}
}

// TestReadProfileErrors: what a worker built from a pull request writes
// is read or refused, never misread: a profile that does not add up to
// the dump's totals is an error, as are undefined names and malformed
// cost lines.
func TestReadProfileErrors(t *testing.T) {
	tests := []struct{ name, dump, want string }{
		{"does not add up", "events: Ir\nfn=f\n1 10\ntotals: 11\n", "add up to 10 instructions, its totals to 11"},
		{"undefined name", "events: Ir\nfn=(3)\n1 10\ntotals: 10\n", "(3) used before it is defined"},
		{"unterminated name", "events: Ir\nfn=(3 f\n1 10\ntotals: 10\n", "unterminated"},
		{"cost before a function", "events: Ir\n1 10\ntotals: 10\n", "before the events line or the first function"},
		{"cost before the events", "fn=f\n1 10\nevents: Ir\ntotals: 10\n", "before the events line"},
		{"too many values", "events: Ir\nfn=f\n1 10 20\ntotals: 10\n", "more values than the 1 events"},
		{"not a number", "events: Ir\nfn=f\n1 1x\ntotals: 10\n", `"1x" is not a count`},
		{"overflow", "events: Ir\nfn=f\n1 18446744073709551616\ntotals: 10\n", "is not a count"},
		{"no totals", "events: Ir\nfn=f\n1 10\n", "no totals line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ReadProfile(strings.NewReader(tt.dump))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadProfile = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestDumpsProfile: Dumps.Next sums a block's threads, counts and
// profile alike, leaves the runtime monitor's thread out, removes what
// it read, and keeps the counts of a block whose profile does not add up
// (without a profile, ProfileErr saying why).
func TestDumpsProfile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "callgrind.out")
	files := map[string]string{
		".1-01": "events: Ir\nfn=(1) main.f\n1 10\nfn=(2) runtime.mallocgc\n1 5\ntotals: 15\n",
		".1-02": "events: Ir\nfn=(1) main.g\n1 7\nfn=(2) runtime.mallocgc\n2 3\ntotals: 10\n",
		".1-03": "events: Ir\nfn=(1) runtime.sysmon\n1 99\ntotals: 99\n",
		".2-01": "events: Ir\nfn=(1) main.f\n1 10\ntotals: 12\n",
	}
	for suffix, s := range files {
		if err := os.WriteFile(out+suffix, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := Dumps{OutFile: out, Profile: true}
	b, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	want := Profile{"main.f": {Ir: 10}, "main.g": {Ir: 7}, "runtime.mallocgc": {Ir: 8}}
	if b.Ir != 25 || !maps.Equal(b.Profile, want) || b.ProfileErr != nil {
		t.Errorf("block 1: %d instructions, profile %v (%v); want 25 and %v", b.Ir, b.Profile, b.ProfileErr, want)
	}
	b, err = d.Next()
	if err != nil {
		t.Fatal(err)
	}
	if b.Ir != 12 || b.Profile != nil || b.ProfileErr == nil || !strings.Contains(b.ProfileErr.Error(), "add up") {
		t.Errorf("block 2: %d instructions, profile %v (%v); want 12, none and why", b.Ir, b.Profile, b.ProfileErr)
	}
	if left, _ := filepath.Glob(out + ".*"); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
	// NextInto keeps the files of the threads that count, not the
	// monitor's.
	for suffix, name := range map[string]string{".3-01": ".1-01", ".3-02": ".1-03"} {
		if err := os.WriteFile(out+suffix, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep := filepath.Join(dir, "kept", "block")
	if b, err := d.NextInto(keep); err != nil || b.Ir != 15 {
		t.Errorf("NextInto: %+v, %v", b, err)
	}
	if kept, _ := filepath.Glob(filepath.Join(keep, "*")); len(kept) != 1 || filepath.Base(kept[0]) != "callgrind.out.3-01" {
		t.Errorf("kept %q, want callgrind.out.3-01", kept)
	}
	if left, _ := filepath.Glob(out + ".*"); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
	// Without Profile, the same dumps give the counts only.
	if err := os.WriteFile(out+".4-01", []byte(files[".1-01"]), 0o644); err != nil {
		t.Fatal(err)
	}
	d.Profile = false
	if b, err := d.Next(); err != nil || b.Ir != 15 || b.Profile != nil {
		t.Errorf("without a profile: %+v, %v", b, err)
	}
}

// BenchmarkReadDump and BenchmarkReadProfile: what reading a block's
// profile costs the orchestrator beside reading its totals, per dump of
// wirebench's worker (64 raw/small encodes, 8 KB).
func BenchmarkReadDump(b *testing.B) { benchmarkRead(b, false) }

func BenchmarkReadProfile(b *testing.B) { benchmarkRead(b, true) }

func benchmarkRead(b *testing.B, profile bool) {
	data, err := os.ReadFile(filepath.Join("testdata", "instructions.dump"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		want := totalsOnly
		if profile {
			want = byFunction
		}
		if _, err := parseDump(bytes.NewReader(data), want); err != nil {
			b.Fatal(err)
		}
	}
}
