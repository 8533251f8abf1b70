package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// liveModule is a module whose BenchmarkLive keeps slots pointers to
// parts alive between operations, a ring that each operation refills
// one slot of with a new part: the same allocations and instructions an
// operation whatever slots is, but a collector that has more to mark
// and less room before its goal the longer the ring.
func liveModule(t *testing.T, slots int) string {
	return writeModule(t, map[string]string{
		"go.mod": "module example.com/live\n\ngo 1.24\n",
		"live.go": `package live

// Part is what the ring points to.
type Part struct {
	Kind  string
	Value float64
	Notes []string
}

// Ring keeps its parts alive.
type Ring struct {
	slots []*Part
	next  int
}

// NewRing is a ring of n slots, each filled.
func NewRing(n int) *Ring {
	r := &Ring{slots: make([]*Part, n)}
	for i := range n {
		r.Put(float64(i))
	}
	return r
}

// Put replaces the oldest part with a new one.
func (r *Ring) Put(v float64) {
	r.slots[r.next] = &Part{Kind: "k", Value: v}
	if r.next++; r.next == len(r.slots) {
		r.next = 0
	}
}
`,
		"live_test.go": `package live

import "testing"

func BenchmarkLive(b *testing.B) {
	b.ReportAllocs()
	r := NewRing(` + strconv.Itoa(slots) + `)
	v := 0.0
	for b.Loop() {
		v++
		r.Put(v)
	}
}
`,
	})
}

// TestCountedCollector: a head whose benchmark keeps twice as many
// pointers alive, the same instructions and allocations an operation,
// fails a counted A/B run on gc-instructions/op alone, and the report
// names that metric; the same code passes, its collector's count among
// what was compared.
func TestCountedCollector(t *testing.T) {
	if testing.Short() {
		t.Skip("counts processes under valgrind")
	}
	needValgrind(t)
	base, head := liveModule(t, 20_000), liveModule(t, 40_000)
	for _, tt := range []struct {
		name, head string
		code       int
		regressed  []string
	}{
		{"unchanged", base, exitOK, nil},
		{"twice as much alive", head, exitFail, []string{results.UnitGCInstructionsPerOp}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.md")
			code, stdout, errOut := wb(t, tt.head, "ab", "--base", base, "--bench", ".", "--metric", "instructions", "--processes", "3", "--measure-all", "--format", "json", "--report", report)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, errOut)
			}
			var doc struct {
				Comparisons []struct {
					Unit    string  `json:"unit"`
					Verdict string  `json:"verdict"`
					Ratio   float64 `json:"ratio"`
				} `json:"comparisons"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatal(err)
			}
			var regressed []string
			units := map[string]bool{}
			for _, c := range doc.Comparisons {
				units[c.Unit] = true
				if c.Verdict == "regression" {
					regressed = append(regressed, c.Unit)
				}
			}
			if strings.Join(regressed, ",") != strings.Join(tt.regressed, ",") || !units[results.UnitGCInstructionsPerOp] {
				t.Errorf("regressions on %v, want %v; units compared %v", regressed, tt.regressed, units)
			}
			md, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			if tt.regressed != nil && !strings.Contains(string(md), results.UnitGCInstructionsPerOp) {
				t.Errorf("the report does not name %s:\n%s", results.UnitGCInstructionsPerOp, md)
			}
		})
	}
}
