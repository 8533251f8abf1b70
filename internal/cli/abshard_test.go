package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// shardedModule is a module of two packages whose benchmarks all call one
// helper; with head, the helper does a fifth more work for inputs
// divisible by 3 (p1's BenchmarkMix1 only: a regression is counted again,
// and the test's time matters), p1 has a benchmark the base lacks and p2
// lacks one the base has.
func shardedModule(t *testing.T, head bool) string {
	extra, files := "0", map[string]string{"go.mod": "module example.com/sharded\n\ngo 1.22\n"}
	if head {
		extra = "1"
	}
	files["helper/helper.go"] = `package helper

// Mix does about n rounds of integer mixing.
func Mix(n int) uint64 {
	rounds := n
	if ` + extra + ` == 1 && n%3 == 0 {
		rounds += n / 5
	}
	x := uint64(n)
	for i := 0; i < rounds; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
`
	bench := func(name string, n int) string {
		return fmt.Sprintf("\nfunc Benchmark%s(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += helper.Mix(%d)\n\t}\n}\n", name, n)
	}
	for p, ns := range [][]int{{600, 800}, {1000, 1100}} {
		src := fmt.Sprintf("package p%d\n\nimport (\n\t\"testing\"\n\n\t\"example.com/sharded/helper\"\n)\n\nvar sink uint64\n", p+1)
		for i, n := range ns {
			src += bench(fmt.Sprintf("Mix%d", i+1), n)
		}
		switch {
		case p == 0 && head:
			src += bench("New", 500)
		case p == 1 && !head:
			src += bench("Old", 500)
		}
		files[fmt.Sprintf("p%d/p_test.go", p+1)] = src
	}
	return writeModule(t, files)
}

