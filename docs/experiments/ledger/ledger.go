// Package ledger encodes a small ledger entry: the module whose history
// docs/experiments/history-counted.sh grows, one update at a time. The
// script edits its constants in a copy: grow adds a field to the message
// (10 bytes more on the wire) and growSpin iterations of work to its
// encoding, from the step's update on; spin is the loop a creep adds to
// every encoding, a few more iterations an update.
package ledger

import "encoding/binary"

const (
	grow     = false
	growSpin = 0
	spin     = 0
)

// Entry is one ledger entry.
type Entry struct {
	ID     uint64
	Items  []uint32
	Note   string
	Region string // on the wire only with grow
}

// sink keeps the spin loops from being optimised away.
var sink uint64

// Marshal appends the encoding of e to dst: 41 bytes for the benchmark's
// entry, 51 with grow.
func Marshal(dst []byte, e *Entry) []byte {
	for i := range spin {
		sink += uint64(i)
	}
	dst = binary.AppendUvarint(dst, e.ID)
	dst = binary.AppendUvarint(dst, uint64(len(e.Items)))
	for _, it := range e.Items {
		dst = binary.AppendUvarint(dst, uint64(it))
	}
	dst = binary.AppendUvarint(dst, uint64(len(e.Note)))
	dst = append(dst, e.Note...)
	if grow {
		for i := range growSpin {
			sink += uint64(i)
		}
		dst = binary.AppendUvarint(dst, uint64(len(e.Region)))
		dst = append(dst, e.Region...)
	}
	return dst
}

// Unmarshal decodes what Marshal wrote without the region, into e.
func Unmarshal(src []byte, e *Entry) bool {
	id, n := binary.Uvarint(src)
	if n <= 0 {
		return false
	}
	e.ID, src = id, src[n:]
	count, n := binary.Uvarint(src)
	if n <= 0 || count > uint64(len(src)) {
		return false
	}
	src = src[n:]
	e.Items = e.Items[:0]
	for range count {
		v, n := binary.Uvarint(src)
		if n <= 0 {
			return false
		}
		e.Items, src = append(e.Items, uint32(v)), src[n:]
	}
	l, n := binary.Uvarint(src)
	if n <= 0 || l > uint64(len(src)-n) {
		return false
	}
	e.Note = string(src[n : n+int(l)])
	return true
}

// Checksum is an unrelated benchmark's work: FNV-1a of b.
func Checksum(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
