package baseline

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/results"
)

func runAt(t time.Time, commit string, ns float64) *results.Results {
	r := results.New("default", results.Env{Time: t, Commit: commit, Machine: "m"})
	r.Benchmarks = []results.Benchmark{{Name: "BenchmarkSerialize/codec=protobuf/dataset=small", Metrics: []results.Metric{
		{Unit: results.UnitNsPerOp, Values: []float64{ns, ns + 2, ns + 1}},
		{Unit: results.UnitBytesPerMsg, Values: []float64{26}},
	}}}
	return r
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestSaveLoadAndHistoryBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline", "default.json")
	b := New(runAt(t0, "c0", 100), "1")
	for i := 1; i < 8; i++ {
		b.Add(runAt(t0.Add(time.Duration(i)*time.Hour), "c"+string(rune('0'+i)), 100+float64(i)), "", 5)
	}
	if len(b.History) != 5 || b.History[0].Commit != "c3" || b.History[4].Commit != "c7" {
		t.Fatalf("history %v, want the newest 5 (c3..c7) oldest first", commits(b.History))
	}
	if got := b.History[4].Medians["BenchmarkSerialize/codec=protobuf/dataset=small"][results.UnitNsPerOp]; got != 108 {
		t.Errorf("median %v, want 108", got)
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	if got.Reference.Env.Commit != "c7" || len(got.History) != 5 {
		t.Errorf("loaded reference %s with %d entries", got.Reference.Env.Commit, len(got.History))
	}
}

func commits(h []Entry) []string {
	var s []string
	for _, e := range h {
		s = append(s, e.Commit)
	}
	return s
}

// TestMergeKeepsBothWriters: two updates raced from the same stored copy;
// the merge holds both new entries and the newer reference.
func TestMergeKeepsBothWriters(t *testing.T) {
	stored := New(runAt(t0, "c0", 100), "")
	ours, theirs := clone(t, stored), clone(t, stored)
	theirs.Add(runAt(t0.Add(2*time.Hour), "theirs", 101), "run-2", 50)
	ours.Add(runAt(t0.Add(1*time.Hour), "ours", 102), "run-1", 50)
	m := Merge(ours, theirs, 50)
	if got := strings.Join(commits(m.History), ","); got != "c0,ours,theirs" {
		t.Errorf("merged history %s, want c0,ours,theirs", got)
	}
	if m.Reference.Env.Commit != "theirs" {
		t.Errorf("reference %s, want the more recent run (theirs)", m.Reference.Env.Commit)
	}
	// Merging again is idempotent.
	if again := Merge(m, theirs, 50); len(again.History) != 3 {
		t.Errorf("re-merge has %d entries, want 3", len(again.History))
	}
}

func clone(t *testing.T, b *Baseline) *Baseline {
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Decode("clone", data, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	good, _ := New(runAt(t0, "c0", 100), "").Encode()
	tests := []struct {
		name    string
		content []byte
		suite   string
		want    string
	}{
		{"truncated", good[:len(good)/2], "", "truncated or corrupt"},
		{"empty", nil, "", "is empty"},
		{"other json", []byte(`{"a":1}`), "", "not a wirebench baseline"},
		{"results file", []byte(`{"format":"wirebench.results","version":1}`), "", "not a wirebench baseline"},
		{"newer", bytes.Replace(good, []byte(`"version": 1`), []byte(`"version": 9`), 1), "", "upgrade wirebench"},
		{"other suite", good, "mine", `for suite "default", not "mine"`},
		{"no reference", []byte(`{"format":"wirebench.baseline","version":1,"suite":"default"}`), "", "no reference run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".json")
			os.WriteFile(path, tt.content, 0o644)
			_, err := Load(path, tt.suite)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, tt.content) {
				t.Error("loading changed the file")
			}
		})
	}
	_, err := Load(filepath.Join(dir, "absent.json"), "")
	if !errors.Is(err, ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}

// TestSummarizeHarnessAndReference: an entry records the harness settings
// its run was measured with, and the reference's entry is found by its
// time and commit (or, without a time, by its medians), so it is never
// counted twice.
func TestSummarizeHarnessAndReference(t *testing.T) {
	r := runAt(t0, "c0", 100)
	r.Settings = results.Settings{Samples: 15, Budget: 20 * time.Second, Warmup: 30 * time.Millisecond, Source: "wirebench"}
	b := New(r, "")
	if h := b.History[0].Harness; h == nil || h.Samples != 15 || h.Budget != 20*time.Second || h.Warmup != 30*time.Millisecond || h.Shards != 1 {
		t.Errorf("harness %+v, want samples 15, budget 20s, warm-up 30ms, 1 shard", h)
	}
	for i := 1; i < 4; i++ {
		b.Add(runAt(t0.Add(time.Duration(i)*time.Hour), "c"+string(rune('0'+i)), 100+float64(i)), "", 50)
	}
	if got := b.ReferenceEntry(); got != 3 {
		t.Errorf("reference entry %d, want 3 (the newest)", got)
	}
	b.Reference = runAt(t0.Add(time.Hour), "c1", 101) // an older run as the reference
	if got := b.ReferenceEntry(); got != 1 {
		t.Errorf("reference entry %d, want 1", got)
	}
	b.Reference.Env.Time = time.Time{} // no time: found by its medians
	if got := b.ReferenceEntry(); got != 1 {
		t.Errorf("reference without a time: entry %d, want 1", got)
	}
	b.Reference = runAt(t0.Add(9*time.Hour), "other", 555)
	if got := b.ReferenceEntry(); got != -1 {
		t.Errorf("a reference not in the history: entry %d, want -1", got)
	}
}
