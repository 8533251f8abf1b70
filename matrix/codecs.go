package matrix

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"reflect"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/vmihailenco/msgpack/v5"
	"google.golang.org/protobuf/proto"
)

// Protobuf is Protocol Buffers through google.golang.org/protobuf, on
// Message.Proto (generated code): proto.Marshal and proto.Unmarshal with
// default options. Decoding copies strings, so every field is
// materialised.
type Protobuf struct{}

func (Protobuf) Name() string { return "protobuf" }

func (c Protobuf) Bind(m *Message) (Ops, error) {
	if m.Proto == nil {
		return Ops{}, fmt.Errorf("%w: protobuf needs Message.Proto, the message as generated code", ErrNotApplicable)
	}
	msg := m.Proto
	fresh := m.NewProto
	if fresh == nil {
		fresh = func() proto.Message { return msg.ProtoReflect().New().Interface() }
	}
	ops := Ops{
		Encode: func() ([]byte, error) { return proto.Marshal(msg) },
		Decode: func(b []byte) (any, error) {
			out := fresh()
			if err := proto.Unmarshal(b, out); err != nil {
				return nil, err
			}
			return out, nil
		},
		Check: func(got any) error {
			if d := diffProto(msg, got.(proto.Message)); d != "" {
				return fmt.Errorf("%w: %s", ErrMismatch, d)
			}
			return nil
		},
	}
	if m.SumProto != nil {
		ops.Sum = func(v any) uint64 { return m.SumProto(v.(proto.Message)) }
	}
	return ops, nil
}

// FlatBuffers is how a message is built into and read from a FlatBuffers
// table: FlatBuffers has no reflection in Go, so the generated code's
// builder and accessor calls are the user's to write.
type FlatBuffers struct {
	// Build writes the message into b and returns the root table's
	// offset; the codec finishes the buffer.
	Build func(b *flatbuffers.Builder) flatbuffers.UOffsetT
	// Read reads every field of a finished buffer into a Go value
	// comparable with Message.Value (strings copied into Go strings):
	// zero-copy access that touches nothing would not be comparable with
	// the other codecs' full decode.
	Read func(buf []byte) any
}

// FlatBuffersCodec is github.com/google/flatbuffers/go on Message.FlatBuffers:
// a fresh Builder (1 KiB to start, growing as needed) for every message,
// or with Reuse one Builder, Reset and reused, as a long-lived sender
// would (the encoded bytes then alias it until the next Encode).
type FlatBuffersCodec struct{ Reuse bool }

func (c FlatBuffersCodec) Name() string {
	if c.Reuse {
		return "flatbuffers-reuse"
	}
	return "flatbuffers"
}

func (c FlatBuffersCodec) Bind(m *Message) (Ops, error) {
	fb := m.FlatBuffers
	if fb == nil || fb.Build == nil || fb.Read == nil {
		return Ops{}, fmt.Errorf("%w: %s needs Message.FlatBuffers with Build and Read", ErrNotApplicable, c.Name())
	}
	var reused *flatbuffers.Builder
	if c.Reuse {
		reused = flatbuffers.NewBuilder(1024)
	}
	ops := Ops{
		Encode: func() ([]byte, error) {
			b := reused
			if b == nil {
				b = flatbuffers.NewBuilder(1024)
			} else {
				b.Reset()
			}
			b.Finish(fb.Build(b))
			return b.FinishedBytes(), nil
		},
		Decode: func(b []byte) (v any, err error) {
			// The generated accessors index without checks: a malformed
			// buffer panics.
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("flatbuffers: malformed input: %v", r)
				}
			}()
			return fb.Read(b), nil
		},
		Check: m.CheckValue,
	}
	ops.Sum = m.Sum
	return ops, nil
}

// reflectOps are the operations of a codec that encodes m.Value by
// reflection and decodes into a fresh value of its type.
func reflectOps(name string, m *Message, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) (Ops, error) {
	if m.Value == nil {
		return Ops{}, fmt.Errorf("%w: %s needs Message.Value, the message as a Go value", ErrNotApplicable, name)
	}
	t := reflect.TypeOf(m.Value)
	fresh := func() any { return reflect.New(t).Interface() }
	deref := func(p any) any { return reflect.ValueOf(p).Elem().Interface() }
	if t.Kind() == reflect.Pointer {
		elem := t.Elem()
		fresh = func() any { return reflect.New(elem).Interface() }
		deref = func(p any) any { return p }
		if m.New != nil {
			fresh = m.New
		}
	}
	v := m.Value
	return Ops{
		Encode: func() ([]byte, error) { return marshal(v) },
		Decode: func(b []byte) (any, error) {
			out := fresh()
			if err := unmarshal(b, out); err != nil {
				return nil, err
			}
			return deref(out), nil
		},
		Check: m.CheckValue,
		Sum:   m.Sum,
	}, nil
}

// MsgPack is MessagePack through github.com/vmihailenco/msgpack/v5 with its
// default settings on Message.Value (structs encode as maps keyed by field
// name, or by their msgpack tags).
type MsgPack struct{}

func (MsgPack) Name() string { return "msgpack" }

func (c MsgPack) Bind(m *Message) (Ops, error) {
	return reflectOps(c.Name(), m, msgpack.Marshal, msgpack.Unmarshal)
}

// JSON is encoding/json from the standard library on Message.Value: the
// text-format reference point.
type JSON struct{}

func (JSON) Name() string { return "json" }

func (c JSON) Bind(m *Message) (Ops, error) {
	return reflectOps(c.Name(), m, json.Marshal, json.Unmarshal)
}

// Gob is encoding/gob, Go's native self-describing format, on
// Message.Value. Each message gets a fresh Encoder and Decoder, so every
// message carries its type description and stands alone like every other
// codec's; a stream reusing one encoder would amortise that description
// across messages.
type Gob struct{}

func (Gob) Name() string { return "gob" }

func (c Gob) Bind(m *Message) (Ops, error) {
	return reflectOps(c.Name(), m, gobMarshal, gobUnmarshal)
}

func gobMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func gobUnmarshal(b []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(b)).Decode(v)
}

// Custom is a codec of your own as a marshal and unmarshal pair on
// Message.Value: Marshal encodes the value, Unmarshal decodes bytes into a
// new value of the same type, which must equal Message.Value.
type Custom struct {
	// CodecName names it in benchmark names.
	CodecName string
	Marshal   func(v any) ([]byte, error)
	Unmarshal func(b []byte) (any, error)
}

func (c Custom) Name() string { return c.CodecName }

func (c Custom) Bind(m *Message) (Ops, error) {
	if c.CodecName == "" || c.Marshal == nil || c.Unmarshal == nil {
		return Ops{}, fmt.Errorf("a Custom codec needs CodecName, Marshal and Unmarshal")
	}
	if m.Value == nil {
		return Ops{}, fmt.Errorf("%w: %s needs Message.Value", ErrNotApplicable, c.CodecName)
	}
	v := m.Value
	return Ops{
		Encode: func() ([]byte, error) { return c.Marshal(v) },
		Decode: c.Unmarshal,
		Check:  m.CheckValue,
		Sum:    m.Sum,
	}, nil
}
