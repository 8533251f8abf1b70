package bench

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/wirebench/wirebench/schemas/fb"
)

// FlatBuffers is github.com/google/flatbuffers/go on the tables generated
// from schemas/benchmark.fbs, with a fresh Builder for every message (1 KiB
// to start, growing as needed). Decoding reads every field out of the
// buffer into the canonical Go values, strings copied into Go strings:
// zero-copy access that touches nothing would not be comparable with the
// other codecs' full decode.
type FlatBuffers struct{}

func (FlatBuffers) Name() string { return "flatbuffers" }

func (c FlatBuffers) Bind(v any) (Ops, error) {
	build, err := fbBuilderFunc(c, v)
	if err != nil {
		return Ops{}, err
	}
	ops := fbDecodeOps(v)
	ops.Encode = func() ([]byte, error) {
		return build(flatbuffers.NewBuilder(1024)), nil
	}
	return ops, nil
}

// fbBuilderFunc prepares v for building (the map as sorted parallel
// key/value lists) and returns a function that builds the message into a
// builder and returns the finished bytes. Tables are built in the order of
// the suite wirebench grew from, so its sizes reproduce.
func fbBuilderFunc(c Codec, v any) (func(*flatbuffers.Builder) []byte, error) {
	switch v := v.(type) {
	case *Primitive:
		return func(b *flatbuffers.Builder) []byte {
			s := b.CreateString(v.StrVal)
			fb.SmallMessageStart(b)
			fb.SmallMessageAddIntVal(b, v.IntVal)
			fb.SmallMessageAddFloatVal(b, v.FloatVal)
			fb.SmallMessageAddStrVal(b, s)
			fb.SmallMessageAddBoolVal(b, v.BoolVal)
			b.Finish(fb.SmallMessageEnd(b))
			return b.FinishedBytes()
		}, nil
	case *Medium:
		keys := sortedKeys(v.Metadata)
		vals := make([]string, len(keys))
		for i, k := range keys {
			vals[i] = v.Metadata[k]
		}
		offs := make([]flatbuffers.UOffsetT, 2*len(keys))
		return func(b *flatbuffers.Builder) []byte {
			name := b.CreateString(v.Name)
			scores := fbFloat64s(b, v.Scores)
			keyOffs, valOffs := offs[:len(keys)], offs[len(keys):]
			for i := range keys {
				keyOffs[i] = b.CreateString(keys[i])
				valOffs[i] = b.CreateString(vals[i])
			}
			valsOff := fbOffsets(b, valOffs)
			keysOff := fbOffsets(b, keyOffs)
			nstr := b.CreateString(v.Nested.StrVal)
			fb.PrimitiveTypesStart(b)
			fb.PrimitiveTypesAddIntVal(b, v.Nested.IntVal)
			fb.PrimitiveTypesAddFloatVal(b, v.Nested.FloatVal)
			fb.PrimitiveTypesAddStrVal(b, nstr)
			fb.PrimitiveTypesAddBoolVal(b, v.Nested.BoolVal)
			nested := fb.PrimitiveTypesEnd(b)
			fb.MediumMessageStart(b)
			fb.MediumMessageAddName(b, name)
			fb.MediumMessageAddId(b, v.ID)
			fb.MediumMessageAddScores(b, scores)
			fb.MediumMessageAddMetadataKeys(b, keysOff)
			fb.MediumMessageAddMetadataValues(b, valsOff)
			fb.MediumMessageAddNested(b, nested)
			b.Finish(fb.MediumMessageEnd(b))
			return b.FinishedBytes()
		}, nil
	case *Large:
		items := make([]flatbuffers.UOffsetT, len(v.Items))
		var tags []flatbuffers.UOffsetT
		return func(b *flatbuffers.Builder) []byte {
			for i := range v.Items {
				it := &v.Items[i]
				name := b.CreateString(it.Name)
				tags = tags[:0]
				for _, t := range it.Tags {
					tags = append(tags, b.CreateString(t))
				}
				tagsOff := fbOffsets(b, tags)
				fb.ComplexItemStart(b)
				fb.ComplexItemAddName(b, name)
				fb.ComplexItemAddId(b, it.ID)
				fb.ComplexItemAddScore(b, it.Score)
				fb.ComplexItemAddTags(b, tagsOff)
				items[i] = fb.ComplexItemEnd(b)
			}
			itemsOff := fbOffsets(b, items)
			fb.LargeMessageStart(b)
			fb.LargeMessageAddItems(b, itemsOff)
			b.Finish(fb.LargeMessageEnd(b))
			return b.FinishedBytes()
		}, nil
	case *Floats:
		return func(b *flatbuffers.Builder) []byte {
			vals := fbFloat64s(b, v.Values)
			fb.FloatArrayStart(b)
			fb.FloatArrayAddValues(b, vals)
			b.Finish(fb.FloatArrayEnd(b))
			return b.FinishedBytes()
		}, nil
	case *Pairs:
		pairs := make([]flatbuffers.UOffsetT, len(v.Pairs))
		return func(b *flatbuffers.Builder) []byte {
			for i, p := range v.Pairs {
				a := fbFloat64s(b, p.A)
				bv := fbFloat64s(b, p.B)
				fb.FloatPairStart(b)
				fb.FloatPairAddA(b, a)
				fb.FloatPairAddB(b, bv)
				pairs[i] = fb.FloatPairEnd(b)
			}
			pairsOff := fbOffsets(b, pairs)
			fb.FloatPairsStart(b)
			fb.FloatPairsAddPairs(b, pairsOff)
			b.Finish(fb.FloatPairsEnd(b))
			return b.FinishedBytes()
		}, nil
	}
	return nil, errUnsupported(c, v)
}

