module github.com/wirebench/wirebench

go 1.26.0

require (
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/google/go-github/v93 v93.0.0
	github.com/vmihailenco/msgpack/v5 v5.4.1
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	gonum.org/v1/gonum v0.17.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
)
