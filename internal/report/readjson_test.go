package report

import (
	"bytes"
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
)

// TestReadJSONRoundTrip: the comparison a JSON document is read back into
// writes the same document again, byte for byte, for every kind of
// fixture (timed, counted with where the work went, paired, not failing,
// inconclusive), so a report rendered from it says what the run said.
func TestReadJSONRoundTrip(t *testing.T) {
	for name, r := range map[string]*compare.Result{
		"typical": typicalResult(), "where": whereResult(), "paired": pairedResult(false), "paired-noisy": pairedResult(true),
		"mixed": mixedResult(), "inconclusive": inconclusiveResult(), "short-history": shortHistoryResult(),
	} {
		t.Run(name, func(t *testing.T) {
			for _, failOn := range []compare.FailOn{compare.FailOnRegression, compare.FailOnNever} {
				var first bytes.Buffer
				if err := JSON(&first, r, failOn); err != nil {
					t.Fatal(err)
				}
				back, gotFailOn, err := ReadJSON(first.Bytes())
				if err != nil {
					t.Fatalf("ReadJSON: %v", err)
				}
				if gotFailOn != failOn {
					t.Errorf("fail-on %q, want %q", gotFailOn, failOn)
				}
				var second bytes.Buffer
				if err := JSON(&second, back, gotFailOn); err != nil {
					t.Fatal(err)
				}
				if first.String() != second.String() {
					a, b := strings.Split(first.String(), "\n"), strings.Split(second.String(), "\n")
					for i := range min(len(a), len(b)) {
						if a[i] != b[i] {
							t.Fatalf("line %d differs:\nwritten: %s\nread back: %s", i+1, a[i], b[i])
						}
					}
					t.Fatalf("%d lines written, %d read back", len(a), len(b))
				}
				if md := Markdown(outcome.Report{Result: back, FailOn: gotFailOn}, Options{}); headline(back, gotFailOn) != headline(r, failOn) || !strings.HasPrefix(md, headline(r, failOn)) {
					t.Errorf("the headline read back differs:\n%s\n%s", headline(back, gotFailOn), headline(r, failOn))
				}
			}
		})
	}
}

// TestReadJSONRefuses: a document that is not one, of another format or
// version, or that contradicts itself is refused with what is wrong.
func TestReadJSONRefuses(t *testing.T) {
	var good bytes.Buffer
	if err := JSON(&good, typicalResult(), compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	doc := good.String()
	tests := []struct {
		name, data, want string
	}{
		{"not JSON", "<html>", "not a comparison document"},
		{"two documents", doc + doc, "data after its end"},
		{"another format", strings.Replace(doc, `"format": "wirebench.comparison"`, `"format": "other"`, 1), `format "other"`},
		{"another version", strings.Replace(doc, `"version": 1`, `"version": 2`, 1), "version 2"},
		{"a forged verdict", strings.Replace(doc, `"verdict": "fail"`, `"verdict": "pass"`, 1), "inconsistent document: verdict"},
		{"forged counts", strings.Replace(doc, `"regression": 2,`, `"regression": 0,`, 1), "inconsistent document: counts"},
		{"an unknown verdict", strings.Replace(doc, `"verdict": "regression"`, `"verdict": "great"`, 1), `verdict "great"`},
		{"an unknown kind", strings.Replace(doc, `"kind": "exact"`, `"kind": "magic"`, 1), `kind "magic"`},
		{"a bad threshold", strings.Replace(doc, `"threshold": 0.05`, `"threshold": 7`, 1), "options: threshold"},
		{"an unknown method", strings.Replace(doc, `"method": "stored-baseline"`, `"method": "trust-me"`, 1), `method "trust-me"`},
		{"a forged enforcement", strings.Replace(doc, `"enforced": true`, `"enforced": false`, 1), "says enforced false"},
		{"a number that is text", strings.Replace(doc, `"ratio": `, `"ratio": "x", "r": `, 1), "not a comparison document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.data == doc {
				t.Fatal("the forgery changed nothing: fix the test")
			}
			_, _, err := ReadJSON([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// FuzzReadJSON: whatever a document holds, reading it and rendering what
// was read neither panics nor exceeds the comment's bound. Run with:
// go test -fuzz FuzzReadJSON ./internal/report
func FuzzReadJSON(f *testing.F) {
	for _, r := range []*compare.Result{typicalResult(), whereResult(), pairedResult(true), mixedResult()} {
		var b bytes.Buffer
		if err := JSON(&b, r, compare.FailOnRegression); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, failOn, err := ReadJSON(data)
		if err != nil {
			return
		}
		if md := Markdown(outcome.Report{Result: r, FailOn: failOn}, Options{}); len(md) > DefaultMaxChars {
			t.Fatalf("%d bytes rendered, bound %d", len(md), DefaultMaxChars)
		}
	})
}