// abVerdicts is a comparison's verdict of every benchmark and unit, and
// its missing and new benchmarks, from ab's or merge's JSON.
func abVerdicts(t *testing.T, out string) (map[string]string, []string, []string) {
	t.Helper()
	var doc struct {
		Method      string `json:"method"`
		Comparisons []struct {
			Name, Unit, Verdict string
		} `json:"comparisons"`
		Missing []string `json:"missing"`
		New     []string `json:"new"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Method != "counted-ab" {
		t.Fatalf("method %q, %v\n%s", doc.Method, err, out)
	}
	v := map[string]string{}
	for _, c := range doc.Comparisons {
		v[c.Name+" "+c.Unit] = c.Verdict
	}
	slices.Sort(doc.Missing)
	slices.Sort(doc.New)
	return v, doc.Missing, doc.New
}

// TestABShards counts a module's A/B comparison whole and as 2 shards of
// a job matrix, and merges the shards: the merge's verdicts (a
// regression in one package, the rest unchanged), missing and new
// benchmarks and exit code are the unsharded run's. A missing shard, a
// shard given twice and a shard's file whose benchmark was moved to
// another shard are errors that say so.
func TestABShards(t *testing.T) {
	if testing.Short() {
		t.Skip("counts processes under valgrind")
	}
	needValgrind(t)
	// Not parallel: wb moves the working directory, and TestCountedModule
	// already runs beside the container tests.
	base, head := shardedModule(t, false), shardedModule(t, true)
	counted := []string{"ab", "--base", base, "--head", head, "--bench", ".", "--metric", "instructions", "--processes", "3", "--measure-all"}
	code, stdout, stderr := wb(t, base, append(counted, "--format", "json")...)
	if code != exitFail {
		t.Fatalf("unsharded: exit %d, want %d\n%s", code, exitFail, stderr)
	}
	want, wantMissing, wantNew := abVerdicts(t, stdout)
	regressions := 0
	for k, v := range want {
		if v == "regression" && strings.HasSuffix(k, " instructions/op") {
			regressions++
		}
	}
	if regressions != 1 || len(wantMissing) != 1 || len(wantNew) != 1 {
		t.Fatalf("unsharded: %d regressions, missing %v, new %v; want one each\n%v", regressions, wantMissing, wantNew, want)
	}

	dir := t.TempDir()
	for i := 1; i <= 2; i++ {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i), "ab-shard.json")
		if code, _, stderr := wb(t, base, append(counted, "--shard", fmt.Sprintf("%d/2", i), "--out", out)...); code != exitOK {
			t.Fatalf("shard %d/2: exit %d\n%s", i, code, stderr)
		}
	}
	code, stdout, stderr = wb(t, base, "merge", "--format", "json", "--out", filepath.Join(t.TempDir(), "r.json"), dir)
	if code != exitFail {
		t.Fatalf("merge: exit %d, want %d\n%s", code, exitFail, stderr)
	}
	got, gotMissing, gotNew := abVerdicts(t, stdout)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: merged %q, unsharded %q", k, got[k], v)
		}
	}
	if len(got) != len(want) || !slices.Equal(gotMissing, wantMissing) || !slices.Equal(gotNew, wantNew) {
		t.Errorf("merged %d comparisons, missing %v, new %v; unsharded %d, %v, %v", len(got), gotMissing, gotNew, len(want), wantMissing, wantNew)
	}

	// The action's merge job over the same files, on the pull request:
	// one comment, one summary, the verdict fail; the shards recorded no
	// commits (the command line's), which the report notes.
	t.Run("action merge", func(t *testing.T) {
		fake := fakegithub.New()
		t.Cleanup(fake.Close)
		fake.AddToken(baseToken, fakegithub.ActionsBot)
		ws := t.TempDir()
		event := payload(t, ws, "pull_request.json", func(map[string]any) {})
		code, stdout, stderr := actionIn(t, ws, map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
			"GITHUB_API_URL": fake.URL, "GITHUB_SHA": strings.Repeat("f", 40), "GITHUB_REF": "refs/pull/42/merge", "GITHUB_RUN_ID": "201"},
			map[string]string{"github-token": baseToken, "mode": "merge", "merge-path": dir, "bench": ".", "comment": "always"})
		comments := fake.Comments(pairOwner, pairRepo, 42)
		summary, _ := os.ReadFile(filepath.Join(ws, "summary.md"))
		output, _ := os.ReadFile(filepath.Join(ws, "output.txt"))
		if code != exitFail || len(comments) != 1 || !strings.Contains(string(output), "\nfail\n") {
			t.Fatalf("exit %d, %d comments, outputs %q; want %d, 1, verdict=fail\n%s\n%s", code, len(comments), output, exitFail, stdout, stderr)
		}
		for _, want := range []string{"Merged from 2 A/B shards", "did not record which commits", "Mix1"} {
			if !strings.Contains(comments[0].Body, want) || !strings.Contains(string(summary), want) {
				t.Errorf("the comment or the summary lacks %q:\n%s\n---\n%s", want, comments[0].Body, summary)
			}
		}
	})

	// What the merge refuses, each with what to do.
	one := filepath.Join(dir, "shard-1", "ab-shard.json")
	two := filepath.Join(dir, "shard-2", "ab-shard.json")
	data, _ := os.ReadFile(two)
	moved := filepath.Join(t.TempDir(), "moved.json")
	os.WriteFile(moved, []byte(strings.Replace(string(data), `"shard": "2/2"`, `"shard": "1/2"`, 1)), 0o644)
	for _, tt := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", []string{one}, "shard 2 of 2 missing"},
		{"twice", []string{one, two, two}, "appears twice"},
		{"moved", []string{moved, two}, "which the partition gives shard 2/2"},
	} {
		code, _, stderr := wb(t, base, append([]string{"merge"}, tt.files...)...)
		if code != exitBadInput || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, want %d and %q\n%s", tt.name, code, exitBadInput, tt.want, stderr)
		}
	}
}

// TestABShardActionInputs: the action splits a same-runner A/B
// comparison only when counted, and says which input to set.
func TestABShardActionInputs(t *testing.T) {
	ws := t.TempDir()
	event := payload(t, ws, "pull_request.json", func(map[string]any) {})
	code, stdout, stderr := actionIn(t, ws, map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event},
		map[string]string{"bench": ".", "base-path": "base", "shard": "1/4", "metric": "time"})
	if code != exitBadInput || !strings.Contains(stdout+stderr, "set input metric to instructions or cycles") {
		t.Errorf("exit %d, want %d and which input to set\n%s\n%s", code, exitBadInput, stdout, stderr)
	}
}
