package bench

import flatbuffers "github.com/google/flatbuffers/go"

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
