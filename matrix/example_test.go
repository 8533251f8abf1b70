package matrix_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/wirebench/wirebench/matrix"
	"github.com/wirebench/wirebench/schemas/fb"
	"github.com/wirebench/wirebench/schemas/pb"
)

// Reading is a user's message as a Go struct.
type Reading struct {
	Sensor string  `json:"sensor" msgpack:"sensor"`
	Value  float64 `json:"value" msgpack:"value"`
	OK     bool    `json:"ok" msgpack:"ok"`
}

// The benchmark a user adds next to their types, in a _test.go file: every
// codec that applies to the message, both directions. `go test -bench
// Wire` prints ordinary benchmark lines with ns/op, B/op, allocs/op and
// the encoded size as B/msg; wirebench gates them.
func ExampleRun() {
	benchmarkWire := func(b *testing.B) {
		matrix.Run(b, "reading", &matrix.Message{Value: &Reading{Sensor: "t-1", Value: 21.5, OK: true}})
	}
	_ = benchmarkWire // func BenchmarkWire(b *testing.B) { … }
}

// Prepare is what Run runs, without testing.B: every codec's encoding is
// checked to decode back to the message before anything is timed.
func ExamplePrepare() {
	m := &matrix.Message{Value: &Reading{Sensor: "t-1", Value: 21.5, OK: true}}
	benches, err := matrix.Prepare("reading", m, matrix.Serialize)
	if err != nil {
		panic(err)
	}
	for _, b := range benches {
		fmt.Printf("%s: %d bytes\n", b.Name, b.Size)
	}
	// Output:
	// codec=msgpack/dataset=reading: 31 bytes
	// codec=json/dataset=reading: 39 bytes
	// codec=gob/dataset=reading: 66 bytes
}

// A message with its generated protobuf code and a FlatBuffers build and
// read function runs on those codecs too. Here the schemas are
// wirebench's own (schemas/benchmark.proto and .fbs).
func ExampleMessage_schemas() {
	type small struct {
		IntVal   int32
		FloatVal float64
		StrVal   string
		BoolVal  bool
	}
	v := &small{42, 3.14, "hello world", true}
	m := &matrix.Message{
		Value: v,
		Proto: &pb.SmallMessage{IntVal: v.IntVal, FloatVal: v.FloatVal, StrVal: v.StrVal, BoolVal: v.BoolVal},
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
				t := fb.GetRootAsSmallMessage(buf, 0)
				return &small{t.IntVal(), t.FloatVal(), string(t.StrVal()), t.BoolVal()}
			},
		},
	}
	benches, err := matrix.Prepare("small", m, matrix.Serialize, matrix.Protobuf{}, matrix.FlatBuffersCodec{})
	if err != nil {
		panic(err)
	}
	for _, b := range benches {
		fmt.Printf("%s: %d bytes\n", b.Codec, b.Size)
	}
	// Output:
	// protobuf: 26 bytes
	// flatbuffers: 64 bytes
}

// A codec of your own is a Custom value (or a type implementing Codec).
// A codec that does not give the message back fails, naming the field.
func ExampleCustom() {
	type point struct{ X, Y int32 }
	fixed := matrix.Custom{
		CodecName: "fixed",
		Marshal: func(v any) ([]byte, error) {
			p := v.(*point)
			return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, uint32(p.X)), uint32(p.Y)), nil
		},
		Unmarshal: func(b []byte) (any, error) {
			if len(b) != 8 {
				return nil, errors.New("want 8 bytes")
			}
			return &point{X: int32(binary.LittleEndian.Uint32(b))}, nil // forgets Y
		},
	}
	_, err := matrix.Prepare("point", &matrix.Message{Value: &point{3, 4}}, "", fixed)
	fmt.Println(err)
	// Output:
	// codec fixed, dataset point: decoding does not give back the message: Y: got 0, want 4
}
