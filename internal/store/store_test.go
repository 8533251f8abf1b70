package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/fakegithub"
	"github.com/wirebench/wirebench/internal/githubapi"
	"github.com/wirebench/wirebench/internal/results"
)

// run is a one-benchmark run measured at t.
func run(t time.Time, ns float64) *results.Results {
	r := results.New("default", results.Env{Time: t, Commit: t.Format("150405")})
	b := results.Benchmark{Name: "BenchmarkX"}
	b.Add(results.UnitNsPerOp, ns)
	r.Benchmarks = append(r.Benchmarks, b)
	return r
}

func refresh(r *results.Results) func(*baseline.Baseline) *baseline.Baseline {
	return func(old *baseline.Baseline) *baseline.Baseline { return baseline.Refresh(old, r, "", 3) }
}

// TestStores: both stores start empty, take a refresh, read it back, and
// bound the history; a corrupt file is an error and stays as it was.
func TestStores(t *testing.T) {
	srv := fakegithub.New()
	t.Cleanup(srv.Close)
	api, err := githubapi.New(githubapi.Options{BaseURL: srv.URL, Token: "ghs_test", Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stores := map[string]Store{
		"file":   File{Path: filepath.Join(dir, "sub", "b.json"), Suite: "default"},
		"github": GitHub{API: api, Owner: "o", Repo: "r", Path: "baseline/default.json", Branch: "main", Suite: "default", Message: "update [skip ci]"},
	}
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, st := range stores {
		t.Run(name, func(t *testing.T) {
			if b, err := st.Load(ctx); b != nil || err != nil {
				t.Fatalf("empty store: %v, %v", b, err)
			}
			for i := range 5 {
				where, err := st.Update(ctx, refresh(run(t0.Add(time.Duration(i)*time.Hour), 100+float64(i))))
				if err != nil || where == "" {
					t.Fatalf("update %d: %q, %v", i, where, err)
				}
			}
			b, err := st.Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.History) != 3 || b.Reference.Benchmarks[0].Metric(results.UnitNsPerOp)[0] != 104 {
				t.Errorf("history %d entries (want 3), reference %v (want the last run)", len(b.History), b.Reference.Benchmarks[0].Metrics)
			}
			if !strings.Contains(st.Where(), map[string]string{"file": "local file", "github": "branch main"}[name]) {
				t.Errorf("Where() = %q", st.Where())
			}
		})
	}
	if c := srv.Commits(); len(c) != 5 || c[0].Message != "update [skip ci]" {
		t.Errorf("%d commits on the fake, want 5 with the message", len(c))
	}
	if _, blob, err := stores["github"].(GitHub).LoadBlob(ctx); err != nil || len(blob) != 7 {
		t.Errorf("blob %q, %v", blob, err)
	}

	// A corrupt file: an error naming it, and the file is left as it was.
	path := filepath.Join(dir, "cut.json")
	os.WriteFile(path, []byte(`{"format":"wirebench.baseline","version":1,`), 0o644)
	before, _ := os.ReadFile(path)
	f := File{Path: path}
	if _, err := f.Load(ctx); err == nil || !strings.Contains(err.Error(), "cut.json") {
		t.Errorf("load of a corrupt file: %v", err)
	}
	if _, err := f.Update(ctx, refresh(run(t0, 1))); err == nil {
		t.Error("update over a corrupt file succeeded")
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the corrupt file was changed")
	}
}

// TestFutureBaselineReplaced: a stored baseline whose runs carry times in
// the future (a skewed clock, an edited file) is refreshed like any other
// through the API: the new run becomes the reference and the newest entry.
// (It used to stay the reference for good: update said "updated" and
// nothing changed.)
func TestFutureBaselineReplaced(t *testing.T) {
	srv := fakegithub.New()
	t.Cleanup(srv.Close)
	api, err := githubapi.New(githubapi.Options{BaseURL: srv.URL, Token: "ghs_test", Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	future := time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)
	stored := baseline.New(run(future, 500), "run-1")
	stored.Add(run(future.Add(time.Hour), 501), "run-2", 50)
	data, err := stored.Encode()
	if err != nil {
		t.Fatal(err)
	}
	srv.SetFile("o", "r", "main", "baseline/default.json", data)
	st := GitHub{API: api, Owner: "o", Repo: "r", Path: "baseline/default.json", Branch: "main", Suite: "default", Message: "update [skip ci]"}

	now := run(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), 100)
	ctx := context.Background()
	if _, err := st.Update(ctx, func(old *baseline.Baseline) *baseline.Baseline { return baseline.Refresh(old, now, "run-3", 50) }); err != nil {
		t.Fatal(err)
	}
	b, err := st.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Reference.Benchmarks[0].Metric(results.UnitNsPerOp)[0]; got != 100 {
		t.Errorf("reference ns/op %v, want 100 (the run just stored)", got)
	}
	if n := len(b.History); n != 3 || b.History[n-1].RunID != "run-3" || b.History[0].RunID != "run-1" {
		t.Errorf("history %+v, want run-1, run-2, run-3 in arrival order", b.History)
	}
	if c := srv.Commits(); len(c) == 0 || c[len(c)-1].Message != "update [skip ci]" {
		t.Errorf("no commit of the update on the fake: %+v", c)
	}
}
