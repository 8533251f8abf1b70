// Package where encodes an order with a few helpers, each a function of
// its own, so that a count can say which of them did the work; more
// turns on, in the head, more work in one of them (checksum runs over the
// first quarter of the message again), and where.sh checks that
// wirebench names that helper, and no other, as the change.
package where

import (
	"errors"
	"math"
)

// more is the head's change: checksum does a quarter more work.
const more = false

type Order struct {
	ID       uint64
	Customer string
	Items    []Item
	Total    float64
}

type Item struct {
	SKU   string
	Qty   uint32
	Price float64
}

// Encode appends o to dst: its fields, then a checksum of what it wrote.
func Encode(dst []byte, o *Order) []byte {
	start := len(dst)
	dst = appendUvarint(dst, o.ID)
	dst = appendString(dst, o.Customer)
	dst = appendUvarint(dst, uint64(len(o.Items)))
	for i := range o.Items {
		dst = appendItem(dst, &o.Items[i])
	}
	dst = appendFloat(dst, o.Total)
	return appendUint32(dst, checksum(dst[start:]))
}

//go:noinline
func appendItem(dst []byte, it *Item) []byte {
	dst = appendString(dst, it.SKU)
	dst = appendUvarint(dst, uint64(it.Qty))
	return appendFloat(dst, it.Price)
}

//go:noinline
func appendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

//go:noinline
func appendString(dst []byte, s string) []byte {
	dst = appendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendFloat is small enough to be inlined: its work is its callers'.
func appendFloat(dst []byte, f float64) []byte {
	return appendUint64(dst, math.Float64bits(f))
}

func appendUint64(dst []byte, v uint64) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

func appendUint32(dst []byte, v uint32) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// checksum is FNV-1a over b; with more, then over b's first quarter
// again.
//
//go:noinline
func checksum(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	if more {
		for _, c := range b[:len(b)/4] {
			h = (h ^ uint32(c)) * 16777619
		}
	}
	return h
}

var errShort = errors.New("where: short message")

// Decode reads an order Encode wrote, without checking its checksum.
func Decode(b []byte) (Order, error) {
	var o Order
	var n uint64
	var ok bool
	if o.ID, b, ok = readUvarint(b); !ok {
		return o, errShort
	}
	if o.Customer, b, ok = readString(b); !ok {
		return o, errShort
	}
	if n, b, ok = readUvarint(b); !ok || n > uint64(len(b)) {
		return o, errShort
	}
	o.Items = make([]Item, n)
	for i := range o.Items {
		it := &o.Items[i]
		var q uint64
		if it.SKU, b, ok = readString(b); !ok {
			return o, errShort
		}
		if q, b, ok = readUvarint(b); !ok {
			return o, errShort
		}
		it.Qty = uint32(q)
		if it.Price, b, ok = readFloat(b); !ok {
			return o, errShort
		}
	}
	if o.Total, _, ok = readFloat(b); !ok {
		return o, errShort
	}
	return o, nil
}

//go:noinline
func readUvarint(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i, c := range b {
		if i == 10 {
			return 0, nil, false
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}

//go:noinline
func readString(b []byte) (string, []byte, bool) {
	n, b, ok := readUvarint(b)
	if !ok || n > uint64(len(b)) {
		return "", nil, false
	}
	return string(b[:n]), b[n:], true
}

func readFloat(b []byte) (float64, []byte, bool) {
	if len(b) < 8 {
		return 0, nil, false
	}
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return math.Float64frombits(v), b[8:], true
}
