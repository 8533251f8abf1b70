package orders

import (
	"testing"

	"github.com/wirebench/wirebench/matrix"
)

// BenchmarkWire is the order on every codec that applies: protobuf on the
// generated message, msgpack, json and gob on the struct, both
// directions, each decode checked field by field before timing. The
// sub-benchmarks report the encoded size as B/msg, which wirebench gates
// exactly.
func BenchmarkWire(b *testing.B) {
	o := Sample()
	matrix.Run(b, "order", &matrix.Message{Value: ToJSON(o), Proto: o})
}
