package cli

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
)

// countedModule is a module whose benchmark BenchmarkEncode does work
// iterations of a loop a message, and reports an encoded size of size
// bytes, with setup before its timer starts that is twice the work:
// counting must leave it out. BenchmarkPaused does the same with its
// timer stopped around the setup in every iteration.
func countedModule(t *testing.T, work, size string) string {
	return writeModule(t, map[string]string{
		"go.mod": "module example.com/counted\n\ngo 1.22\n",
		"work.go": `package counted

// Encode stands for a codec: its cost grows with n.
func Encode(n int) int {
	s := 0
	for i := range n {
		s += i ^ (i >> 3)
	}
	return s
}
`,
		"work_test.go": `package counted

import "testing"

var sink int

func BenchmarkEncode(b *testing.B) {
	sink = Encode(2 * ` + work + `) // setup: not counted
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += Encode(` + work + `)
	}
	b.ReportMetric(` + size + `, "B/msg")
}

func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
		sink += Encode(500)
	}
}

// BenchmarkPaused stops its timer around setup twice its work in every
// iteration: counting must leave that out too.
func BenchmarkPaused(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sink = Encode(200000)
		b.StartTimer()
		sink += Encode(100000)
	}
}
`,
	})
}

// needValgrind skips without a working valgrind (fails under
// WIREBENCH_REQUIRE_TOOLS).
func needValgrind(t *testing.T) {
	t.Helper()
	if _, err := callgrind.Find(t.Context()); err != nil {
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// TestCountedModule counts a module's own benchmarks under callgrind,
// against a stored baseline and same-runner A/B: the same code passes, 10%
// more work in one benchmark fails on its instructions/op (not on its
// allocations or size, which did not change), and a message one byte
// larger fails exactly.
func TestCountedModule(t *testing.T) {
	if testing.Short() {
		t.Skip("counts processes under valgrind")
	}
	needValgrind(t)
	// Counts do not mind a neighbour: it runs beside the container tests,
	// the only other parallel tests (wb moves the working directory).
	t.Parallel()
	base := countedModule(t, "1000", "40")
	slower := countedModule(t, "1100", "40")
	bigger := countedModule(t, "1000", "41")
	bl := filepath.Join(t.TempDir(), "baseline.json")
	counted := []string{"--bench", ".", "--metric", "instructions", "--processes", "3", "--baseline", bl}

	if code, out, errOut := wb(t, base, append([]string{"update"}, counted...)...); code != exitOK {
		t.Fatalf("update: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, tt := range []struct {
		name, dir string
		code      int
		says      string
	}{
		// The same code measured (--measure-all): a count of unchanged
		// code against its baseline passes (TestCheckIdentical: without
		// it, nothing is measured).
		{"the same code", base, exitOK, "counts: all 3 gated"},
		{"10% more work", slower, exitFail, "instructions/op"},
		{"a byte more", bigger, exitFail, "B/msg"},
	} {
		t.Run("check/"+tt.name, func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.md")
			out := filepath.Join(t.TempDir(), "results.json")
			code, stdout, errOut := wb(t, tt.dir, append([]string{"check", "--report", report, "--out", out, "--measure-all"}, counted...)...)
			md, _ := os.ReadFile(report)
			if code != tt.code || !strings.Contains(string(md), tt.says) || !strings.Contains(string(md), "Counted, not timed") {
				t.Errorf("exit %d, want %d; the report lacks %q or what was counted:\n%s\n%s\n%s", code, tt.code, tt.says, md, stdout, errOut)
			}
			// The progress (shown only when the subtest fails) says
			// whether the flagged count was confirmed, or why not.
			t.Log(errOut)
			checkEncodeCount(t, out, tt.name == "10% more work")
		})
	}
	t.Run("stored, counted and timed", func(t *testing.T) { countedAndTimed(t) })
	t.Run("seeded pairs count alike", func(t *testing.T) { seededPairsAlike(t) })
	t.Run("ab", func(t *testing.T) {
		for _, tt := range []struct {
			head string
			code int
		}{{base, exitOK}, {slower, exitFail}} {
			code, stdout, errOut := wb(t, base, "ab", "--base", base, "--head", tt.head, "--bench", ".", "--metric", "instructions", "--processes", "3", "--format", "json")
			if code != tt.code {
				t.Errorf("ab against %s: exit %d, want %d\n%s\n%s", tt.head, code, tt.code, stdout, errOut)
			}
			var doc struct {
				Method  string `json:"method"`
				Patches struct {
					Baseline, Candidate struct {
						Patches string `json:"patches"`
						Seeded  bool   `json:"seeded"`
					}
				} `json:"patches"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.Method != "counted-ab" {
				t.Errorf("ab's JSON: method %q, %v", doc.Method, err)
			}
			// The installed Go is of a release wirebench has patches
			// for (gotest.KnownReleases): both builds seeded where
			// counted (the same code is identical, not counted), and
			// the progress says which Go built each.
			if p := doc.Patches; tt.head != base && (!p.Baseline.Seeded || !p.Candidate.Seeded || !strings.Contains(p.Candidate.Patches, "runtime seed")) {
				t.Errorf("ab's JSON: patches %+v, want both builds seeded", p)
			}
			if !strings.Contains(errOut, "wirebench: base built with go1.") || !strings.Contains(errOut, ", head with go1.") {
				t.Errorf("the progress does not say which Go built each side:\n%s", errOut)
			}
		}
	})
}

// seededPairsAlike: two copies of one module, counted A/A (--measure-all),
// count a benchmark that allocates nothing the same to the instruction
// in every seeded pair of processes, though its first call needs a
// bigger stack than a new goroutine has: the worker grows the stack
// before the count starts. Grown inside the count, the stack's copy
// cost a few hundred instructions more or less from process to process
// of a seed (the runtime's cache of PC values is filled at random).
func seededPairsAlike(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/deep\n\ngo 1.22\n",
		"deep_test.go": `package deep

import "testing"

var sink int

// deep needs a frame of 16 KiB: a new goroutine's stack must grow
// at its first call.
//
//go:noinline
func deep(n int) int {
	var a [2048]int
	for i := range a {
		a[i] = i * n
	}
	return a[n%len(a)]
}

func BenchmarkDeep(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += deep(i)
	}
}
`}
	base, head := writeModule(t, files), writeModule(t, files)
	code, stdout, errOut := wb(t, head, "ab", "--base", base, "--bench", ".", "--metric", "instructions", "--processes", "3", "--measure-all", "--format", "json")
	var doc struct {
		Comparisons []struct {
			Name, Unit, Note string
			Ratio            float64
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != exitOK {
		t.Fatalf("ab A/A: exit %d, %v\n%s\n%s", code, err, stdout, errOut)
	}
	found := false
	for _, c := range doc.Comparisons {
		if c.Unit != "instructions/op" {
			continue
		}
		found = true
		if c.Ratio != 1 || c.Note != "every pair of processes differed by the same" {
			t.Errorf("%s: ratio %v (%s), want every seeded pair to count alike", c.Name, c.Ratio, c.Note)
		}
	}
	if !found {
		t.Errorf("no instructions/op comparison:\n%s", stdout)
	}
}

// walkModule is a module whose BenchmarkWalk follows 1,000 links of an
// 8 MiB table: to the next entry, or with random (the head) to a random
// one. The instructions are the same; the time is not (caches and
// memory, which a count cannot see).
func walkModule(t *testing.T, random bool) string {
	return writeModule(t, map[string]string{
		"go.mod": "module example.com/walk\n\ngo 1.22\n",
		"walk.go": `package walk

import "sync"

const random = ` + map[bool]string{true: "true", false: "false"}[random] + `

var (
	table []uint32
	once  sync.Once
)

// setup links the table: entry i to i+1, or (random) one cycle through
// every entry in a random order (Sattolo's algorithm).
func setup() {
	table = make([]uint32, 2<<20)
	for i := range table {
		table[i] = uint32(i + 1)
	}
	table[len(table)-1] = 0
	if !random {
		return
	}
	for i := range table {
		table[i] = uint32(i)
	}
	x := uint64(88172645463325252)
	for i := len(table) - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i))
		table[i], table[j] = table[j], table[i]
	}
}

// Walk follows 1,000 links from i.
func Walk(i uint32) uint32 {
	for range 1000 {
		i = table[i]
	}
	return i
}
`,
		"walk_test.go": `package walk

import "testing"

var sink uint32

func BenchmarkWalk(b *testing.B) {
	once.Do(setup)
	for b.Loop() {
		sink = Walk(sink)
	}
}
`,
	})
}

// countedAndTimed: against a stored baseline, metric auto counts and also
// times natively (the wall-time check); five updates store both, and a
// check of a head whose walk goes through memory at random, the same
// instructions, fails on its wall time alone, the report saying the
// clock saw it and the count did not; the unchanged code passes.
func countedAndTimed(t *testing.T) {
	base, head := walkModule(t, false), walkModule(t, true)
	bl := filepath.Join(t.TempDir(), "baseline.json")
	args := []string{"--bench", ".", "--processes", "2", "--budget", "2s", "--baseline", bl}
	for range 5 {
		if code, out, errOut := wb(t, base, append([]string{"update"}, args...)...); code != exitOK {
			t.Fatalf("update: exit %d\n%s\n%s", code, out, errOut)
		}
	}
	for _, tt := range []struct {
		name, dir string
		code      int
		says      []string
	}{
		{"unchanged", base, exitOK, []string{"also timed natively, the wall-time check"}},
		{"a random walk", head, exitFail, []string{"the clock only (instructions/op", "ns/op"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.md")
			// --measure-all: the unchanged code is counted and timed, not
			// skipped as identical to the baseline's.
			code, stdout, errOut := wb(t, tt.dir, append([]string{"check", "--report", report, "--measure-all"}, args...)...)
			md, _ := os.ReadFile(report)
			flat := strings.Join(strings.Fields(string(md)), " ")
			for _, want := range tt.says {
				if !strings.Contains(flat, want) {
					t.Errorf("the report does not say %q", want)
				}
			}
			if code != tt.code || t.Failed() {
				t.Errorf("exit %d, want %d\n%s\n%s\n%s", code, tt.code, md, stdout, errOut)
			}
		})
	}
}

// checkEncodeCount checks what a counted run of countedModule recorded of
// BenchmarkEncode and BenchmarkPaused: three processes (six when a flagged
// count was confirmed), instructions/op a little more than the loop's
// (their setup, twice the work, left out), and 10% more of BenchmarkEncode
// in the slower module.
func checkEncodeCount(t *testing.T, path string, slower bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Env struct {
			GOMAXPROCS int `json:"gomaxprocs"`
		} `json:"env"`
		Settings struct {
			Counter struct{ Method, Heap string } `json:"counter"`
		} `json:"settings"`
		Benchmarks []struct {
			Name    string `json:"name"`
			Metrics []struct {
				Unit   string    `json:"unit"`
				Values []float64 `json:"values"`
			} `json:"metrics"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Env.GOMAXPROCS != 1 {
		t.Errorf("env.gomaxprocs %d, want 1: every counted process runs with GOMAXPROCS=1", r.Env.GOMAXPROCS)
	}
	if r.Settings.Counter.Heap != "dirty" {
		t.Errorf("counted on heap %q, want dirty: the test binary's workers mark the heap used before counting", r.Settings.Counter.Heap)
	}
	if r.Settings.Counter.Method != "timer" {
		t.Errorf("counted by %q, want the benchmark timer's hooks", r.Settings.Counter.Method)
	}
	// The loops are 7 instructions an iteration here; allow the call and
	// the loop's own control. Three processes; a flagged count is
	// confirmed by three more, which the candidate keeps.
	lo, hi, want := 1000.0*5, 1000.0*10, 3
	if slower {
		lo, hi, want = 1.1*lo, 1.1*hi, 6
	}
	for _, c := range []struct {
		name   string
		lo, hi float64
		want   int
	}{
		{"BenchmarkEncode", lo, hi, want},
		{"BenchmarkPaused", 100000.0 * 5, 100000.0 * 10, 3},
	} {
		var values []float64
		for _, b := range r.Benchmarks {
			for _, m := range b.Metrics {
				if b.Name == c.name && m.Unit == "instructions/op" {
					values = m.Values
				}
			}
		}
		if len(values) != c.want {
			t.Errorf("%s instructions/op %v: %d processes, want %d", c.name, values, len(values), c.want)
		}
		for _, v := range values {
			if v < c.lo || v > c.hi {
				t.Errorf("%s instructions/op %v, want every process within [%v, %v]", c.name, values, c.lo, c.hi)
				break
			}
		}
	}
}

// crashModule is countedModule with, in the head (crash), one AVX-512
// instruction in BenchmarkEncode's loop, in Go assembly: the CPU runs it,
// Valgrind (which implements no AVX-512) stops the process with SIGILL.
func crashModule(t *testing.T, crash bool) string {
	call := ""
	if crash {
		call = "Vec()"
	}
	files := map[string]string{
		"go.mod":       "module example.com/counted\n\ngo 1.22\n",
		"vec_amd64.go": "package counted\n\n// Vec runs one AVX-512 instruction.\nfunc Vec()\n",
		"vec_amd64.s":  "#include \"textflag.h\"\n\nTEXT ·Vec(SB), NOSPLIT, $0-0\n\tVPXORQ Z1, Z1, Z1\n\tVZEROUPPER\n\tRET\n",
		"work_test.go": `package counted

import "testing"

var sink int

func BenchmarkEncode(b *testing.B) {
	for i := 0; i < b.N; i++ {
		` + call + `
		for j := range 1000 {
			sink += j ^ (j >> 3)
		}
	}
	b.ReportMetric(40, "B/msg")
}
`,
	}
	return writeModule(t, files)
}

// TestCountedCrash checks a head benchmark that runs natively but crashes
// under Valgrind: the check fails (exit 1, the pull request's doing), its
// report says so, with the Go runtime's account of the signal (the
// instruction's bytes) and why it happened under Valgrind only;
// same-runner A/B fails the same way.
func TestCountedCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("counts processes under valgrind")
	}
	needValgrind(t)
	if !cpuHas("avx512f") {
		t.Skip("the CPU lacks AVX-512, the instruction this test needs Valgrind to lack")
	}
	base := crashModule(t, false)
	head := crashModule(t, true)
	bl := filepath.Join(t.TempDir(), "baseline.json")
	counted := []string{"--bench", ".", "--metric", "instructions", "--processes", "3"}
	if code, out, errOut := wb(t, base, append([]string{"update", "--baseline", bl}, counted...)...); code != exitOK {
		t.Fatalf("update: exit %d\n%s\n%s", code, out, errOut)
	}
	// The Go runtime's account of the signal, and wirebench's of why.
	const says = "SIGILL"
	const why = "Valgrind does not implement, such as AVX-512"
	report := filepath.Join(t.TempDir(), "report.md")
	code, out, errOut := wb(t, head, append([]string{"check", "--baseline", bl, "--report", report}, counted...)...)
	md, _ := os.ReadFile(report)
	if code != exitFail || !strings.Contains(string(md), says) || !strings.Contains(string(md), why) || !strings.Contains(string(md), "BenchmarkEncode") {
		t.Errorf("check of a head that crashes under valgrind: exit %d, want %d with %q, %q and the benchmark in its report\nreport:\n%s\nstdout:\n%s\nstderr:\n%s", code, exitFail, says, why, md, out, errOut)
	}
	code, out, errOut = wb(t, base, append([]string{"ab", "--base", base, "--head", head}, counted...)...)
	if code != exitFail || !strings.Contains(out+errOut, says) || !strings.Contains(out+errOut, why) {
		t.Errorf("ab of a head that crashes under valgrind: exit %d, want %d with %q and %q\nstdout:\n%s\nstderr:\n%s", code, exitFail, says, why, out, errOut)
	}
}

