// Package bench is wirebench's embedded serialization suite and the
// harness that measures it: seed 001's datasets (small, medium, large)
// and the numeric family that shows how cost grows with payload size, on
// every codec of the public matrix package plus a hand-written raw floor.
// The suite is the matrix package's first user: each dataset is one file
// giving its message in every codec's form (Go struct, generated protobuf
// message, FlatBuffers build and read), its checksums and its raw codec.
//
// A benchmark is one codec and one dataset and one operation: serialize
// (encode the value from the codec's natural in-memory form) or deserialize
// (decode into that form and read every field). Everything a benchmark needs
// (the value in native form, the encoded bytes to decode) is built before
// timing starts. The harness (Runner) measures the benchmarks in
// interleaved rounds with the collector off while timing; the A/B worker
// (internal/worker) serves the same benchmarks.
package bench
