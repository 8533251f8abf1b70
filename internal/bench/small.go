package bench

import (
	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/matrix"
	"github.com/wirebench/wirebench/schemas/fb"
	"github.com/wirebench/wirebench/schemas/pb"
)

// Primitive is the small dataset's message and medium's nested message:
// four primitive fields.
type Primitive struct {
	IntVal   int32   `msgpack:"int_val" json:"int_val"`
	FloatVal float64 `msgpack:"float_val" json:"float_val"`
	StrVal   string  `msgpack:"str_val" json:"str_val"`
	BoolVal  bool    `msgpack:"bool_val" json:"bool_val"`
}

// NewSmall returns the small dataset: {42, 3.14, "hello world", true}.
func NewSmall() *Primitive {
	return &Primitive{IntVal: 42, FloatVal: 3.14, StrVal: "hello world", BoolVal: true}
}

// smallMessage is v in every form: the Go struct, the generated
// SmallMessage, its FlatBuffers table, and the checksums of both.
func smallMessage(v *Primitive) *matrix.Message {
	return &matrix.Message{
		Value:    v,
		New:      func() any { return new(Primitive) },
		NewProto: func() proto.Message { return new(pb.SmallMessage) },
		Proto:    &pb.SmallMessage{IntVal: v.IntVal, FloatVal: v.FloatVal, StrVal: v.StrVal, BoolVal: v.BoolVal},
		FlatBuffers: &matrix.FlatBuffers{
			Build: func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
				s := b.CreateString(v.StrVal)
				fb.SmallMessageStart(b)
				fb.SmallMessageAddIntVal(b, v.IntVal)
				fb.SmallMessageAddFloatVal(b, v.FloatVal)
				fb.SmallMessageAddStrVal(b, s)
				fb.SmallMessageAddBoolVal(b, v.BoolVal)
				return fb.SmallMessageEnd(b)
			},
			Read: func(buf []byte) any {
				m := fb.GetRootAsSmallMessage(buf, 0)
				return &Primitive{m.IntVal(), m.FloatVal(), string(m.StrVal()), m.BoolVal()}
			},
		},
		Sum: func(x any) uint64 {
			c := newChecksum()
			c = c.primitive(x.(*Primitive))
			return uint64(c)
		},
		SumProto: func(x proto.Message) uint64 {
			m := x.(*pb.SmallMessage)
			c := newChecksum()
			c = c.i32(m.GetIntVal())
			c = c.f64(m.GetFloatVal())
			c = c.str(m.GetStrVal())
			c = c.b(m.GetBoolVal())
			return uint64(c)
		},
	}
}

func (c checksum) primitive(p *Primitive) checksum {
	return c.i32(p.IntVal).f64(p.FloatVal).str(p.StrVal).b(p.BoolVal)
}

// rawPrimitive is the raw codec of a *Primitive.
var rawPrimitiveCodec = raw[Primitive]{bind: func(v *Primitive) (func() []byte, func(*rawReader) *Primitive) {
	enc := func() []byte { return rawPrimitive(make([]byte, 0, rawPrimitiveSize(v)), v) }
	dec := func(r *rawReader) *Primitive { p := r.primitive(); return &p }
	return enc, dec
}}
