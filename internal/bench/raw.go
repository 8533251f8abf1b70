package bench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Raw is a hand-written length-prefixed binary encoding: fixed-width
// little-endian numbers, a uint32 length before every string and array,
// map entries in sorted key order. It has no schema evolution, no field
// tags and no reflection, which makes it the floor the real codecs are
// measured against (like the hand-rolled algorithms of the Perl
// comparison wirebench grew from). Encode sizes the buffer exactly first.
type Raw struct{}

func (Raw) Name() string { return "raw" }

func (c Raw) Bind(v any) (Ops, error) {
	var enc func() []byte
	var dec func(r *rawReader) any
	switch v := v.(type) {
	case *Primitive:
		enc, dec = rawPrimitiveCodec(v)
	case *Medium:
		enc, dec = rawMediumCodec(v)
	case *Large:
		enc, dec = rawLargeCodec(v)
	case *Floats:
		enc, dec = rawFloatsCodec(v)
	case *Pairs:
		enc, dec = rawPairsCodec(v)
	default:
		return Ops{}, errUnsupported(c, v)
	}
	decode := func(b []byte) (any, error) {
		r := rawReader{b: b}
		out := dec(&r)
		if r.err == nil && len(r.b) != 0 {
			r.err = fmt.Errorf("%d trailing bytes", len(r.b))
		}
		if r.err != nil {
			return nil, &DecodeError{Codec: "raw", Cause: r.err}
		}
		return out, nil
	}
	return Ops{
		Encode: func() ([]byte, error) { return enc(), nil },
		Decode: func(b []byte) (uint64, error) {
			out, err := decode(b)
			if err != nil {
				return 0, err
			}
			return Checksum(out), nil
		},
		Canonical: decode,
	}, nil
}

func rawPrimitiveSize(p *Primitive) int { return 4 + 8 + 4 + len(p.StrVal) + 1 }

func rawPrimitive(b []byte, p *Primitive) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(p.IntVal))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.FloatVal))
	b = rawString(b, p.StrVal)
	if p.BoolVal {
		return append(b, 1)
	}
	return append(b, 0)
}

func rawString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func rawFloat64s(b []byte, v []float64) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

var errShort = errors.New("unexpected end of data")

// rawReader decodes the raw format with bounds checks; the first error
// sticks and later reads return zero values.
type rawReader struct {
	b   []byte
	err error
}

func (r *rawReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = errShort
		r.b = nil
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *rawReader) uint32() uint32 {
	if p := r.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (r *rawReader) int32() int32 { return int32(r.uint32()) }

func (r *rawReader) float64() float64 {
	if p := r.take(8); p != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(p))
	}
	return 0
}

// count reads an element count and checks that the remaining input could
// hold that many elements of at least minSize bytes, so corrupt input
// cannot make the decoder allocate gigabytes.
func (r *rawReader) count(minSize int) int {
	n := int(r.uint32())
	if r.err == nil && n*minSize > len(r.b) {
		r.err = fmt.Errorf("count %d exceeds the remaining %d bytes", n, len(r.b))
		return 0
	}
	return n
}

func (r *rawReader) string() string { return string(r.take(r.count(1))) }

