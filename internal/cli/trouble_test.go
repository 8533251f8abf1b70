package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// troubleModule is a module whose benchmarks have troubles of their own,
// as real ones do: BenchmarkPaths/wide skips itself where its code sees
// Valgrind (as a sub-benchmark for a CPU feature Valgrind's CPU lacks
// does), BenchmarkTestdata skips everywhere (its test data is absent),
// and, in the head only (head), BenchmarkCrash exits where it sees
// Valgrind and BenchmarkBroken fails natively.
func troubleModule(t *testing.T, head bool) string {
	crash, broken := "", ""
	if head {
		crash = "if onValgrind() {\n\t\tos.Exit(3)\n\t}"
		broken = "b.Fatal(\"the head broke it\")"
	}
	return writeModule(t, map[string]string{
		"go.mod": "module example.com/trouble\n\ngo 1.22\n",
		"work.go": `package trouble

// Encode stands for a codec: its cost grows with n.
func Encode(n int) int {
	s := 0
	for i := range n {
		s += i ^ (i >> 3)
	}
	return s
}
`,
		"work_test.go": `package trouble

import (
	"os"
	"strings"
	"testing"
)

var sink int

// onValgrind is how code detects the counter: Valgrind preloads its
// own libraries.
func onValgrind() bool { return strings.Contains(os.Getenv("LD_PRELOAD"), "vgpreload") }

func BenchmarkEncode(b *testing.B) {
	for b.Loop() {
		sink += Encode(1000)
	}
}

func BenchmarkPaths(b *testing.B) {
	for _, path := range []string{"generic", "wide"} {
		b.Run(path, func(b *testing.B) {
			if path == "wide" && onValgrind() {
				b.Skip("this CPU lacks the wide path")
			}
			for b.Loop() {
				sink += Encode(300)
			}
		})
	}
}

func BenchmarkTestdata(b *testing.B) {
	if _, err := os.Stat("testdata/big.bin"); err != nil {
		b.Skip("needs testdata/big.bin")
	}
	for b.Loop() {
	}
}

func BenchmarkCrash(b *testing.B) {
	` + crash + `
	for b.Loop() {
		sink += Encode(200)
	}
}

func BenchmarkBroken(b *testing.B) {
	` + broken + `
	for b.Loop() {
		sink += Encode(100)
	}
}
`,
	})
}

// troubleDoc is what TestCountedTroubles reads of a JSON report.
type troubleDoc struct {
	Verdict     string `json:"verdict"`
	Comparisons []struct {
		Name, Unit string
	} `json:"comparisons"`
	Troubles []struct {
		Name  string           `json:"name"`
		Base  *results.Trouble `json:"base"`
		Head  *results.Trouble `json:"head"`
		Fails bool             `json:"fails"`
	} `json:"troubles"`
}

