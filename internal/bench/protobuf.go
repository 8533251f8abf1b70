package bench

import (
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/schemas/pb"
)

// Protobuf is Protocol Buffers through google.golang.org/protobuf, on the
// messages generated from schemas/benchmark.proto. proto.Marshal and
// proto.Unmarshal with default options; decoding copies strings, so every
// field is materialised.
type Protobuf struct{}

func (Protobuf) Name() string { return "protobuf" }

func (c Protobuf) Bind(v any) (Ops, error) {
	switch v := v.(type) {
	case *Primitive:
		return protoOps(&pb.SmallMessage{IntVal: v.IntVal, FloatVal: v.FloatVal, StrVal: v.StrVal, BoolVal: v.BoolVal},
			pbSmallSum, func(m *pb.SmallMessage) any {
				return &Primitive{m.GetIntVal(), m.GetFloatVal(), m.GetStrVal(), m.GetBoolVal()}
			}), nil
	case *Medium:
		msg := &pb.MediumMessage{
			Name:     v.Name,
			Id:       v.ID,
			Scores:   v.Scores,
			Metadata: v.Metadata,
			Nested:   pbPrimitive(&v.Nested),
		}
		return protoOps(msg, pbMediumSum, func(m *pb.MediumMessage) any {
			n := m.GetNested()
			return &Medium{
				Name: m.GetName(), ID: m.GetId(), Scores: m.GetScores(), Metadata: m.GetMetadata(),
				Nested: Primitive{n.GetIntVal(), n.GetFloatVal(), n.GetStrVal(), n.GetBoolVal()},
			}
		}), nil
	case *Large:
		msg := &pb.LargeMessage{Items: make([]*pb.ComplexItem, len(v.Items))}
		for i, it := range v.Items {
			msg.Items[i] = &pb.ComplexItem{Name: it.Name, Id: it.ID, Score: it.Score, Tags: it.Tags}
		}
		return protoOps(msg, pbLargeSum, func(m *pb.LargeMessage) any {
			out := &Large{Items: make([]Item, len(m.GetItems()))}
			for i, it := range m.GetItems() {
				out.Items[i] = Item{Name: it.GetName(), ID: it.GetId(), Score: it.GetScore(), Tags: it.GetTags()}
			}
			return out
		}), nil
	case *Floats:
		return protoOps(&pb.FloatArray{Values: v.Values}, pbFloatsSum, func(m *pb.FloatArray) any {
			return &Floats{Values: m.GetValues()}
		}), nil
	case *Pairs:
		msg := &pb.FloatPairs{Pairs: make([]*pb.FloatPair, len(v.Pairs))}
		for i, p := range v.Pairs {
			msg.Pairs[i] = &pb.FloatPair{A: p.A, B: p.B}
		}
		return protoOps(msg, pbPairsSum, func(m *pb.FloatPairs) any {
			out := &Pairs{Pairs: make([]Pair, len(m.GetPairs()))}
			for i, p := range m.GetPairs() {
				out.Pairs[i] = Pair{A: p.GetA(), B: p.GetB()}
			}
			return out
		}), nil
	}
	return Ops{}, errUnsupported(c, v)
}

// protoOps builds the operations for one message type: M is the generated
// struct, PM its pointer (the proto.Message).
func protoOps[M any, PM interface {
	*M
	proto.Message
}](msg PM, sum func(PM) uint64, canonical func(PM) any) Ops {
	decode := func(b []byte) (PM, error) {
		out := PM(new(M))
		if err := proto.Unmarshal(b, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	return Ops{
		Encode: func() ([]byte, error) { return proto.Marshal(msg) },
		Decode: func(b []byte) (uint64, error) {
			m, err := decode(b)
			if err != nil {
				return 0, err
			}
			return sum(m), nil
		},
		Canonical: func(b []byte) (any, error) {
			m, err := decode(b)
			if err != nil {
				return nil, err
			}
			return canonical(m), nil
		},
	}
}

func pbPrimitive(p *Primitive) *pb.PrimitiveTypes {
	return &pb.PrimitiveTypes{IntVal: p.IntVal, FloatVal: p.FloatVal, StrVal: p.StrVal, BoolVal: p.BoolVal}
}

// The checksums below read the decoded messages field by field and must
// agree with Checksum on the canonical value.

func pbSmallSum(m *pb.SmallMessage) uint64 {
	c := newChecksum()
	c.i32(m.GetIntVal())
	c.f64(m.GetFloatVal())
	c.str(m.GetStrVal())
	c.b(m.GetBoolVal())
	return uint64(c)
}

func pbMediumSum(m *pb.MediumMessage) uint64 {
	c := newChecksum()
	c.str(m.GetName())
	c.i32(m.GetId())
	c.f64s(m.GetScores())
	var s uint64
	for k, v := range m.GetMetadata() {
		s += mapEntry(k, v)
	}
	c.u64(uint64(len(m.GetMetadata())))
	c.u64(s)
	n := m.GetNested()
	c.i32(n.GetIntVal())
	c.f64(n.GetFloatVal())
	c.str(n.GetStrVal())
	c.b(n.GetBoolVal())
	return uint64(c)
}

func pbLargeSum(m *pb.LargeMessage) uint64 {
	c := newChecksum()
	c.u64(uint64(len(m.GetItems())))
	for _, it := range m.GetItems() {
		c.str(it.GetName())
		c.i32(it.GetId())
		c.f64(it.GetScore())
		c.u64(uint64(len(it.GetTags())))
		for _, t := range it.GetTags() {
			c.str(t)
		}
	}
	return uint64(c)
}

func pbFloatsSum(m *pb.FloatArray) uint64 {
	c := newChecksum()
	c.f64s(m.GetValues())
	return uint64(c)
}

func pbPairsSum(m *pb.FloatPairs) uint64 {
	c := newChecksum()
	c.u64(uint64(len(m.GetPairs())))
	for _, p := range m.GetPairs() {
		c.f64s(p.GetA())
		c.f64s(p.GetB())
	}
	return uint64(c)
}
