package worker

import (
	"slices"
	"testing"
)

// TestDumpRoles: a counted reply's dumps are the block's work (the last
// Summed that are not collections), collections, or dropped; a reply
// whose numbers do not add up is refused.
func TestDumpRoles(t *testing.T) {
	const (
		d = DumpDropped
		w = DumpWork
		c = DumpCollection
	)
	for _, tt := range []struct {
		name  string
		r     Reply
		roles []DumpRole // nil: refused
		room  uint64
	}{
		{"one dump, an old worker", Reply{Counted: true}, []DumpRole{w}, 0},
		{"the block and its collection", Reply{Counted: true, Dumps: 2, Summed: 1, GCDumps: []int{2}, HeapRoom: 4 << 20}, []DumpRole{w, c}, 4 << 20},
		{"a warm-up run's stop before the last reset", Reply{Counted: true, Dumps: 3, Summed: 1, GCDumps: []int{3}, HeapRoom: 9}, []DumpRole{d, w, c}, 9},
		{"a collection between, then a stop", Reply{Counted: true, Dumps: 4, Summed: 2, GCDumps: []int{2}, HeapRoom: 9}, []DumpRole{d, c, w, w}, 0},
		{"summed 0: every dump not a collection", Reply{Counted: true, Dumps: 3, GCDumps: []int{3}, HeapRoom: 1}, []DumpRole{w, w, c}, 1},
		{"not counted", Reply{Dumps: 1}, nil, 0},
		{"only collections", Reply{Counted: true, Dumps: 1, GCDumps: []int{1}}, nil, 0},
		{"a collection past the dumps", Reply{Counted: true, Dumps: 2, Summed: 1, GCDumps: []int{3}}, nil, 0},
		{"the same collection twice", Reply{Counted: true, Dumps: 3, Summed: 1, GCDumps: []int{3, 3}}, nil, 0},
		{"more summed than there are", Reply{Counted: true, Dumps: 2, Summed: 2, GCDumps: []int{2}}, nil, 0},
		{"negative summed", Reply{Counted: true, Dumps: 2, Summed: -1}, nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := dumpRoles(tt.r)
			if tt.roles == nil {
				if ok {
					t.Errorf("accepted: %v", got.Roles)
				}
				return
			}
			if !ok || !slices.Equal(got.Roles, tt.roles) || got.HeapRoom != tt.room {
				t.Errorf("roles %v (ok %t), heap room %d; want %v, %d", got.Roles, ok, got.HeapRoom, tt.roles, tt.room)
			}
		})
	}
}
