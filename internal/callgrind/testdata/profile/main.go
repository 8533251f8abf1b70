// Command profile writes the callgrind dumps of testdata: a small encoder
// whose work is spread over helpers (a method, a closure, a generic
// function, one helper the compiler inlines and one it may not), counted
// in blocks bracketed by callgrind.Begin and End as wirebench's worker
// brackets them. Run it under callgrind (see ../README.md); outside
// Valgrind the requests do nothing.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/wirebench/wirebench/internal/callgrind"
)

// record is what the encoder writes.
type record struct {
	id    uint64
	name  string
	score []float64
}

// encoder appends records to buf.
type encoder struct{ buf []byte }

// varint is small enough to be inlined into its callers.
func varint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// checksum is kept out of line, so it has a symbol of its own.
//
//go:noinline
func checksum(b []byte) uint32 {
	var h uint32 = 2166136261
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// each calls f on every element: a generic function, instantiated for
// float64.
//
//go:noinline
func each[T any](xs []T, f func(T)) {
	for _, x := range xs {
		f(x)
	}
}

// encode is a method with a pointer receiver; its closure appends the
// scores.
//
//go:noinline
func (e *encoder) encode(r *record, extra int) {
	e.buf = varint(e.buf, r.id)
	e.buf = append(e.buf, r.name...)
	each(r.score, func(x float64) {
		e.buf = strconv.AppendFloat(e.buf, x, 'g', -1, 64)
	})
	for range extra {
		e.buf = varint(e.buf, uint32ToU64(checksum(e.buf)))
	}
}

//go:noinline
func uint32ToU64(x uint32) uint64 { return uint64(x) }

func main() {
	// The head of a pull request does more of one helper's work: extra
	// checksums per record.
	extra := 1
	if len(os.Args) > 1 {
		extra, _ = strconv.Atoi(os.Args[1])
	}
	r := &record{id: 300, name: "wirebench", score: []float64{1.5, 2.25, 1e10}}
	e := &encoder{buf: make([]byte, 0, 4096)}
	for _, n := range []int{64, 64, 128} {
		callgrind.Begin()
		for range n {
			e.buf = e.buf[:0]
			e.encode(r, extra)
		}
		callgrind.End(true)
	}
	fmt.Println(len(e.buf))
}
