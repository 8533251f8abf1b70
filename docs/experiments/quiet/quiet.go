// Package quiet is what a count must hold steady: operations that make
// a system call, sleep, or allocate nested values, and one whose live
// heap the head can double (live).
package quiet

import (
	"encoding/json"
	"os"
	"time"
)

// live is how many times 20,000 pointers the Live benchmark keeps alive
// between operations: 1 in the base; a head with 2 keeps twice as many
// (and the Parts they point to), with the same allocations and the same
// instructions an operation.
const live = 1

// Item is a nested message: a map, a slice of pointers and strings.
type Item struct {
	ID    int               `json:"id"`
	Name  string            `json:"name"`
	Tags  map[string]string `json:"tags"`
	Parts []*Part           `json:"parts"`
}

// Part is Item's element.
type Part struct {
	Kind  string   `json:"kind"`
	Value float64  `json:"value"`
	Notes []string `json:"notes"`
}

// Sample is an Item of n parts, encoded.
func Sample(n int) []byte {
	it := Item{ID: 7, Name: "sample", Tags: map[string]string{"a": "1", "b": "2", "c": "3"}}
	for i := range n {
		it.Parts = append(it.Parts, &Part{Kind: "k", Value: float64(i) / 3, Notes: []string{"x", "y"}})
	}
	b, err := json.Marshal(it)
	if err != nil {
		panic(err)
	}
	return b
}

// Decode unmarshals an Item.
func Decode(b []byte) (*Item, error) {
	it := new(Item)
	return it, json.Unmarshal(b, it)
}

var devNull, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)

// WriteNull writes one byte to /dev/null.
func WriteNull(p []byte) {
	if _, err := devNull.Write(p[:1]); err != nil {
		panic(err)
	}
}

// Pipe is a pipe written and read one byte at a time.
type Pipe struct{ r, w *os.File }

// NewPipe opens one.
func NewPipe() *Pipe {
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	return &Pipe{r, w}
}

// RoundTrip writes a byte and reads it back.
func (p *Pipe) RoundTrip(b []byte) {
	if _, err := p.w.Write(b[:1]); err != nil {
		panic(err)
	}
	if _, err := p.r.Read(b[:1]); err != nil {
		panic(err)
	}
}

// Nap sleeps a nanosecond.
func Nap() { time.Sleep(time.Nanosecond) }

// Keep is a ring of pointers to Parts that the Live benchmark fills one
// slot an operation: what it keeps alive is the ring's length.
type Keep struct {
	slots []*Part
	next  int
}

// NewKeep makes a ring of n×live slots.
func NewKeep(n int) *Keep { return &Keep{slots: make([]*Part, n*live)} }

// Len is the ring's length.
func (k *Keep) Len() int { return len(k.slots) }

// Put allocates one Part and keeps it in the next slot, in place of the
// one kept there before.
func (k *Keep) Put(v float64) {
	k.slots[k.next] = &Part{Kind: "k", Value: v}
	if k.next++; k.next == len(k.slots) {
		k.next = 0
	}
}
