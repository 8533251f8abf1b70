// Package schemas holds the wire schemas of the wirebench suite:
// benchmark.proto (Protocol Buffers) and benchmark.fbs (FlatBuffers). The Go
// code generated from them lives in the pb and fb sub-packages, is committed,
// and is reproduced byte for byte by `go generate ./schemas` (see
// generate.sh); TestGeneratedCodeIsCurrent fails when it is stale.
package schemas
