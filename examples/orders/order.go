// Package orders is a team's wire format, the way wirebench's users have
// one: a protobuf message (order.proto, generated into order.pb.go) and
// the same order as a Go struct for the formats that work by reflection.
package orders

// Sample is the order the service sends most.
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

// OrderJSON is the order as the public API's JSON and the cache's
// MessagePack carry it.
type OrderJSON struct {
	ID       int64             `json:"id" msgpack:"id"`
	Customer string            `json:"customer" msgpack:"customer"`
	Lines    []LineJSON        `json:"lines" msgpack:"lines"`
	Tags     map[string]string `json:"tags" msgpack:"tags"`
}

// LineJSON is one line of an order.
type LineJSON struct {
	SKU      string  `json:"sku" msgpack:"sku"`
	Quantity int32   `json:"quantity" msgpack:"quantity"`
	Price    float64 `json:"price" msgpack:"price"`
}

// ToJSON is o as the struct.
func ToJSON(o *Order) *OrderJSON {
	out := &OrderJSON{ID: o.GetId(), Customer: o.GetCustomer(), Tags: o.GetTags()}
	for _, l := range o.GetLines() {
		out.Lines = append(out.Lines, LineJSON{SKU: l.GetSku(), Quantity: l.GetQuantity(), Price: l.GetPrice()})
	}
	return out
}
