package results

import (
	"cmp"
	"slices"

	"github.com/wirebench/wirebench/internal/stats"
)

// MinCountedPerNs is the fewest instructions a count must hold per
// nanosecond of its benchmark's native time to be taken for all of the
// benchmark's work: below it the operation spends most of its time
// where a count cannot see (sleeping, waiting for another thread or the
// kernel, stalled on memory), and only a clock sees it grow. CPU-bound
// code runs several instructions a nanosecond; measured here (2026-12-03,
// AMD EPYC): the embedded suite's 84 benchmarks 5.4 to 18, a 64-item
// encoder 11, the same with a 1-byte write to /dev/null 4.9, handing each
// operation to a goroutine on another thread 0.37, waiting 50µs in
// nanosleep 0.027, in time.Sleep 0.005.
const MinCountedPerNs = 1.0

// Unseen is a counted benchmark whose count explains little of its time.
type Unseen struct {
	Name string // the benchmark's key (Key)
	// InstructionsPerOp is the median count, NativeNsPerOp the
	// calibration's native time of one operation.
	InstructionsPerOp, NativeNsPerOp float64
}

// PerNs is the instructions counted per nanosecond of native time.
func (u Unseen) PerNs() float64 { return u.InstructionsPerOp / u.NativeNsPerOp }

// Unseen lists r's counted benchmarks whose instructions/op fall below
// MinCountedPerNs of their native ns/op, by key. Benchmarks without a
// native time or a count are left out: nothing says what they miss.
func (r *Results) Unseen() []Unseen {
	var out []Unseen
	for _, b := range r.Benchmarks {
		v := b.Metric(UnitInstructionsPerOp)
		if len(v) == 0 || b.NativeNsPerOp <= 0 {
			continue
		}
		m, _ := stats.Median(v) // v is not empty
		u := Unseen{Name: Key(b.Pkg, b.Name), InstructionsPerOp: m, NativeNsPerOp: b.NativeNsPerOp}
		if u.PerNs() < MinCountedPerNs {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b Unseen) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Serial lists, by key, r's counted benchmarks of functions that call
// RunParallel: their counts are their serial work, and their parallel
// speed-up or contention only a clock sees.
func (r *Results) Serial() []string {
	var out []string
	for _, b := range r.Benchmarks {
		if b.Parallel && len(b.Metric(UnitInstructionsPerOp)) > 0 {
			out = append(out, b.Key())
		}
	}
	slices.Sort(out)
	return out
}
