package bench

import (
	"encoding/binary"

	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/matrix"
	"github.com/wirebench/wirebench/schemas/fb"
	"github.com/wirebench/wirebench/schemas/pb"
)

// Medium has nested objects, a numeric array and a string map.
type Medium struct {
	Name     string            `msgpack:"name" json:"name"`
	ID       int32             `msgpack:"id" json:"id"`
	Scores   []float64         `msgpack:"scores" json:"scores"`
	Metadata map[string]string `msgpack:"metadata" json:"metadata"`
	Nested   Primitive         `msgpack:"nested" json:"nested"`
}

// NewMedium returns the medium dataset.
func NewMedium() *Medium {
	return &Medium{
		Name:     "test_object",
		ID:       12345,
		Scores:   []float64{1, 2, 3, 4, 5},
		Metadata: map[string]string{"key1": "value1", "key2": "value2", "key3": "value3"},
		Nested:   Primitive{IntVal: 99, FloatVal: 2.71, StrVal: "nested", BoolVal: false},
	}
}

// mediumMessage is v in every form. FlatBuffers has no map: the metadata
// is written as sorted parallel key and value lists, in the order of the
// suite wirebench grew from, so its sizes reproduce.
func mediumMessage(v *Medium) *matrix.Message {
	n := &v.Nested
	keys := sortedKeys(v.Metadata)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = v.Metadata[k]
	}
	offs := make([]flatbuffers.UOffsetT, 2*len(keys))
	return &matrix.Message{
		Value:    v,
		New:      func() any { return new(Medium) },
		NewProto: func() proto.Message { return new(pb.MediumMessage) },
		Proto: &pb.MediumMessage{
			Name: v.Name, Id: v.ID, Scores: v.Scores, Metadata: v.Metadata,
			Nested: &pb.PrimitiveTypes{IntVal: n.IntVal, FloatVal: n.FloatVal, StrVal: n.StrVal, BoolVal: n.BoolVal},
		},
		FlatBuffers: &matrix.FlatBuffers{
			Build: func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
				name := b.CreateString(v.Name)
				scores := fbFloat64s(b, v.Scores)
				keyOffs, valOffs := offs[:len(keys)], offs[len(keys):]
				for i := range keys {
					keyOffs[i] = b.CreateString(keys[i])
					valOffs[i] = b.CreateString(vals[i])
				}
				valsOff := fbOffsets(b, valOffs)
				keysOff := fbOffsets(b, keyOffs)
				nstr := b.CreateString(n.StrVal)
				fb.PrimitiveTypesStart(b)
				fb.PrimitiveTypesAddIntVal(b, n.IntVal)
				fb.PrimitiveTypesAddFloatVal(b, n.FloatVal)
				fb.PrimitiveTypesAddStrVal(b, nstr)
				fb.PrimitiveTypesAddBoolVal(b, n.BoolVal)
				nested := fb.PrimitiveTypesEnd(b)
				fb.MediumMessageStart(b)
				fb.MediumMessageAddName(b, name)
				fb.MediumMessageAddId(b, v.ID)
				fb.MediumMessageAddScores(b, scores)
				fb.MediumMessageAddMetadataKeys(b, keysOff)
				fb.MediumMessageAddMetadataValues(b, valsOff)
				fb.MediumMessageAddNested(b, nested)
				return fb.MediumMessageEnd(b)
			},
			Read: readMedium,
		},
		Sum: func(x any) uint64 {
			m := x.(*Medium)
			c := newChecksum()
			c = c.str(m.Name)
			c = c.i32(m.ID)
			c = c.f64s(m.Scores)
			c = c.stringMap(m.Metadata)
			c = c.primitive(&m.Nested)
			return uint64(c)
		},
		SumProto: func(x proto.Message) uint64 {
			m := x.(*pb.MediumMessage)
			c := newChecksum()
			c = c.str(m.GetName())
			c = c.i32(m.GetId())
			c = c.f64s(m.GetScores())
			c = c.stringMap(m.GetMetadata())
			n := m.GetNested()
			c = c.i32(n.GetIntVal())
			c = c.f64(n.GetFloatVal())
			c = c.str(n.GetStrVal())
			c = c.b(n.GetBoolVal())
			return uint64(c)
		},
	}
}

// readMedium reads every field of a MediumMessage table.
func readMedium(buf []byte) any {
	m := fb.GetRootAsMediumMessage(buf, 0)
	out := &Medium{Name: string(m.Name()), ID: m.Id()}
	out.Scores = make([]float64, m.ScoresLength())
	for i := range out.Scores {
		out.Scores[i] = m.Scores(i)
	}
	n := min(m.MetadataKeysLength(), m.MetadataValuesLength())
	out.Metadata = make(map[string]string, n)
	for i := range n {
		out.Metadata[string(m.MetadataKeys(i))] = string(m.MetadataValues(i))
	}
	var p fb.PrimitiveTypes
	if m.Nested(&p) != nil {
		out.Nested = Primitive{p.IntVal(), p.FloatVal(), string(p.StrVal()), p.BoolVal()}
	}
	return out
}

// rawMediumCodec is the raw codec of a *Medium.
var rawMediumCodec = raw[Medium]{bind: func(v *Medium) (func() []byte, func(*rawReader) *Medium) {
	keys := sortedKeys(v.Metadata)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = v.Metadata[k]
	}
	enc := func() []byte {
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
	dec := func(r *rawReader) *Medium {
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
}}