func (r *rawReader) float64s() []float64 {
	n := r.count(8)
	p := r.take(8 * n)
	if p == nil {
		return nil
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return v
}

func (r *rawReader) primitive() Primitive {
	p := Primitive{IntVal: r.int32(), FloatVal: r.float64(), StrVal: r.string()}
	if t := r.take(1); t != nil {
		p.BoolVal = t[0] != 0
	}
	return p
}

// DecodeError reports input a codec could not decode.
type DecodeError struct {
	Codec string
	Cause any
}

func (e *DecodeError) Error() string { return fmt.Sprintf("%s: malformed input: %v", e.Codec, e.Cause) }

// rawPrimitiveCodec encodes and decodes a *Primitive.
func rawPrimitiveCodec(v *Primitive) (enc func() []byte, dec func(r *rawReader) any) {
	enc = func() []byte { return rawPrimitive(make([]byte, 0, rawPrimitiveSize(v)), v) }
	dec = func(r *rawReader) any { p := r.primitive(); return &p }
	return enc, dec
}

// rawMediumCodec encodes and decodes a *Medium.
func rawMediumCodec(v *Medium) (enc func() []byte, dec func(r *rawReader) any) {
	keys := sortedKeys(v.Metadata)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = v.Metadata[k]
	}
	enc = func() []byte {
		n := 4 + len(v.Name) + 4 + 4 + 8*len(v.Scores) + 4 + rawPrimitiveSize(&v.Nested)
		for i := range keys {
			n += 8 + len(keys[i]) + len(vals[i])
		}
		b := make([]byte, 0, n)
		b = rawString(b, v.Name)
		b = binary.LittleEndian.AppendUint32(b, uint32(v.ID))
		b = rawFloat64s(b, v.Scores)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
		for i := range keys {
			b = rawString(b, keys[i])
			b = rawString(b, vals[i])
		}
		return rawPrimitive(b, &v.Nested)
	}
	dec = func(r *rawReader) any {
		m := &Medium{Name: r.string(), ID: r.int32(), Scores: r.float64s()}
		n := r.count(8)
		m.Metadata = make(map[string]string, n)
		for range n {
			k := r.string()
			m.Metadata[k] = r.string()
		}
		m.Nested = r.primitive()
		return m
	}
	return enc, dec
}

// rawLargeCodec encodes and decodes a *Large.
func rawLargeCodec(v *Large) (enc func() []byte, dec func(r *rawReader) any) {
	enc = func() []byte {
		n := 4
		for i := range v.Items {
			n += 4 + len(v.Items[i].Name) + 4 + 8 + 4
			for _, t := range v.Items[i].Tags {
				n += 4 + len(t)
			}
		}
		b := make([]byte, 0, n)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v.Items)))
		for i := range v.Items {
			it := &v.Items[i]
			b = rawString(b, it.Name)
			b = binary.LittleEndian.AppendUint32(b, uint32(it.ID))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(it.Score))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(it.Tags)))
			for _, t := range it.Tags {
				b = rawString(b, t)
			}
		}
		return b
	}
	dec = func(r *rawReader) any {
		l := &Large{Items: make([]Item, r.count(4+4+8+4))}
		for i := range l.Items {
			it := &l.Items[i]
			it.Name, it.ID, it.Score = r.string(), r.int32(), r.float64()
			it.Tags = make([]string, r.count(4))
			for j := range it.Tags {
				it.Tags[j] = r.string()
			}
		}
		return l
	}
	return enc, dec
}

// rawFloatsCodec encodes and decodes a *Floats.
func rawFloatsCodec(v *Floats) (enc func() []byte, dec func(r *rawReader) any) {
	enc = func() []byte { return rawFloat64s(make([]byte, 0, 4+8*len(v.Values)), v.Values) }
	dec = func(r *rawReader) any { return &Floats{Values: r.float64s()} }
	return enc, dec
}

// rawPairsCodec encodes and decodes a *Pairs.
func rawPairsCodec(v *Pairs) (enc func() []byte, dec func(r *rawReader) any) {
	enc = func() []byte {
		n := 4
		for _, p := range v.Pairs {
			n += 8 + 8*(len(p.A)+len(p.B))
		}
		b := binary.LittleEndian.AppendUint32(make([]byte, 0, n), uint32(len(v.Pairs)))
		for _, p := range v.Pairs {
			b = rawFloat64s(b, p.A)
			b = rawFloat64s(b, p.B)
		}
		return b
	}
	dec = func(r *rawReader) any {
		p := &Pairs{Pairs: make([]Pair, r.count(8))}
		for i := range p.Pairs {
			p.Pairs[i] = Pair{A: r.float64s(), B: r.float64s()}
		}
		return p
	}
	return enc, dec
}
