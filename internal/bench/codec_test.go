package bench

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/matrix"
)

// roundTripDatasets are the default datasets and a small instance of the
// opt-in pairs type.
func roundTripDatasets() []Dataset {
	var out []Dataset
	for _, d := range Datasets() {
		if !d.OptIn {
			out = append(out, d)
		}
	}
	return append(out, Dataset{Name: "pairs-3x1000", Message: func() *matrix.Message { return pairsMessage(NewPairs(3, 1000)) }, Raw: rawPairsCodec})
}

// TestRoundTrip: every codec decodes every dataset to a value equal to the
// one it encoded (matrix.Prepare checks it field by field), every timed
// decode reads back the message's checksum, and the Go and protobuf
// checksums of one message agree.
func TestRoundTrip(t *testing.T) {
	for _, d := range roundTripDatasets() {
		m := d.Message()
		benches, err := matrix.Prepare(d.Name, m, "", d.Codecs()...)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if len(benches) != 2*len(d.Codecs()) {
			t.Errorf("%s: %d benchmarks, want %d", d.Name, len(benches), 2*len(d.Codecs()))
		}
		for _, b := range benches {
			if err := b.Loop(2); err != nil {
				t.Errorf("%s: %v", b.Name, err)
			}
		}
		if m.Sum(m.Value) != m.SumProto(m.Proto) {
			t.Errorf("%s: the Go value's checksum %x differs from the protobuf message's %x", d.Name, m.Sum(m.Value), m.SumProto(m.Proto))
		}
	}
}

// TestSizes reproduces the encoded sizes of the Go table of the suite
// wirebench grew from, exactly.
func TestSizes(t *testing.T) {
	want := map[string]map[string]int{
		"protobuf":          {"small": 26, "medium": 127, "large": 5889},
		"msgpack":           {"small": 63, "medium": 190, "large": 7510},
		"flatbuffers":       {"small": 64, "medium": 264, "large": 13232},
		"flatbuffers-reuse": {"small": 64, "medium": 264, "large": 13232},
		// The floats family: payload plus framing.
		"raw": {"floats-1k": 4 + 8*1024},
	}
	benches, err := Prepare(Selection{}, Datasets())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]int{}
	for _, b := range benches {
		if got[b.Codec] == nil {
			got[b.Codec] = map[string]int{}
		}
		got[b.Codec][b.Dataset] = b.Size
	}
	for codec, sizes := range want {
		for ds, n := range sizes {
			if got[codec][ds] != n {
				t.Errorf("%s/%s: %d bytes, want %d", codec, ds, got[codec][ds], n)
			}
		}
	}
}

// TestDecodeMalformed feeds every codec truncated and corrupted input: it
// must return an error or a value, never panic or hang.
func TestDecodeMalformed(t *testing.T) {
	for _, d := range roundTripDatasets() {
		if d.Name == "floats-1m" || d.Name == "floats-64k" {
			continue // same type as floats-1k, only slower
		}
		m := d.Message()
		for _, c := range d.Codecs() {
			ops, err := c.Bind(m)
			if err != nil {
				t.Fatal(err)
			}
			enc, _ := ops.Encode()
			enc = bytes.Clone(enc)
			inputs := [][]byte{nil, enc[:len(enc)/2], enc[:1]}
			flipped := bytes.Clone(enc)
			flipped[len(flipped)/3] ^= 0xff
			inputs = append(inputs, flipped)
			for i, in := range inputs {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s/%s input %d: panic: %v", c.Name(), d.Name, i, r)
						}
					}()
					ops.Decode(in)
				}()
			}
		}
	}
}

// TestPrepareDetectsBrokenCodec: a codec whose decoding loses a field
// stops the suite, naming the codec, the dataset and the field.
func TestPrepareDetectsBrokenCodec(t *testing.T) {
	d := Datasets()[0]
	d.Raw = brokenCodec{}
	_, err := Prepare(Selection{}, []Dataset{d})
	if err == nil {
		t.Fatal("Prepare accepted a codec whose decoding loses a field")
	}
	for _, want := range []string{"codec broken", "dataset small", "BoolVal: got false, want true"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// brokenCodec is raw with the bool field lost on decode.
type brokenCodec struct{}

func (brokenCodec) Name() string { return "broken" }
func (brokenCodec) Bind(m *matrix.Message) (matrix.Ops, error) {
	ops, err := rawPrimitiveCodec.Bind(m)
	if err != nil {
		return matrix.Ops{}, err
	}
	decode := ops.Decode
	ops.Decode = func(b []byte) (any, error) {
		v, err := decode(b)
		if err != nil {
			return nil, err
		}
		p := *v.(*Primitive)
		p.BoolVal = false
		return &p, nil
	}
	return ops, nil
}

// TestRawOtherType: a raw codec does not apply to another dataset's type.
func TestRawOtherType(t *testing.T) {
	if _, err := rawFloatsCodec.Bind(smallMessage(NewSmall())); !errors.Is(err, matrix.ErrNotApplicable) {
		t.Errorf("raw floats on the small message: %v", err)
	}
}

func TestRawRejectsHugeCount(t *testing.T) {
	ops, err := rawFloatsCodec.Bind(floatsMessage(NewFloats(4)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ops.Decode([]byte{0xff, 0xff, 0xff, 0x7f, 1, 2, 3})
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a DecodeError", err)
	}
}
