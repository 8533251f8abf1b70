// Package matrix benchmarks your own messages on every serialization
// codec: encoded size, serialize and deserialize time, and allocations,
// for Protocol Buffers, FlatBuffers, MessagePack, JSON, gob and any codec
// of your own, from an ordinary Go benchmark.
//
// A Message is one value in the forms its codecs need: a Go value for the
// codecs that work by reflection (json, msgpack, gob), the same message as
// generated protobuf code, a build and a read function for FlatBuffers.
// Run runs one sub-benchmark per codec and operation,
//
//	BenchmarkWire/codec=protobuf/dataset=order/op=serialize
//	BenchmarkWire/codec=protobuf/dataset=order/op=deserialize
//	BenchmarkWire/codec=json/dataset=order/op=serialize
//	…
//
// each reporting ns/op, B/op, allocs/op and the encoded size as B/msg,
// the convention wirebench reads sizes by. The output is ordinary Go
// benchmark text: benchstat reads it, and wirebench measures, compares
// and gates it like any other benchmark.
//
// Correctness comes first. Before anything is timed, every codec encodes
// the message and decodes its own encoding, and the decoded value must
// equal the message (compared field by field, or by Message.Equal); a
// codec that decodes wrongly fails the benchmark with the codec, the
// dataset and the first field that differs. A fast wrong codec is a bug,
// not a result.
//
// The rules of a fair serialization benchmark hold: values are built
// before timing starts; serialize encodes from the codec's natural form
// (the struct, the generated message); deserialize decodes into that form
// with every field materialised, and, with Message.Sum, reads every field
// of what it decoded, so a lazy or zero-copy decoder pays for the reads it
// defers; decoded values are kept, so the compiler cannot drop the work;
// the collector is off while timing and collects, untimed, after every
// MaxBatchBytes of garbage, so one benchmark's garbage is not collected on
// another's time.
//
// A codec of your own is one type implementing Codec, or one Custom value;
// it takes part by being in the list given to Run.
package matrix
