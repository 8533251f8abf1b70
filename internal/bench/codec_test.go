package bench

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// roundTripValues are one value of every canonical type. The opt-in
// datasets are represented by small instances of their types.
func roundTripValues() map[string]any {
	vals := map[string]any{}
	for _, d := range Datasets() {
		if !d.OptIn {
			vals[d.Name] = d.New()
		}
	}
	vals["pairs-3x1000"] = NewPairs(3, 1000)
	return vals
}

// TestRoundTrip checks that every codec decodes every dataset to a value
// equal to the one it encoded, and that Decode's checksum agrees.
func TestRoundTrip(t *testing.T) {
	for name, v := range roundTripValues() {
		want := Checksum(v)
		for _, c := range Codecs() {
			t.Run(c.Name()+"/"+name, func(t *testing.T) {
				ops, err := c.Bind(v)
				if err != nil {
					t.Fatalf("Bind: %v", err)
				}
				enc, err := ops.Encode()
				if err != nil {
					t.Fatalf("Encode: %v", err)
				}
				got, err := ops.Canonical(cloneBytes(enc))
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				if !reflect.DeepEqual(got, v) {
					t.Errorf("decoded value differs from the encoded one:\n got %+v\nwant %+v", abbreviate(got), abbreviate(v))
				}
				sum, err := ops.Decode(enc)
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				if sum != want {
					t.Errorf("Decode checksum %x, want %x", sum, want)
				}
			})
		}
	}
}

func abbreviate(v any) any {
	switch v := v.(type) {
	case *Floats:
		return len(v.Values)
	case *Pairs:
		return len(v.Pairs)
	}
	return v
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
	benches, err := Prepare(Selection{}, Codecs(), Datasets())
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
	for name, v := range roundTripValues() {
		if name == "floats-1m" || name == "floats-64k" {
			continue // same type as floats-1k, only slower
		}
		for _, c := range Codecs() {
			ops, err := c.Bind(v)
			if err != nil {
				t.Fatal(err)
			}
			enc, _ := ops.Encode()
			enc = cloneBytes(enc)
			inputs := [][]byte{nil, enc[:len(enc)/2], enc[:1]}
			flipped := cloneBytes(enc)
			flipped[len(flipped)/3] ^= 0xff
			inputs = append(inputs, flipped)
			for i, in := range inputs {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s/%s input %d: panic: %v", c.Name(), name, i, r)
						}
					}()
					ops.Decode(in)
				}()
			}
		}
	}
}

func TestPrepareDetectsBrokenCodec(t *testing.T) {
	_, err := Prepare(Selection{}, []Codec{brokenCodec{}}, Datasets()[:1])
	if err == nil {
		t.Fatal("Prepare accepted a codec whose decoding loses a field")
	}
	if !strings.Contains(err.Error(), "the codec is broken") {
		t.Errorf("error %q does not say the codec is broken", err)
	}
}

// brokenCodec is raw with the bool field lost on decode.
type brokenCodec struct{}

func (brokenCodec) Name() string { return "broken" }
func (brokenCodec) Bind(v any) (Ops, error) {
	ops, err := Raw{}.Bind(v)
	if err != nil {
		return Ops{}, err
	}
	return Ops{
		Encode: ops.Encode,
		Decode: func(b []byte) (uint64, error) {
			out, err := ops.Canonical(b)
			if err != nil {
				return 0, err
			}
			p := *out.(*Primitive)
			p.BoolVal = !p.BoolVal
			return Checksum(&p), nil
		},
		Canonical: ops.Canonical,
	}, nil
}

func TestBindUnsupported(t *testing.T) {
	for _, c := range Codecs() {
		if _, err := c.Bind(struct{}{}); err == nil {
			t.Errorf("%s: Bind of an unknown type succeeded", c.Name())
		}
	}
}

func TestRawRejectsHugeCount(t *testing.T) {
	ops, err := Raw{}.Bind(NewFloats(4))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ops.Decode([]byte{0xff, 0xff, 0xff, 0x7f, 1, 2, 3})
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a DecodeError", err)
	}
}