// fbFloat64s writes a vector of doubles (FlatBuffers builds back to front).
func fbFloat64s(b *flatbuffers.Builder, v []float64) flatbuffers.UOffsetT {
	b.StartVector(8, len(v), 8)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependFloat64(v[i])
	}
	return b.EndVector(len(v))
}

// fbOffsets writes a vector of table or string offsets.
func fbOffsets(b *flatbuffers.Builder, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartVector(flatbuffers.SizeUOffsetT, len(offs), flatbuffers.SizeUOffsetT)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

// fbDecodeOps returns Decode and Canonical for v's table type: both read
// every field into a fresh canonical value.
func fbDecodeOps(v any) Ops {
	var decode func(b []byte) any
	switch v.(type) {
	case *Primitive:
		decode = func(b []byte) any {
			m := fb.GetRootAsSmallMessage(b, 0)
			return &Primitive{m.IntVal(), m.FloatVal(), string(m.StrVal()), m.BoolVal()}
		}
	case *Medium:
		decode = func(b []byte) any {
			m := fb.GetRootAsMediumMessage(b, 0)
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
	case *Large:
		decode = func(b []byte) any {
			m := fb.GetRootAsLargeMessage(b, 0)
			out := &Large{Items: make([]Item, m.ItemsLength())}
			var it fb.ComplexItem
			for i := range out.Items {
				m.Items(&it, i)
				tags := make([]string, it.TagsLength())
				for j := range tags {
					tags[j] = string(it.Tags(j))
				}
				out.Items[i] = Item{Name: string(it.Name()), ID: it.Id(), Score: it.Score(), Tags: tags}
			}
			return out
		}
	case *Floats:
		decode = func(b []byte) any {
			m := fb.GetRootAsFloatArray(b, 0)
			out := &Floats{Values: make([]float64, m.ValuesLength())}
			for i := range out.Values {
				out.Values[i] = m.Values(i)
			}
			return out
		}
	case *Pairs:
		decode = func(b []byte) any {
			m := fb.GetRootAsFloatPairs(b, 0)
			out := &Pairs{Pairs: make([]Pair, m.PairsLength())}
			var p fb.FloatPair
			for i := range out.Pairs {
				m.Pairs(&p, i)
				a := make([]float64, p.ALength())
				for j := range a {
					a[j] = p.A(j)
				}
				bv := make([]float64, p.BLength())
				for j := range bv {
					bv[j] = p.B(j)
				}
				out.Pairs[i] = Pair{A: a, B: bv}
			}
			return out
		}
	default:
		return Ops{}
	}
	return Ops{
		Decode: func(b []byte) (uint64, error) {
			v, err := fbSafely(b, decode)
			if err != nil {
				return 0, err
			}
			return Checksum(v), nil
		},
		Canonical: func(b []byte) (any, error) { return fbSafely(b, decode) },
	}
}

// fbSafely turns the panics the FlatBuffers accessors raise on a malformed
// buffer (they index without checks) into an error.
func fbSafely(b []byte, decode func([]byte) any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &DecodeError{Codec: "flatbuffers", Cause: r}
		}
	}()
	return decode(b), nil
}
