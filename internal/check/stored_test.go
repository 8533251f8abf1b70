package check

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/accept"
	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/outcome"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/source"
)

// TestStored: the one stored-baseline flow, on a candidate read from a
// file (nothing measured, so no count and no confirmation): a grown
// message fails, what the pull request accepts passes it, no baseline
// passes as outcome.NoBaseline, the commit given is not recorded on what was
// read, and a file that cannot be read is the user's bad input, not the
// code's failure.
func TestStored(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r *results.Results) string {
		path := filepath.Join(dir, name)
		if err := r.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	grown := write("grown.json", runOf(100, 32))
	same := write("same.json", runOf(100, 26))
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := baseline.New(runOf(100, 26), "")
	acceptAll := func(_ context.Context, o *outcome.Outcome) {
		Accept(o, accept.Set{{Source: "label wirebench:accept", PR: 7}})
	}
	tests := []struct {
		name     string
		file     string
		base     *baseline.Baseline
		accept   func(context.Context, *outcome.Outcome)
		verdict  outcome.Verdict
		accepted int
		bad      bool
	}{
		{"a grown message", grown, base, nil, outcome.Fail, 0, false},
		{"accepted by the pull request", grown, base, acceptAll, outcome.Pass, 1, false},
		{"unchanged", same, base, nil, outcome.Pass, 0, false},
		{"no baseline yet", grown, nil, nil, outcome.NoBaseline, 0, false},
		{"a corrupt file", corrupt, base, nil, "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Parse(config.Check, nil)
			if err != nil {
				t.Fatal(err)
			}
			var progress bytes.Buffer
			s := Stored{Host: testHost{progress: &progress}, Config: c, Source: source.File{Path: tt.file}, Base: tt.base,
				Input: outcome.Report{Title: "t", BaselineSource: "b.json", Notes: []string{"run note"}}, Commit: "abc", Accept: tt.accept}
			o, err := s.Run(context.Background())
			var bad BadInput
			if tt.bad {
				if !errors.As(err, &bad) {
					t.Fatalf("err %v, want bad input", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s", o.Verdict, tt.verdict)
			}
			if n := o.Report.Notes; len(n) == 0 || n[0] != "run note" {
				t.Errorf("notes %q: the run's first", n)
			}
			if o.Report.Candidate.Env.Commit == "abc" {
				t.Error("the commit given was recorded on results read from a file")
			}
			if r := o.Report.Result; r != nil {
				got := 0
				for _, cmp := range r.Comparisons {
					if cmp.Accepted != nil && cmp.Verdict == compare.Regression {
						got++
					}
				}
				if got != tt.accepted {
					t.Errorf("%d accepted, want %d", got, tt.accepted)
				}
			}
			if strings.Contains(progress.String(), "timing") {
				t.Errorf("a read candidate was timed or confirmed: %q", progress.String())
			}
		})
	}
}
