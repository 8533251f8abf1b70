package baseline

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
// the merge holds both new entries, in the order they were stored (theirs
// is stored, ours is written onto it), and the reference is the run
// stored last, whatever the runs' clocks say (ours was measured an hour
// before theirs: it used to lose the reference to theirs for that).
func TestMergeKeepsBothWriters(t *testing.T) {
	stored := New(runAt(t0, "c0", 100), "")
	ours, theirs := clone(t, stored), clone(t, stored)
	theirs.Add(runAt(t0.Add(2*time.Hour), "theirs", 101), "run-2", 50)
	ours.Add(runAt(t0.Add(1*time.Hour), "ours", 102), "run-1", 50)
	m := Merge(ours, theirs, 50)
	if got := strings.Join(commits(m.History), ","); got != "c0,theirs,ours" {
		t.Errorf("merged history %s, want c0,theirs,ours (the order of arrival)", got)
	}
	if m.Reference.Env.Commit != "ours" {
		t.Errorf("reference %s, want the run stored last (ours)", m.Reference.Env.Commit)
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

// TestOrderByArrival: whatever the runs' clocks say, a run that arrives
// becomes the reference and the newest entry, the history is trimmed by
// arrival, and a retried refresh adds nothing.
func TestOrderByArrival(t *testing.T) {
	future := t0.Add(100 * 365 * 24 * time.Hour)
	tests := []struct {
		name string
		// times of the runs, in the order they arrive
		times []time.Time
		limit int
		want  string // the history's commits, oldest arrival first
	}{
		{"clocks agree", []time.Time{t0, t0.Add(time.Hour), t0.Add(2 * time.Hour)}, 50, "r0,r1,r2"},
		{"a run from the future first", []time.Time{future, t0, t0.Add(time.Hour)}, 50, "r0,r1,r2"},
		{"clocks running backwards", []time.Time{t0.Add(2 * time.Hour), t0.Add(time.Hour), t0}, 50, "r0,r1,r2"},
		{"trimmed by arrival, not by time", []time.Time{t0, future, t0.Add(-time.Hour), t0.Add(time.Hour)}, 2, "r2,r3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b *Baseline
			for i, at := range tt.times {
				r := runAt(at, "r"+string(rune('0'+i)), 100+float64(i))
				b = Refresh(b, r, "", tt.limit)
				if b.Reference != r {
					t.Fatalf("after run %d the reference is %s, want the run that just arrived", i, b.Reference.Env.Commit)
				}
				if last := b.History[len(b.History)-1]; last.Commit != r.Env.Commit {
					t.Fatalf("after run %d the newest entry is %s", i, last.Commit)
				}
			}
			if got := strings.Join(commits(b.History), ","); got != tt.want {
				t.Errorf("history %s, want %s", got, tt.want)
			}
			b = clone(t, b) // the order survives a write and a read
			if got := strings.Join(commits(b.History), ","); got != tt.want {
				t.Errorf("history after encoding %s, want %s", got, tt.want)
			}
		})
	}
}

// TestRefreshIdempotent: a write retried after a lost answer finds its run
// stored and changes nothing, even when another run arrived in between.
func TestRefreshIdempotent(t *testing.T) {
	mine, theirs := runAt(t0.Add(time.Hour), "mine", 101), runAt(t0.Add(2*time.Hour), "theirs", 102)
	stored := Refresh(New(runAt(t0, "c0", 100), ""), mine, "run-1", 50)
	again := Refresh(clone(t, stored), mine, "run-1", 50)
	if got := strings.Join(commits(again.History), ","); got != "c0,mine" || again.Reference.Env.Commit != "mine" {
		t.Errorf("retry: history %s, reference %s; want c0,mine and mine", got, again.Reference.Env.Commit)
	}
	between := Refresh(clone(t, stored), theirs, "run-2", 50)
	retried := Refresh(clone(t, between), mine, "run-1", 50)
	if got := strings.Join(commits(retried.History), ","); got != "c0,mine,theirs" || retried.Reference.Env.Commit != "theirs" {
		t.Errorf("retry after another run: history %s, reference %s; want c0,mine,theirs and theirs", got, retried.Reference.Env.Commit)
	}
}

// TestDecodeWithoutSeq: a baseline written before arrival numbers existed
// reads in its file order, and a refresh appends after it.
func TestDecodeWithoutSeq(t *testing.T) {
	b := New(runAt(t0.Add(5*time.Hour), "late-clock", 100), "")
	b.Add(runAt(t0, "early-clock", 101), "", 50)
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	old := regexp.MustCompile(`\s*"seq": \d+,`).ReplaceAll(data, nil)
	if bytes.Contains(old, []byte(`"seq"`)) {
		t.Fatal("the seq fields were not removed")
	}
	got, err := Decode("old.json", old, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Join(commits(got.History), ","); c != "late-clock,early-clock" || got.History[0].Seq != 1 || got.History[1].Seq != 2 {
		t.Fatalf("history %s with seqs %d,%d; want the file's order numbered 1,2", c, got.History[0].Seq, got.History[1].Seq)
	}
	got.Add(runAt(t0.Add(-time.Hour), "new", 102), "", 50)
	if c := strings.Join(commits(got.History), ","); c != "late-clock,early-clock,new" || got.Reference.Env.Commit != "new" {
		t.Errorf("after a refresh: %s, reference %s", c, got.Reference.Env.Commit)
	}
}

// TestDecodeValidatesNumbers: impossible numbers in a stored baseline are
// one clear error naming the field and the fix.
func TestDecodeValidatesNumbers(t *testing.T) {
	good, _ := New(runAt(t0, "c0", 100), "").Encode()
	tests := []struct {
		name, old, new, want string
	}{
		{"negative median", `"ns/op": 101`, `"ns/op": -101`, `history[0] (commit c0): the median ns/op of BenchmarkSerialize/codec=protobuf/dataset=small is -101, want a finite number ≥ 0`},
		{"negative seq", `"seq": 1`, `"seq": -4`, "history[0] (commit c0): seq is -4, want a count ≥ 0"},
		{"history time", `"time": "2026-11-30T12:00:00Z",` + "\n   \"commit\"", `"time": "yesterday",` + "\n   \"commit\"", `history[0].time is "yesterday", not a time`},
		{"reference time", `"time": "2026-11-30T12:00:00Z"` + "\n  },", `"time": "soon"` + "\n  },", `reference.env.time is "soon", not a time`},
		{"negative value", `100,`, `-100,`, "reference run: benchmark BenchmarkSerialize/codec=protobuf/dataset=small: metric ns/op has the invalid value -100"},
		{"negative count", `"settings": {}`, `"settings": {"samples": -3}`, "reference run: settings.samples is -3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := bytes.Replace(good, []byte(tt.old), []byte(tt.new), 1)
			if bytes.Equal(data, good) {
				t.Fatalf("%q is not in the baseline:\n%s", tt.old, good)
			}
			_, err := Decode("b.json", data, "")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "b.json") ||
				!strings.Contains(err.Error(), "run `wirebench update`") || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line naming b.json, saying %q and the fix", err, tt.want)
			}
		})
	}
}

