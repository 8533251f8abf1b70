#!/bin/sh
# Regenerates the Go code for benchmark.proto (into pb/) and benchmark.fbs
# (into fb/). Run through `go generate ./schemas`, from this directory.
#
#   OUT=DIR sh generate.sh   writes into DIR instead (the staleness test uses it)
#
# Needs protoc (Debian protobuf-compiler 3.21.12) and flatc (Debian
# flatbuffers-compiler 2.0.8); protoc-gen-go is built from the
# google.golang.org/protobuf version pinned in go.mod, so the output is
# byte-for-byte reproducible.
set -eu
out=${OUT:-.}
for tool in protoc flatc; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "generate.sh: $tool not found; install it with: apt-get install protobuf-compiler flatbuffers-compiler" >&2
    exit 1
  }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
mkdir -p "$out/pb" "$out/fb"
protoc --plugin=protoc-gen-go="$tmp/protoc-gen-go" \
  --go_out="$out/pb" --go_opt=paths=source_relative benchmark.proto
rm -f "$out"/fb/*.go
flatc --go --go-namespace fb -o "$out" benchmark.fbs
gofmt -w "$out/fb"
