// Package orders is an order message, encoded as JSON.
package orders

import "encoding/json"

// Order is the message.
type Order struct {
	ID    int64    `json:"id"`
	Items []string `json:"items"`
}

// Marshal encodes o.
func Marshal(o Order) ([]byte, error) { return json.Marshal(o) }