// TestClockedRoundTrip: a counted run's wall-time check is stored with
// it, in the reference and the history entry, and read back as the
// baseline of wall times (Clocked); a corrupt median in it is an error.
func TestClockedRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.json")
	b := New(runAt(t0, "c0", 100), "") // timed only: no wall-time check
	for i := 1; i <= 3; i++ {
		r := runAt(t0.Add(time.Duration(i)*time.Hour), "c"+string(rune('0'+i)), 0)
		r.Benchmarks[0].Metrics[0] = results.Metric{Unit: results.UnitInstructionsPerOp, Values: []float64{1000, 1001, 1000}}
		r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 3, Blocks: 3}
		r.Clock = runAt(r.Env.Time, r.Env.Commit, 100+float64(i))
		b.Add(r, "", 50)
	}
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	c := got.Clocked()
	if c == nil || len(c.History) != 3 || c.Reference.Settings.Counter != nil || c.ReferenceEntry() != 2 {
		t.Fatalf("clocked baseline %+v: want the 3 timed checks, the newest the reference", c)
	}
	if m := c.History[2].Medians["BenchmarkSerialize/codec=protobuf/dataset=small"][results.UnitNsPerOp]; m != 104 {
		t.Errorf("the newest wall-time median is %v, want 104", m)
	}
	if got.History[2].Spread == nil || c.History[2].Spread != nil {
		t.Errorf("spreads: the count's %v, the clock's %v; want the count's only", got.History[2].Spread, c.History[2].Spread)
	}
	data, _ := os.ReadFile(path)
	bad := regexp.MustCompile(`("clock": \{\s*"harness": \{[^}]*\},\s*"medians": \{\s*"[^"]+": \{[^}]*"ns/op": )[0-9.]+`).ReplaceAll(data, []byte("${1}-1"))
	if bytes.Equal(bad, data) {
		t.Fatalf("the test did not find a wall-time median to corrupt:\n%s", data)
	}
	if _, err := Decode("default.json", bad, "default"); err == nil || !strings.Contains(err.Error(), "clock") {
		t.Errorf("a negative wall-time median: %v, want an error naming the clock", err)
	}
}

