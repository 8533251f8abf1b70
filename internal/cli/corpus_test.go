package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// released is a released module's tree, from the Go module proxy's zip
// (which carries its _test.go files), copied where it can be built and
// written: as its owners wrote it, nothing changed. It skips when the
// proxy cannot be reached (fails under WIREBENCH_REQUIRE_TOOLS).
func released(t *testing.T, module string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	var dl struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &dl)
	}
	if err != nil || dl.Dir == "" {
		if os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "" {
			t.Fatalf("go mod download %s: %v %s", module, err, dl.Error)
		}
		t.Skipf("go mod download %s: %v %s", module, err, dl.Error)
	}
	dir := filepath.Join(t.TempDir(), "tree")
	if err := os.CopyFS(dir, os.DirFS(dl.Dir)); err != nil {
		t.Fatal(err)
	}
	// The module cache's files are read-only; a checkout's are not.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			os.Chmod(p, map[bool]os.FileMode{true: 0o755, false: 0o644}[d.IsDir()])
		}
		return err
	})
	return dir
}

// TestRealLibraries: a small part of the corpus of released libraries
// (docs/experiments/corpus.sh) as their owners wrote them, counted A/A
// as a new user's default ab would, each benchmark's trouble its own
// row and the run passing:
//   - zeebo/xxh3's Fixed64 at 1,024 bytes, whose -AVX512 sub-benchmark
//     it runs only where the CPU has AVX-512: natively here, not under
//     Valgrind, whose CPU lacks it (not counted, with why). (Its
//     Hasher64 would be the same, but its parent fills buffers up to
//     256 MiB before every sub-benchmark it runs: 1.5 minutes a counted
//     process for three sub-benchmarks, too much for the tests.)
//   - klauspost/compress's zstd, whose package declares a const debug
//     (the worker once imported runtime/debug into it and it did not
//     build), with a benchmark that fails natively (its test file is not
//     in the module's zip) and one that skips.
func TestRealLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads modules and counts under valgrind")
	}
	needValgrind(t)
	for _, tt := range []struct {
		module, packages, bench string
		counted                 []string
		rows                    map[string]results.TroubleKind
	}{
		{
			module: "github.com/zeebo/xxh3@v1.1.0", packages: ".", bench: "^BenchmarkFixed64$/^1024(-AVX512|-SSE2)?$/^default$",
			counted: []string{"github.com/zeebo/xxh3 BenchmarkFixed64/1024/default", "github.com/zeebo/xxh3 BenchmarkFixed64/1024-SSE2/default"},
		},
		{
			module: "github.com/klauspost/compress@v1.20.5", packages: "./zstd",
			bench:   "^BenchmarkDecoder_DecoderSmall$/^kppkn.gtb.zst$/^buffered$|^BenchmarkDecoder_DecoderNewSomeRead$|^BenchmarkDecoderSilesia$",
			counted: []string{"github.com/klauspost/compress/zstd BenchmarkDecoder_DecoderSmall/kppkn.gtb.zst/buffered"},
			rows: map[string]results.TroubleKind{
				"github.com/klauspost/compress/zstd BenchmarkDecoder_DecoderNewSomeRead": results.TroubleFailed,
				"github.com/klauspost/compress/zstd BenchmarkDecoderSilesia":             results.TroubleSkipped,
			},
		},
	} {
		t.Run(strings.Split(tt.module, "@")[0], func(t *testing.T) {
			head := released(t, tt.module)
			base := released(t, tt.module)
			code, out, errOut := wb(t, head, "ab", "--base", base, "--bench", tt.bench, "--packages", tt.packages,
				"--metric", "instructions", "--processes", "3", "--measure-all", "--format", "json")
			var doc troubleDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("exit %d, no JSON report: %v\n%s", code, err, errOut)
			}
			if code != exitOK || doc.Verdict != "pass" {
				t.Errorf("A/A: exit %d, verdict %s, want a pass\n%s", code, doc.Verdict, errOut)
			}
			for _, name := range tt.counted {
				if !countedIn(doc, name) {
					t.Errorf("%s was not counted\n%s", name, errOut)
				}
			}
			rows := map[string]results.TroubleKind{}
			for _, tr := range doc.Troubles {
				if tr.Head != nil {
					rows[tr.Name] = tr.Head.Kind
				}
			}
			for name, kind := range tt.rows {
				if rows[name] != kind {
					t.Errorf("%s: row %q, want %q (rows %v)", name, rows[name], kind, rows)
				}
			}
			// Where this CPU runs the avx512 path natively, Valgrind's
			// CPU cannot: that sub-benchmark is a row of its own.
			avx := "github.com/zeebo/xxh3 BenchmarkFixed64/1024-AVX512/default"
			if strings.HasPrefix(tt.module, "github.com/zeebo/xxh3") && cpuHas("avx512f") && rows[avx] != results.TroubleNotCounted {
				t.Errorf("%s: row %q, want not counted (rows %v)\n%s", avx, rows[avx], rows, errOut)
			}
		})
	}
}

// countedIn reports whether doc has an instructions/op comparison of
// the benchmark name.
func countedIn(doc troubleDoc, name string) bool {
	for _, c := range doc.Comparisons {
		if c.Name == name && c.Unit == results.UnitInstructionsPerOp {
			return true
		}
	}
	return false
}
