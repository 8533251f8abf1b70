package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
)

func TestEmbeddedTarget(t *testing.T) {
	target := Embedded{}.Target(Plan{Filter: "x"})
	dir := t.TempDir()
	if err := target.CheckTree(dir); !errors.Is(err, program.ErrSetup) || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("empty dir: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644)
	if err := target.CheckTree(dir); !errors.Is(err, program.ErrSetup) || !strings.Contains(err.Error(), "no ./cmd/wirebench") {
		t.Errorf("module without cmd/wirebench: %v", err)
	}
	// A tree from before the command was renamed, then one after.
	for _, cmd := range []string{"action", "wirebench"} {
		os.MkdirAll(filepath.Join(dir, "cmd", cmd), 0o755)
		if err := target.CheckTree(dir); err != nil {
			t.Errorf("a wirebench-shaped tree with cmd/%s: %v", cmd, err)
		}
	}
	if got := embeddedPackage(dir); got != "./cmd/wirebench" {
		t.Errorf("with both commands the tree builds %s, want ./cmd/wirebench", got)
	}
	if err := target.CheckTree(filepath.Join(dir, "nope")); !errors.Is(err, program.ErrSetup) {
		t.Errorf("a missing dir: %v", err)
	}
}

// TestEmbeddedResults measures two benchmarks briefly, whole and as one of
// two shards.
func TestEmbeddedResults(t *testing.T) {
	ctx := context.Background()
	p := Plan{Budget: 200 * time.Millisecond, Samples: 2, Filter: "codec=raw/dataset=small$"}
	r, notes, err := Embedded{}.Results(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Benchmarks) != 2 || r.Suite != "default" || r.Settings.Filter != p.Filter || len(notes) != 0 {
		t.Errorf("%d benchmarks of suite %q, filter %q, notes %q", len(r.Benchmarks), r.Suite, r.Settings.Filter, notes)
	}
	// Two shards: every benchmark in exactly one (a shard may be empty).
	seen := map[string]int{}
	for _, sh := range []string{"1/2", "2/2"} {
		p.Shard = sh
		r, _, err := Embedded{}.Results(ctx, p)
		if err != nil {
			if !strings.Contains(err.Error(), "has no benchmarks") {
				t.Fatal(err)
			}
			continue
		}
		if r.Settings.Shard != sh || r.Settings.SuiteSize != 2 || r.Settings.Partition == "" {
			t.Errorf("shard %q of %d, partition %q", r.Settings.Shard, r.Settings.SuiteSize, r.Settings.Partition)
		}
		for _, b := range r.Benchmarks {
			seen[b.Name]++
		}
	}
	if len(seen) != 2 || seen["BenchmarkSerialize/codec=raw/dataset=small"] != 1 || seen["BenchmarkDeserialize/codec=raw/dataset=small"] != 1 {
		t.Errorf("the shards measured %v, want each benchmark once", seen)
	}
	if _, _, err := (Embedded{}).Results(ctx, Plan{Filter: "codec=nope"}); err == nil || !strings.Contains(err.Error(), "matches no benchmark") {
		t.Errorf("empty selection: %v", err)
	}
}

func TestFileAndShards(t *testing.T) {
	dir := t.TempDir()
	bench := filepath.Join(dir, "bench.txt")
	os.WriteFile(bench, []byte("pkg: example.com/x\nBenchmarkA-2\t100\t10 ns/op\nBenchmarkA-2\t100\t11 ns/op\n"), 0o644)
	r, _, err := File{Path: bench, Commit: "abc"}.Results(context.Background(), Plan{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Env.Commit != "abc" || r.Env.Time.IsZero() || len(r.Benchmarks) != 1 || len(r.Benchmarks[0].Metric(results.UnitNsPerOp)) != 2 {
		t.Errorf("commit %q time %v, benchmarks %+v", r.Env.Commit, r.Env.Time, r.Benchmarks)
	}
	if _, _, err := (File{Path: filepath.Join(dir, "nope")}).Results(context.Background(), Plan{}); err == nil {
		t.Error("a missing file read")
	}
	if _, _, err := (Shards{Paths: []string{dir + "/empty"}}).Results(context.Background(), Plan{}); err == nil || !strings.Contains(err.Error(), "merge:") {
		t.Errorf("missing shards dir: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "shards"), 0o755)
	if _, _, err := (Shards{Paths: []string{dir + "/shards"}}).Results(context.Background(), Plan{}); err == nil || !strings.Contains(err.Error(), "download the shards' artifacts first") {
		t.Errorf("empty shards dir: %v", err)
	}
}

// TestShardsBounded: downloaded shard artifacts are counted and sized
// before any is read: more files than a matrix has shards, or more bytes
// than a merged results file may hold, is an error.
func TestShardsBounded(t *testing.T) {
	many := t.TempDir()
	for i := range shard.MaxCount + 1 {
		os.WriteFile(filepath.Join(many, fmt.Sprintf("shard-%03d.json", i)), []byte("{}"), 0o644)
	}
	big := t.TempDir()
	for i := range 2 {
		f, err := os.Create(filepath.Join(big, fmt.Sprintf("shard-%d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(results.MaxFileBytes/2 + 1) // sparse: no disk used
		f.Close()
	}
	for _, tt := range []struct{ dir, want string }{
		{many, "257 results files, more than the 256 shards"},
		{big, "the 2 results files hold 64 MiB, more than the 64 MiB"},
	} {
		_, _, err := Shards{Paths: []string{tt.dir}}.Results(context.Background(), Plan{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want it to say %q", err, tt.want)
		}
	}
}

// TestGoTestOneSided compares two trees of one module whose benchmarks
// differ: the base has BenchmarkKept and BenchmarkGone, the head
// BenchmarkKept and BenchmarkAdded. Both sides list their own benchmarks
// (their workers start at the same time, and a list one side made must
// not stand for the other's), so the result names the one removed and the
// one added, and measures only the one in common.
func TestGoTestOneSided(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two test binaries")
	}
	tree := func(benchmarks ...string) string {
		dir := t.TempDir()
		src := "package wire\n\nimport \"testing\"\n"
		for _, b := range benchmarks {
			src += fmt.Sprintf("\nfunc Benchmark%s(b *testing.B) {\n\ts := 0\n\tfor i := 0; i < b.N; i++ {\n\t\ts += i\n\t}\n\t_ = s\n}\n", b)
		}
		for name, content := range map[string]string{
			"go.mod":       "module example.com/wire\n\ngo 1.22\n",
			"wire.go":      "package wire\n",
			"wire_test.go": src,
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	ctx := context.Background()
	target := GoTest{Packages: []string{"./..."}, Bench: "."}.Target(Plan{})
	work := t.TempDir()
	var progs [2]program.Program
	for i, dir := range []string{tree("Kept", "Gone"), tree("Kept", "Added")} {
		p, _, err := target.Build(ctx, dir, filepath.Join(work, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		progs[i] = p
	}
	for run := range 3 { // the two sides' lists race: more than one run
		o, err := ab.Run(ctx, ab.Processes(progs[0], progs[1], ab.StartOptions{}),
			ab.Options{Budget: 300 * time.Millisecond, ConfirmBudget: -1, MinRounds: 2, Seed: uint64(run + 1)})
		if err != nil {
			t.Fatal(err)
		}
		const pkg = "example.com/wire "
		if got := fmt.Sprint(o.Result.Missing, o.Result.New); got != "["+pkg+"BenchmarkGone] ["+pkg+"BenchmarkAdded]" {
			t.Errorf("run %d: only in the base, only in the head: %s", run, got)
		}
		for _, c := range o.Result.Comparisons {
			if c.Name != pkg+"BenchmarkKept" {
				t.Errorf("run %d: compared %q", run, c.Name)
			}
		}
	}
}
