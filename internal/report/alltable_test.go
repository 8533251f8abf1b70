package report

import (
	"testing"

	"github.com/wirebench/wirebench/internal/baseline"
)

// TestHistoryPosition: where a value lies against the stored runs' range
// of its metric.
func TestHistoryPosition(t *testing.T) {
	h := []baseline.Entry{
		{Medians: map[string]map[string]float64{"a": {"ns/op": 100, "B/msg": 26}}},
		{Medians: map[string]map[string]float64{"a": {"ns/op": 110, "B/msg": 26}}},
		{Medians: map[string]map[string]float64{"b": {"ns/op": 1}}},
	}
	tests := []struct {
		unit  string
		value float64
		want  string
	}{
		{"ns/op", 120, "**above** 100 ns – 110 ns (2 runs)"},
		{"ns/op", 105, "within 100 ns – 110 ns (2 runs)"},
		{"ns/op", 90, "**below** 100 ns – 110 ns (2 runs)"},
		{"B/msg", 30, "**above** 26 B (all 2 runs)"},
		{"allocs/op", 3, "–"}, // no stored run has it
	}
	for _, tt := range tests {
		if got := historyPosition(h, "a", tt.unit, tt.value); got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.unit, tt.value, got, tt.want)
		}
	}
	if got := historyPosition(h, "b", "ns/op", 5); got != "–" {
		t.Errorf("one run: %q, want –", got)
	}
}
