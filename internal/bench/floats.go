package bench

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/matrix"
	"github.com/wirebench/wirebench/schemas/fb"
	"github.com/wirebench/wirebench/schemas/pb"
)

// Floats is a numeric array, the family that shows how cost grows with
// payload size.
type Floats struct {
	Values []float64 `msgpack:"values" json:"values"`
}

// Pair is two numeric arrays.
type Pair struct {
	A []float64 `msgpack:"a" json:"a"`
	B []float64 `msgpack:"b" json:"b"`
}

// Pairs is a list of pairs of numeric arrays (the bulk transfer of
// seed 004: 100 pairs of 250,000 doubles, about 381 MB).
type Pairs struct {
	Pairs []Pair `msgpack:"pairs" json:"pairs"`
}

// floatSeed fixes the numeric arrays' contents across runs and machines.
const floatSeed = 0x77697265 // "wire"

// NewFloats returns n doubles drawn from a fixed seed, spread over several
// orders of magnitude so text formats do not get an easy ride.
func NewFloats(n int) *Floats {
	return &Floats{Values: randomFloats(rand.New(rand.NewPCG(floatSeed, uint64(n))), n)}
}

// NewPairs returns count pairs of n-element arrays from a fixed seed.
func NewPairs(count, n int) *Pairs {
	r := rand.New(rand.NewPCG(floatSeed, uint64(count)<<32|uint64(n)))
	p := make([]Pair, count)
	for i := range p {
		p[i] = Pair{A: randomFloats(r, n), B: randomFloats(r, n)}
	}
	return &Pairs{Pairs: p}
}

func randomFloats(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(7)-3))
	}
	return v
}

// floatsMessage is v in every form.
func floatsMessage(v *Floats) *matrix.Message {
	return &matrix.Message{
		Value:    v,
		New:      func() any { return new(Floats) },
		NewProto: func() proto.Message { return new(pb.FloatArray) },
		Proto:    &pb.FloatArray{Values: v.Values},
		FlatBuffers: &matrix.FlatBuffers{
			Build: func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
				vals := fbFloat64s(b, v.Values)
				fb.FloatArrayStart(b)
				fb.FloatArrayAddValues(b, vals)
				return fb.FloatArrayEnd(b)
			},
			Read: func(buf []byte) any {
				m := fb.GetRootAsFloatArray(buf, 0)
				out := &Floats{Values: make([]float64, m.ValuesLength())}
				for i := range out.Values {
					out.Values[i] = m.Values(i)
				}
				return out
			},
		},
		Sum: func(x any) uint64 {
			c := newChecksum()
			c = c.f64s(x.(*Floats).Values)
			return uint64(c)
		},
		SumProto: func(x proto.Message) uint64 {
			c := newChecksum()
			c = c.f64s(x.(*pb.FloatArray).GetValues())
			return uint64(c)
		},
	}
}

// pairsMessage is v in every form.
func pairsMessage(v *Pairs) *matrix.Message {
	msg := &pb.FloatPairs{Pairs: make([]*pb.FloatPair, len(v.Pairs))}
	for i, p := range v.Pairs {
		msg.Pairs[i] = &pb.FloatPair{A: p.A, B: p.B}
	}
	pairs := make([]flatbuffers.UOffsetT, len(v.Pairs))
	return &matrix.Message{
		Value:    v,
		New:      func() any { return new(Pairs) },
		NewProto: func() proto.Message { return new(pb.FloatPairs) },
		Proto:    msg,
		FlatBuffers: &matrix.FlatBuffers{
			Build: func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
				for i, p := range v.Pairs {
					a := fbFloat64s(b, p.A)
					bv := fbFloat64s(b, p.B)
					fb.FloatPairStart(b)
					fb.FloatPairAddA(b, a)
					fb.FloatPairAddB(b, bv)
					pairs[i] = fb.FloatPairEnd(b)
				}
				pairsOff := fbOffsets(b, pairs)
				fb.FloatPairsStart(b)
				fb.FloatPairsAddPairs(b, pairsOff)
				return fb.FloatPairsEnd(b)
			},
			Read: readPairs,
		},
		Sum: func(x any) uint64 {
			m := x.(*Pairs)
			c := newChecksum()
			c = c.u64(uint64(len(m.Pairs)))
			for _, p := range m.Pairs {
				c = c.f64s(p.A)
				c = c.f64s(p.B)
			}
			return uint64(c)
		},
		SumProto: func(x proto.Message) uint64 {
			m := x.(*pb.FloatPairs)
			c := newChecksum()
			c = c.u64(uint64(len(m.GetPairs())))
			for _, p := range m.GetPairs() {
				c = c.f64s(p.GetA())
				c = c.f64s(p.GetB())
			}
			return uint64(c)
		},
	}
}

// readPairs reads every field of a FloatPairs table.
func readPairs(buf []byte) any {
	m := fb.GetRootAsFloatPairs(buf, 0)
	out := &Pairs{Pairs: make([]Pair, m.PairsLength())}
	var p fb.FloatPair
	for i := range out.Pairs {
		m.Pairs(&p, i)
		a := make([]float64, p.ALength())
		for j := range a {
			a[j] = p.A(j)
		}
		bv := make([]float64, p.BLength())
		for j := range bv {
			bv[j] = p.B(j)
		}
		out.Pairs[i] = Pair{A: a, B: bv}
	}
	return out
}

// rawFloatsCodec is the raw codec of a *Floats.
var rawFloatsCodec = raw[Floats]{bind: func(v *Floats) (func() []byte, func(*rawReader) *Floats) {
	enc := func() []byte { return rawFloat64s(make([]byte, 0, 4+8*len(v.Values)), v.Values) }
	dec := func(r *rawReader) *Floats { return &Floats{Values: r.float64s()} }
	return enc, dec
}}

// rawPairsCodec is the raw codec of a *Pairs.
var rawPairsCodec = raw[Pairs]{bind: func(v *Pairs) (func() []byte, func(*rawReader) *Pairs) {
	enc := func() []byte {
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
	dec := func(r *rawReader) *Pairs {
		p := &Pairs{Pairs: make([]Pair, r.count(8))}
		for i := range p.Pairs {
			p.Pairs[i] = Pair{A: r.float64s(), B: r.float64s()}
		}
		return p
	}
	return enc, dec
}}