// TestSummarizeSpread: a run's entry records how its counts' processes
// spread and which allocation metrics every sample agreed on, with the
// batch sizes they were measured in; timings and sizes have no spread; the
// pull requests a refresh names are recorded; a corrupt spread is an
// error naming it.
func TestSummarizeSpread(t *testing.T) {
	r := results.New("default", results.Env{Time: t0, Commit: "c0"})
	r.Benchmarks = []results.Benchmark{{Name: "BenchmarkA", Iterations: []int64{512, 256, 512}, Metrics: []results.Metric{
		{Unit: results.UnitNsPerOp, Values: []float64{100, 101, 102}},
		{Unit: results.UnitBytesPerMsg, Values: []float64{26}},
		{Unit: results.UnitInstructionsPerOp, Values: []float64{1000, 1000 * math.Exp(0.002), 1000 * math.Exp(-0.002)}},
		{Unit: results.UnitAllocsPerOp, Values: []float64{3, 3, 3}},
		{Unit: results.UnitBytesPerOp, Values: []float64{0, 8, 8}},
		{Unit: "widgets/op", Values: []float64{2, 4, 8}},
	}}, {Name: "BenchmarkB", Metrics: []results.Metric{
		{Unit: results.UnitAllocsPerOp, Values: []float64{1.5, 1.5}},
	}}}
	e := RefreshAccepted(nil, r, "1", 5, nil, []int{123}).History[0]
	a := e.Spread["BenchmarkA"]
	if _, ok := a[results.UnitNsPerOp]; ok || len(a) != 3 {
		t.Errorf("spread of A %v: want instructions/op, allocs/op and widgets/op only (B/op has a zero among unequal values)", a)
	}
	checks := []struct {
		unit string
		want float64
	}{
		{results.UnitInstructionsPerOp, 0.002 * 1.2533 / math.Sqrt(3)},
		{results.UnitAllocsPerOp, 0},
		{"widgets/op", math.Log(2) * 1.2533 / math.Sqrt(3)},
	}
	for _, c := range checks {
		if got := a[c.unit]; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("spread of %s: %v, want %v", c.unit, got, c.want)
		}
	}
	if got := e.Batches["BenchmarkA"]; !slices.Equal(got, []int64{256, 512}) {
		t.Errorf("batches of A %v, want [256 512]", got)
	}
	if _, ok := e.Batches["BenchmarkB"]; ok || e.Spread["BenchmarkB"][results.UnitAllocsPerOp] != 0 {
		t.Errorf("B, exact without recorded iterations: spread %v, batches %v", e.Spread["BenchmarkB"], e.Batches["BenchmarkB"])
	}
	if e.Counter != nil {
		t.Errorf("a timed run's entry has a counter: %+v", e.Counter)
	}
	r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3, Estimate: time.Minute, Budget: time.Hour}
	if c := Summarize(r, "").Counter; c == nil || c.Processes != 5 || c.Estimate != 0 || c.Budget != 0 {
		t.Errorf("counter %+v, want the run's without its estimate and budget", c)
	}
	if !slices.Equal(e.PullRequests, []int{123}) {
		t.Errorf("pull requests %v, want [123]", e.PullRequests)
	}
	b := New(r, "")
	data, _ := b.Encode()
	bad := regexp.MustCompile(`("spread": \{\s*"BenchmarkA": \{[^}]*"allocs/op": )0`).ReplaceAll(data, []byte("${1}-1"))
	if bytes.Equal(bad, data) {
		t.Fatalf("the test did not find a spread to corrupt:\n%s", data)
	}
	if _, err := Decode("b.json", bad, ""); err == nil || !strings.Contains(err.Error(), "the spread allocs/op of BenchmarkA is -1") {
		t.Errorf("a negative spread: %v", err)
	}
}
