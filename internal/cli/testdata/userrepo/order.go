// Package orders is a team's wire format: the Order message and what
// builds it.
package orders

import "google.golang.org/protobuf/proto"

// Sample is the order the benchmarks encode.
func Sample() *Order {
	return &Order{
		Id:       1001,
		Customer: "ACME Corporation",
		Lines: []*Line{
			{Sku: "widget-7", Quantity: 3, Price: 9.99},
			{Sku: "gadget-2", Quantity: 1, Price: 24.5},
		},
		Tags: map[string]string{"channel": "web"},
	}
}

// Encode is how the service puts an order on the wire.
func Encode(o *Order) ([]byte, error) { return proto.MarshalOptions{Deterministic: true}.Marshal(o) }

// Decode reads an order off the wire.
func Decode(b []byte) (*Order, error) {
	o := new(Order)
	return o, proto.Unmarshal(b, o)
}
