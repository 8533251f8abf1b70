package bench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/wirebench/wirebench/matrix"
)

// raw is the hand-written floor codec of one dataset type: fixed-width
// little-endian numbers, a uint32 length before every string and array,
// map entries in sorted key order. It has no schema evolution, no field
// tags and no reflection, which makes it the floor the real codecs are
// measured against (like the hand-rolled algorithms of the Perl comparison
// wirebench grew from). Encode sizes the buffer exactly first. Each
// dataset's file gives bind, which prepares a value (sorted keys, say)
// and returns its encoder and decoder.
type raw[T any] struct {
	bind func(v *T) (enc func() []byte, dec func(r *rawReader) *T)
}

func (raw[T]) Name() string { return "raw" }

func (c raw[T]) Bind(m *matrix.Message) (matrix.Ops, error) {
	v, ok := m.Value.(*T)
	if !ok {
		return matrix.Ops{}, fmt.Errorf("%w: raw encodes a %T, not a %T", matrix.ErrNotApplicable, v, m.Value)
	}
	enc, dec := c.bind(v)
	return matrix.Ops{
		Encode: func() ([]byte, error) { return enc(), nil },
		Decode: func(b []byte) (any, error) {
			r := rawReader{b: b}
			out := dec(&r)
			if r.err == nil && len(r.b) != 0 {
				r.err = fmt.Errorf("%d trailing bytes", len(r.b))
			}
			if r.err != nil {
				return nil, &DecodeError{Codec: "raw", Cause: r.err}
			}
			return out, nil
		},
		Check: m.CheckValue,
		Sum:   m.Sum,
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
