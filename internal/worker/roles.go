package worker

import (
	"cmp"

	"github.com/wirebench/wirebench/internal/bench"
)

// Counted is what a counted block's reply says of its dumps, one role
// each, in the order they were written; HeapRoom is the bytes the heap
// could grow by after the block's collection before the collector's
// goal (0 without one, and when the collector is off).
type Counted struct {
	Sample   bench.Sample
	Roles    []DumpRole
	HeapRoom uint64
}

// DumpRole is what one of a counted block's dumps holds.
type DumpRole int

const (
	// DumpDropped holds work before the benchmark's last timer reset:
	// not the block's.
	DumpDropped DumpRole = iota
	// DumpWork holds part of the block's count (all of them summed).
	DumpWork
	// DumpCollection holds a collection counted at the end of a timed
	// run; only the last dump, when it is one, is the block's.
	DumpCollection
)

// dumpRoles is the role of each of r's dumps: the GCDumps positions are
// collections, the last Summed of the others the block's work (Summed 0:
// all of them), the rest dropped; false when the reply does not add up.
func dumpRoles(r Reply) (Counted, bool) {
	written := max(r.Dumps, 1)
	if !r.Counted || r.Dumps < 0 || written > maxDumps || len(r.GCDumps) >= written {
		return Counted{}, false
	}
	out := Counted{Sample: r.sample(), Roles: make([]DumpRole, written)}
	for _, k := range r.GCDumps {
		if k < 1 || k > written || out.Roles[k-1] == DumpCollection {
			return Counted{}, false
		}
		out.Roles[k-1] = DumpCollection
	}
	work := cmp.Or(r.Summed, written-len(r.GCDumps))
	for k := written - 1; k >= 0 && work > 0; k-- {
		if out.Roles[k] != DumpCollection {
			out.Roles[k] = DumpWork
			work--
		}
	}
	if work > 0 || r.Summed < 0 {
		return Counted{}, false
	}
	if out.Roles[written-1] == DumpCollection {
		out.HeapRoom = r.HeapRoom
	}
	return out, true
}

// maxDumps bounds the dumps one counted block may write: one per stop of
// a benchmark's timer, which a benchmark that stops it every iteration
// would make more of than is sensible to read.
const maxDumps = 100_000
