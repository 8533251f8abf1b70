package bench

import (
	"fmt"
	"slices"
)

// Codec is one serialization format, driven the way its users drive it.
// Adding a codec is one file with a type implementing Codec plus one line
// in Codecs.
type Codec interface {
	// Name is the codec's name in benchmark names, e.g. "protobuf".
	Name() string
	// Bind prepares a canonical dataset value (see Dataset.New) in the
	// codec's natural in-memory form and returns the operations on it. It
	// runs outside the timed region.
	Bind(v any) (Ops, error)
}

// Ops are one codec's operations on one prepared value.
type Ops struct {
	// Encode serializes the prepared value. The result may be overwritten
	// by the next call (the builder-reuse codec reuses its buffer).
	Encode func() ([]byte, error)
	// Decode deserializes b into the codec's natural in-memory form, with
	// every field materialised (strings as Go strings), reads every field,
	// and returns the checksum of what it read (see Checksum).
	Decode func(b []byte) (uint64, error)
	// Canonical decodes b into a canonical value, for round-trip tests.
	Canonical func(b []byte) (any, error)
}

// Codecs returns every codec of the suite, in report order.
func Codecs() []Codec {
	return []Codec{
		Protobuf{},
		FlatBuffers{},
		FlatBuffersReuse{},
		MsgPack{},
		JSON{},
		Gob{},
		Raw{},
	}
}

// CodecNames returns the names of Codecs.
func CodecNames() []string {
	var names []string
	for _, c := range Codecs() {
		names = append(names, c.Name())
	}
	return names
}

// errUnsupported is returned by Bind for a value type a codec has no
// schema for.
func errUnsupported(c Codec, v any) error {
	return fmt.Errorf("codec %s: no encoding for %T", c.Name(), v)
}

// reflectOps binds a codec that works by reflection on the canonical types
// (msgpack, json, gob): the canonical value is its natural form.
func reflectOps(c Codec, v any, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) (Ops, error) {
	switch v := v.(type) {
	case *Primitive:
		return reflectOpsOf(v, marshal, unmarshal), nil
	case *Medium:
		return reflectOpsOf(v, marshal, unmarshal), nil
	case *Large:
		return reflectOpsOf(v, marshal, unmarshal), nil
	case *Floats:
		return reflectOpsOf(v, marshal, unmarshal), nil
	case *Pairs:
		return reflectOpsOf(v, marshal, unmarshal), nil
	}
	return Ops{}, errUnsupported(c, v)
}

func reflectOpsOf[T any](v *T, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) Ops {
	decode := func(b []byte) (*T, error) {
		out := new(T)
		if err := unmarshal(b, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	return Ops{
		Encode: func() ([]byte, error) { return marshal(v) },
		Decode: func(b []byte) (uint64, error) {
			out, err := decode(b)
			if err != nil {
				return 0, err
			}
			return Checksum(out), nil
		},
		Canonical: func(b []byte) (any, error) { return decode(b) },
	}
}

// cloneBytes copies b, for encoders whose output aliases a reused buffer.
func cloneBytes(b []byte) []byte { return slices.Clone(b) }
