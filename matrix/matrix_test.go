package matrix

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/wirebench/wirebench/schemas/fb"
	"github.com/wirebench/wirebench/schemas/pb"
)

// order is a user's message: a struct with a nested slice and a map.
type order struct {
	ID    int64             `json:"id" msgpack:"id"`
	Lines []line            `json:"lines" msgpack:"lines"`
	Tags  map[string]string `json:"tags" msgpack:"tags"`
	Note  string            `json:"note" msgpack:"note"`
}

type line struct {
	SKU   string  `json:"sku" msgpack:"sku"`
	Qty   int32   `json:"qty" msgpack:"qty"`
	Price float64 `json:"price" msgpack:"price"`
}

func newOrder() *order {
	return &order{ID: 7, Lines: []line{{"a-1", 2, 9.5}, {"b-2", 1, 0.25}}, Tags: map[string]string{"gift": "yes"}, Note: "leave at door"}
}

func names(bs []*Benchmark) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Name)
	}
	return out
}

func TestPrepare(t *testing.T) {
	small := &pb.SmallMessage{IntVal: 42, FloatVal: 3.14, StrVal: "hello world", BoolVal: true}
	smallFB := &FlatBuffers{
		Build: func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
			s := b.CreateString("hello world")
			fb.SmallMessageStart(b)
			fb.SmallMessageAddIntVal(b, 42)
			fb.SmallMessageAddFloatVal(b, 3.14)
			fb.SmallMessageAddStrVal(b, s)
			fb.SmallMessageAddBoolVal(b, true)
			return fb.SmallMessageEnd(b)
		},
		Read: func(buf []byte) any {
			m := fb.GetRootAsSmallMessage(buf, 0)
			return &smallGo{m.IntVal(), m.FloatVal(), string(m.StrVal()), m.BoolVal()}
		},
	}
	tests := []struct {
		name    string
		m       *Message
		op      string
		codecs  []Codec
		want    []string // benchmark names, in order
		wantErr string
	}{
		{"a Go value runs the reflection codecs", &Message{Value: newOrder()}, "", nil,
			[]string{"codec=msgpack/dataset=d/op=serialize", "codec=msgpack/dataset=d/op=deserialize",
				"codec=json/dataset=d/op=serialize", "codec=json/dataset=d/op=deserialize",
				"codec=gob/dataset=d/op=serialize", "codec=gob/dataset=d/op=deserialize"}, ""},
		{"every form runs every codec", &Message{Value: &smallGo{42, 3.14, "hello world", true}, Proto: small, FlatBuffers: smallFB}, Serialize, nil,
			[]string{"codec=protobuf/dataset=d", "codec=flatbuffers/dataset=d", "codec=flatbuffers-reuse/dataset=d",
				"codec=msgpack/dataset=d", "codec=json/dataset=d", "codec=gob/dataset=d"}, ""},
		{"a proto message alone", &Message{Proto: small}, Deserialize, nil, []string{"codec=protobuf/dataset=d"}, ""},
		{"the codecs asked for", &Message{Value: newOrder()}, Serialize, []Codec{JSON{}}, []string{"codec=json/dataset=d"}, ""},
		{"a codec asked for needs its form", &Message{Value: newOrder()}, "", []Codec{Protobuf{}}, nil, "codec protobuf, dataset d: the codec does not apply to the message: protobuf needs Message.Proto"},
		{"nothing applies", &Message{}, "", nil, nil, "no codec applies"},
		{"a bad operation", &Message{Value: newOrder()}, "encode", nil, nil, `operation "encode"`},
		{"a codec that drops a field", &Message{Value: newOrder()}, "", []Codec{dropNote}, nil,
			`codec lossy, dataset d: decoding does not give back the message: Note: got "", want "leave at door"`},
		{"a codec that loses a map entry", &Message{Value: newOrder()}, "", []Codec{dropTag}, nil, `Tags: got 0 entries, want 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bs, err := Prepare("d", tt.m, tt.op, tt.codecs...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := names(bs); strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("benchmarks %q, want %q", got, tt.want)
			}
			for _, b := range bs {
				if err := b.Loop(3); err != nil {
					t.Errorf("%s: %v", b.Name, err)
				}
				if b.Size <= 0 || b.Dataset != "d" {
					t.Errorf("%s: size %d, dataset %q", b.Name, b.Size, b.Dataset)
				}
			}
		})
	}
}

type smallGo struct {
	IntVal   int32
	FloatVal float64
	StrVal   string
	BoolVal  bool
}

// dropNote and dropTag are user codecs (JSON underneath) that lose a
// field or a map entry on decode.
var (
	dropNote = Custom{CodecName: "lossy", Marshal: json.Marshal, Unmarshal: func(b []byte) (any, error) {
		var o order
		err := json.Unmarshal(b, &o)
		o.Note = ""
		return &o, err
	}}
	dropTag = Custom{CodecName: "lossy", Marshal: json.Marshal, Unmarshal: func(b []byte) (any, error) {
		var o order
		err := json.Unmarshal(b, &o)
		o.Tags = nil
		return &o, err
	}}
)

// TestSumChecksEveryDecode: with a Sum, a decode that reads back another
// value fails the loop.
func TestSumChecksEveryDecode(t *testing.T) {
	calls := 0
	m := &Message{Value: newOrder(), Sum: func(v any) uint64 {
		calls++
		if calls > 2 {
			return 1 // the third decode onwards reads something else
		}
		return uint64(v.(*order).ID)
	}}
	bs, err := Prepare("d", m, Deserialize, JSON{})
	if err != nil {
		t.Fatal(err)
	}
	if err := bs[0].Loop(1); err != nil {
		t.Fatal(err)
	}
	if err := bs[0].Loop(1); err == nil || !strings.Contains(err.Error(), "decoded sum") {
		t.Errorf("a changed sum: %v", err)
	}
}

func TestDiffValues(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name      string
		want, got any
		diff      string
	}{
		{"equal", newOrder(), newOrder(), ""},
		{"nil and empty slices are alike", &order{Lines: nil}, &order{Lines: []line{}}, ""},
		{"nil and empty maps are alike", &order{}, &order{Tags: map[string]string{}}, ""},
		{"NaN equals NaN", &line{Price: nan}, &line{Price: nan}, ""},
		{"a nested field", newOrder(), func() *order { o := newOrder(); o.Lines[1].Qty = 5; return o }(), "Lines[1].Qty: got 5, want 1"},
		{"a slice length", newOrder(), func() *order { o := newOrder(); o.Lines = o.Lines[:1]; return o }(), "Lines: got 1 elements, want 2"},
		{"a map value", newOrder(), func() *order { o := newOrder(); o.Tags["gift"] = "no"; return o }(), `Tags["gift"]: got "no", want "yes"`},
		{"a map key", newOrder(), func() *order { o := newOrder(); o.Tags = map[string]string{"x": "yes"}; return o }(), `Tags["gift"]: missing`},
		{"another type", newOrder(), &line{}, "got a *matrix.line, want a *matrix.order"},
		{"nil pointer", newOrder(), (*order)(nil), "the value: got *matrix.order, want *matrix.order"},
		{"a long string is cut", &line{SKU: strings.Repeat("x", 100)}, &line{}, `SKU: got "", want "xxxxxxxx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diffValues(tt.want, tt.got)
			if (tt.diff == "") != (d == "") || !strings.Contains(d, tt.diff) {
				t.Errorf("diff %q, want %q", d, tt.diff)
			}
		})
	}
}