// TestCountedTroubles: one benchmark's trouble is its own row, never the
// whole run's. A sub-benchmark that skips only under Valgrind, one that
// skips natively, and (in the head) one whose process exits under
// Valgrind are each listed with why while the others are counted; what
// the head broke still fails: a benchmark that fails natively in the
// head only, and a count the head lost where no clock judged it. With
// the clock beside the count (metric auto), the lost count is judged by
// wall time and only the native failure fails.
func TestCountedTroubles(t *testing.T) {
	if testing.Short() {
		t.Skip("counts processes under valgrind")
	}
	needValgrind(t)
	base, head := troubleModule(t, false), troubleModule(t, true)
	const pkg = "example.com/trouble "
	run := func(t *testing.T, headDir string, extra ...string) (int, troubleDoc, string) {
		args := append([]string{"ab", "--base", base, "--head", headDir, "--bench", ".", "--processes", "3", "--format", "json", "--measure-all"}, extra...)
		code, out, errOut := wb(t, base, args...)
		var doc troubleDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("exit %d, no JSON report: %v\n%s\n%s", code, err, out, errOut)
		}
		return code, doc, errOut
	}
	counted := func(doc troubleDoc, name string) bool {
		for _, c := range doc.Comparisons {
			if c.Name == pkg+name && c.Unit == results.UnitInstructionsPerOp {
				return true
			}
		}
		return false
	}
	trouble := func(doc troubleDoc, name string) (base, head *results.Trouble, fails bool) {
		for _, tr := range doc.Troubles {
			if tr.Name == pkg+name {
				return tr.Base, tr.Head, tr.Fails
			}
		}
		return nil, nil, false
	}

	t.Run("A/A", func(t *testing.T) {
		code, doc, errOut := run(t, base, "--metric", "instructions")
		if code != exitOK || doc.Verdict != "pass" {
			t.Errorf("exit %d, verdict %s: want a pass\n%s", code, doc.Verdict, errOut)
		}
		for _, name := range []string{"BenchmarkEncode", "BenchmarkPaths/generic", "BenchmarkCrash", "BenchmarkBroken"} {
			if !counted(doc, name) {
				t.Errorf("%s was not counted", name)
			}
		}
		b, h, fails := trouble(doc, "BenchmarkPaths/wide")
		if b == nil || h == nil || b.Kind != results.TroubleNotCounted || !strings.Contains(h.Why, "skipped under Valgrind") || !strings.Contains(h.Why, "lacks the wide path") || fails {
			t.Errorf("Paths/wide: base %+v, head %+v, fails %v: want not counted on both sides, with its message, not failing", b, h, fails)
		}
		b, h, _ = trouble(doc, "BenchmarkTestdata")
		if b == nil || h == nil || h.Kind != results.TroubleSkipped || !strings.Contains(h.Why, "needs testdata/big.bin") {
			t.Errorf("Testdata: base %+v, head %+v: want skipped on both sides, with its message", b, h)
		}
		if !strings.Contains(errOut, "BenchmarkPaths/wide not counted: skipped under Valgrind") {
			t.Errorf("the progress does not say which benchmark was not counted:\n%s", errOut)
		}
	})
	t.Run("head broke two", func(t *testing.T) {
		code, doc, errOut := run(t, head, "--metric", "instructions")
		if code != exitFail || doc.Verdict != "fail" {
			t.Errorf("exit %d, verdict %s: want the head's troubles to fail it\n%s", code, doc.Verdict, errOut)
		}
		b, h, fails := trouble(doc, "BenchmarkCrash")
		if b != nil || h == nil || h.Kind != results.TroubleNotCounted || !strings.Contains(h.Why, "crashed under Valgrind") || !fails {
			t.Errorf("Crash: base %+v, head %+v, fails %v: want the head's count lost, failing (no clock)", b, h, fails)
		}
		b, h, fails = trouble(doc, "BenchmarkBroken")
		if b != nil || h == nil || h.Kind != results.TroubleFailed || !strings.Contains(h.Why, "the head broke it") || !fails {
			t.Errorf("Broken: base %+v, head %+v, fails %v: want failed natively in the head, failing", b, h, fails)
		}
		// The process BenchmarkCrash ended was started again: the
		// benchmarks after it were counted.
		for _, name := range []string{"BenchmarkEncode", "BenchmarkPaths/generic"} {
			if !counted(doc, name) {
				t.Errorf("%s was not counted beside the head's troubles\n%s", name, errOut)
			}
		}
	})
	t.Run("clock judges the lost count", func(t *testing.T) {
		code, doc, errOut := run(t, head, "--budget", "10s")
		b, h, fails := trouble(doc, "BenchmarkCrash")
		if h == nil || fails {
			t.Errorf("Crash: base %+v, head %+v, fails %v: want the lost count judged by wall time", b, h, fails)
		}
		judged := false
		for _, c := range doc.Comparisons {
			judged = judged || (c.Name == pkg+"BenchmarkCrash" && c.Unit == results.UnitNsPerOp)
		}
		if !judged {
			t.Errorf("no wall-time comparison of BenchmarkCrash\n%s", errOut)
		}
		if _, _, fails := trouble(doc, "BenchmarkBroken"); code != exitFail || !fails {
			t.Errorf("exit %d: the head's native failure must still fail the run\n%s", code, errOut)
		}
	})
}

// packagesModule is a module of two packages with a benchmark each;
// with broken, package b's test file does not compile.
func packagesModule(t *testing.T, broken bool) string {
	call := "Twice(3)"
	if broken {
		call = "Twice(\"three\")"
	}
	return writeModule(t, map[string]string{
		"go.mod":      "module example.com/two\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc Twice(n int) int { return 2 * n }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkA(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink += Twice(3)\n\t}\n}\n",
		"b/b.go":      "package b\n\nfunc Twice(n int) int { return 2 * n }\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkB(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink += " + call + "\n\t}\n}\n",
	})
}

// TestPackageTroubles: a package whose tests do not build on one side is
// that package's row; the other package is measured. Fail closed: a
// head that broke a package the base built fails; a head that fixed one
// the base could not build passes, the row saying so.
func TestPackageTroubles(t *testing.T) {
	if testing.Short() {
		t.Skip("counts processes under valgrind")
	}
	needValgrind(t)
	good, bad := packagesModule(t, false), packagesModule(t, true)
	for _, tt := range []struct {
		name, base, head string
		code             int
		fails            bool
	}{
		{"the head broke package b", good, bad, exitFail, true},
		{"the head fixed package b", bad, good, exitOK, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := wb(t, tt.base, "ab", "--base", tt.base, "--head", tt.head, "--bench", ".", "--metric", "instructions", "--processes", "3", "--format", "json")
			var doc troubleDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("exit %d, no JSON report: %v\n%s\n%s", code, err, out, errOut)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, errOut)
			}
			var row *results.Trouble
			fails := false
			for _, tr := range doc.Troubles {
				if tr.Name == "example.com/two/b" {
					row, fails = cmpOr(tr.Head, tr.Base), tr.Fails
				}
			}
			if row == nil || row.Kind != results.TroubleNotBuilt || !strings.Contains(row.Why, "cannot use \"three\"") || fails != tt.fails {
				t.Errorf("package b's row %+v (fails %v): want not built, with the compiler's error, fails %v", row, fails, tt.fails)
			}
			counted := false
			for _, c := range doc.Comparisons {
				counted = counted || (c.Name == "example.com/two/a BenchmarkA" && c.Unit == results.UnitInstructionsPerOp)
			}
			if !counted {
				t.Errorf("package a's benchmark was not counted beside b's trouble\n%s", errOut)
			}
		})
	}
}

// cmpOr is the first of a and b that is not nil.
func cmpOr(a, b *results.Trouble) *results.Trouble {
	if a != nil {
		return a
	}
	return b
}
