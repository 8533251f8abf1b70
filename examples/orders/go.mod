module example.com/orders

go 1.26.0

require (
	github.com/wirebench/wirebench v0.0.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/vmihailenco/msgpack/v5 v5.4.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
)

// The example uses the matrix package of the wirebench tree it is in; a
// module of your own requires a released version instead.
replace github.com/wirebench/wirebench => ../..
