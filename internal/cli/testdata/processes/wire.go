// Package wire is a module for the tests of wirebench compare on Go
// benchmark text of several go test processes a side: three benchmarks,
// and a build tag, slow, that makes one of them 30% slower.
package wire

import (
	"encoding/json"
	"hash/crc32"
)

// Order is the message.
type Order struct {
	ID    int64    `json:"id"`
	Items []string `json:"items"`
	Total float64  `json:"total"`
}

// Sample is the message the benchmarks encode.
var Sample = Order{ID: 42, Items: []string{"tea", "milk", "bread", "jam"}, Total: 12.5}

// Encode encodes o encodeRounds times (encodeRounds is 10, or 13 with the
// build tag slow) and returns the last encoding.
func Encode(o Order) []byte {
	var b []byte
	for range encodeRounds {
		b, _ = json.Marshal(o)
	}
	return b
}

// Decode decodes data into an Order ten times.
func Decode(data []byte) (Order, error) {
	var o Order
	for range 10 {
		o = Order{}
		if err := json.Unmarshal(data, &o); err != nil {
			return o, err
		}
	}
	return o, nil
}

// Checksum is the CRC-32 of data, a thousand times over.
func Checksum(data []byte) uint32 {
	var c uint32
	for range 1000 {
		c = crc32.Update(c, crc32.IEEETable, data)
	}
	return c
}
