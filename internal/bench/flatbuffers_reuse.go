package bench

import flatbuffers "github.com/google/flatbuffers/go"

// FlatBuffersReuse is FlatBuffers with one Builder per benchmark, Reset and
// reused for every message, as a long-lived sender would: it saves the
// buffer allocation and growth. The encoded bytes alias the builder and are
// valid until the next Encode. Decoding is the same as FlatBuffers.
type FlatBuffersReuse struct{}

func (FlatBuffersReuse) Name() string { return "flatbuffers-reuse" }

func (c FlatBuffersReuse) Bind(v any) (Ops, error) {
	build, err := fbBuilderFunc(c, v)
	if err != nil {
		return Ops{}, err
	}
	b := flatbuffers.NewBuilder(1024)
	ops := fbDecodeOps(v)
	ops.Encode = func() ([]byte, error) {
		b.Reset()
		return build(b), nil
	}
	return ops, nil
}
