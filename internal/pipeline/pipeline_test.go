package pipeline

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/report"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/store"
)

// runOf is a run of one benchmark with 10 samples around ns and an
// encoded size.
func runOf(ns, size float64) *results.Results {
	r := results.New("default", results.Env{Machine: "m", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	b := results.Benchmark{Name: "BenchmarkSerialize/codec=raw/dataset=small"}
	for i := range 10 {
		b.Add(results.UnitNsPerOp, ns*(1+0.001*float64(i%3-1)))
	}
	b.Add(results.UnitBytesPerMsg, size)
	r.Benchmarks = append(r.Benchmarks, b)
	return r
}

func TestAgainst(t *testing.T) {
	tests := []struct {
		name         string
		base         *baseline.Baseline
		cand         *results.Results
		failOn       compare.FailOn
		verdict      Verdict
		regressions  int
		improvements int
	}{
		{"no baseline yet", nil, runOf(100, 26), "", NoBaseline, 0, 0},
		{"unchanged", baseline.New(runOf(100, 26), ""), runOf(100, 26), "", Pass, 0, 0},
		{"bigger message", baseline.New(runOf(100, 26), ""), runOf(100, 32), "", Fail, 1, 0},
		{"fail-on never", baseline.New(runOf(100, 26), ""), runOf(100, 32), compare.FailOnNever, Pass, 1, 0},
		{"faster", baseline.New(runOf(100, 26), ""), runOf(50, 26), "", Pass, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Against(tt.base, tt.cand, compare.Defaults(), report.Input{FailOn: tt.failOn, BaselineSource: "b.json"})
			if err != nil {
				t.Fatal(err)
			}
			regs, imps := o.Counts()
			if o.Verdict != tt.verdict || regs != tt.regressions || imps != tt.improvements || o.Failed() != (tt.verdict == Fail) {
				t.Errorf("verdict %s, %d regressions, %d improvements; want %s, %d, %d", o.Verdict, regs, imps, tt.verdict, tt.regressions, tt.improvements)
			}
			if o.Report.Candidate != tt.cand || (tt.base != nil) != (o.Report.Result != nil) {
				t.Errorf("report input %+v", o.Report)
			}
		})
	}
	// Benchmarks in common are required.
	other := runOf(100, 26)
	other.Benchmarks[0].Name = "BenchmarkOther"
	if _, err := Against(baseline.New(runOf(100, 26), ""), other, compare.Defaults(), report.Input{BaselineSource: "b.json"}); err == nil {
		t.Error("no benchmark in common compared")
	}
}

func TestUpdate(t *testing.T) {
	st := store.File{Path: filepath.Join(t.TempDir(), "b.json"), Suite: "default"}
	ctx := context.Background()
	for i := 1; i <= 2; i++ {
		r := runOf(100, 26)
		r.Env.Time = r.Env.Time.Add(time.Duration(i) * time.Minute)
		o, err := Update(ctx, st, r, "", 50, report.Input{})
		if err != nil {
			t.Fatal(err)
		}
		if o.Verdict != Updated || o.Updated != st.Path || len(o.Stored.History) != i {
			t.Errorf("update %d: %s at %q, %d in the history", i, o.Verdict, o.Updated, len(o.Stored.History))
		}
	}
	if o := Run(runOf(1, 1), report.Input{}); o.Verdict != Measured || o.Failed() {
		t.Errorf("run: %s", o.Verdict)
	}
}
