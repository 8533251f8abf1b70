package report

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
)

// TestJSON decodes the JSON of several results and checks the fields a
// consumer relies on; NaN and infinities must come out as null.
func TestJSON(t *testing.T) {
	noShift := mixedResult()
	noShift.Shift = nil
	for _, tc := range []struct {
		name        string
		r           *compare.Result
		failOn      compare.FailOn
		verdict     string
		regressions int
		shift       bool
	}{
		{"mixed", mixedResult(), compare.FailOnRegression, "fail", 2, true},
		{"never fails", mixedResult(), compare.FailOnNever, "pass", 2, true},
		{"default fail-on", mixedResult(), "", "fail", 2, true},
		{"no shift", noShift, compare.FailOnRegression, "fail", 2, false},
		{"unchanged", suiteResult(true), compare.FailOnRegression, "pass", 0, true},
		{"typical", typicalResult(), compare.FailOnRegression, "fail", 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := JSON(&b, tc.r, tc.failOn); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Format      string
				Version     int
				Verdict     string
				Counts      map[string]int
				SpeedShift  *map[string]any `json:"speed_shift"`
				Comparisons []map[string]any
				Missing     []string
			}
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if doc.Format != JSONFormat || doc.Version != JSONVersion || doc.Verdict != tc.verdict {
				t.Errorf("format %q version %d verdict %q, want %q %d %q", doc.Format, doc.Version, doc.Verdict, JSONFormat, JSONVersion, tc.verdict)
			}
			if doc.Counts["regression"] != tc.regressions || doc.Counts["comparisons"] != len(tc.r.Comparisons) {
				t.Errorf("counts %v", doc.Counts)
			}
			if (doc.SpeedShift != nil) != tc.shift {
				t.Errorf("speed_shift %v, want present=%v", doc.SpeedShift, tc.shift)
			}
			if doc.Missing == nil {
				t.Errorf("missing is null, want a list")
			}
			if len(doc.Comparisons) != len(tc.r.Comparisons) {
				t.Fatalf("%d comparisons, want %d", len(doc.Comparisons), len(tc.r.Comparisons))
			}
			for _, c := range doc.Comparisons {
				for _, k := range []string{"name", "unit", "kind", "baseline", "candidate", "n_baseline", "n_candidate", "ratio", "ci_low", "ci_high",
					"p_value", "p_adjusted", "verdict", "mde", "samples_needed", "normalized", "note"} {
					if _, ok := c[k]; !ok {
						t.Fatalf("comparison lacks %q: %v", k, c)
					}
				}
				if c["kind"] == "exact" && c["p_value"] != nil {
					t.Errorf("exact comparison has p_value %v, want null", c["p_value"])
				}
			}
			// Report order: the first comparison is the largest regression.
			if tc.regressions > 0 && doc.Comparisons[0]["verdict"] != "regression" {
				t.Errorf("first comparison is %v", doc.Comparisons[0]["verdict"])
			}
		})
	}
}

func TestNumNull(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"}, {0.25, "0.25"}, {1e-7, "1e-07"}, {0, "0"}} {
		got, err := num(tc.in).MarshalJSON()
		if err != nil || string(got) != tc.want {
			t.Errorf("num(%v) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}