func TestDiffProto(t *testing.T) {
	want := &pb.LargeMessage{Items: []*pb.ComplexItem{{Name: "a", Tags: []string{"x"}}, {Name: "b", Id: 2}}}
	got := &pb.LargeMessage{Items: []*pb.ComplexItem{{Name: "a", Tags: []string{"x"}}, {Name: "b", Id: 3}}}
	if d := diffProto(want, got); d != "items[1].id: got 3, want 2" {
		t.Errorf("diff %q", d)
	}
	med := &pb.MediumMessage{Metadata: map[string]string{"k": "v"}}
	if d := diffProto(med, &pb.MediumMessage{Metadata: map[string]string{"k": "w"}}); d != "metadata[k]: got w, want v" {
		t.Errorf("map diff %q", d)
	}
	if d := diffProto(want, want); d != "" {
		t.Errorf("equal messages: %q", d)
	}
}

// TestRun runs Run as go test -bench does.
func TestRun(t *testing.T) {
	r := testing.Benchmark(func(b *testing.B) { Run(b, "order", &Message{Value: newOrder()}, JSON{}) })
	if r.N == 0 {
		t.Fatal("the benchmark did not run")
	}
}

func TestDiffArrays(t *testing.T) {
	a := []float64{1, 2, math.NaN(), 4}
	b := []float64{1, 2, math.NaN(), 5}
	if d := diffValues(&a, &b); d != "the value[3]: got 5, want 4" && !strings.Contains(d, "[3]: got 5, want 4") {
		t.Errorf("diff %q", d)
	}
	if d := diffValues([]string{"x", "y"}, []string{"x", "y"}); d != "" {
		t.Errorf("equal strings: %q", d)
	}
	if d := diffValues([]int32{1, 2}, []int32{1, 3}); !strings.Contains(d, "[1]: got 3, want 2") {
		t.Errorf("ints: %q", d)
	}
}