// cpuHas reports whether /proc/cpuinfo lists the flag.
func cpuHas(flag string) bool {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil || runtime.GOARCH != "amd64" {
		return false
	}
	for line := range strings.Lines(string(data)) {
		if name, flags, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			return slices.Contains(strings.Fields(flags), flag)
		}
	}
	return false
}

// countedFile writes a counted run of 5 processes to dir/name: per
// benchmark instructions/op around its median, process i off by
// spread[i] (a fraction), and allocs/op 2.
func countedFile(t *testing.T, dir, name string, medians map[string]float64, spread []float64) {
	t.Helper()
	r := results.New("default", results.Env{Machine: "m", GOOS: "linux", GOARCH: "amd64", CPU: "cpu"})
	r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: len(spread), Blocks: 3}
	names := slices.Sorted(maps.Keys(medians))
	for _, n := range names {
		b := results.Benchmark{Name: n}
		for _, s := range spread {
			b.Iterations = append(b.Iterations, 2000)
			b.Add(results.UnitInstructionsPerOp, math.Round(medians[n]*(1+s)))
			b.Add(results.UnitAllocsPerOp, 2)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	if err := r.WriteFile(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// TestCompareCounted: compare judges two counted runs as the check that
// counted them does, against the counted effect floor (1%), not the
// timings' 5%: a count that moved +1.5% is a regression, one that moved
// +1.5% with a spread that reaches both sides of +1% is inconclusive,
// never "unchanged"; a threshold given is still the one used.
func TestCompareCounted(t *testing.T) {
	dir := t.TempDir()
	const target = "BenchmarkEncode"
	base := map[string]float64{target: 100000, "BenchmarkDecode": 200000}
	with := func(change float64) map[string]float64 {
		m := maps.Clone(base)
		m[target] *= 1 + change
		return m
	}
	quiet := []float64{-0.002, -0.001, 0, 0.001, 0.002}
	noisy := []float64{-0.012, -0.006, 0, 0.006, 0.012}
	countedFile(t, dir, "base.json", base, quiet)
	countedFile(t, dir, "same.json", base, []float64{0.001, -0.002, 0.002, 0, -0.001})
	countedFile(t, dir, "plus1.5.json", with(0.015), quiet)
	countedFile(t, dir, "plus1.5-noisy.json", with(0.015), noisy)
	countedFile(t, dir, "plus0.3.json", with(0.003), quiet)
	tests := []struct {
		name    string
		args    []string
		code    int
		verdict string // the target's instructions/op
	}{
		{"A/A passes", []string{"same.json"}, 0, "unchanged"},
		{"+0.3% is within the floor", []string{"plus0.3.json"}, 0, "unchanged"},
		{"+1.5% fails", []string{"plus1.5.json"}, 1, "regression"},
		{"+1.5% with a spread reaching past ±1% is not unchanged", []string{"plus1.5-noisy.json"}, 0, "inconclusive"},
		{"a threshold given is used", []string{"--threshold", "5%", "plus1.5.json"}, 0, "unchanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"compare", "--format", "json"}, tt.args[:len(tt.args)-1]...)
			args = append(args, "base.json", tt.args[len(tt.args)-1])
			code, out, errOut := wb(t, dir, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstderr:\n%s", code, tt.code, errOut)
			}
			var doc struct {
				Comparisons []struct {
					Name, Unit, Verdict string
					CILow               float64 `json:"ci_low"`
					CIHigh              float64 `json:"ci_high"`
				} `json:"comparisons"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("json: %v\n%s", err, out)
			}
			found := false
			for _, c := range doc.Comparisons {
				if c.Name == target && c.Unit == results.UnitInstructionsPerOp {
					found = true
					if c.Verdict != tt.verdict {
						t.Errorf("%s %s: %s [%.4f, %.4f], want %s", c.Name, c.Unit, c.Verdict, c.CILow, c.CIHigh, tt.verdict)
					}
				}
			}
			if !found {
				t.Fatalf("no %s %s in\n%s", target, results.UnitInstructionsPerOp, out)
			}
		})
	}
}
