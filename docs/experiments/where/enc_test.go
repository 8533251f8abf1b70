package where

import (
	"fmt"
	"testing"
)

func order() *Order {
	o := &Order{ID: 1 << 40, Customer: "ACME Wire & Cable", Total: 1234.5}
	for i := range 16 {
		o.Items = append(o.Items, Item{SKU: fmt.Sprintf("SKU-%05d", i*37), Qty: uint32(i + 1), Price: 9.99 * float64(i+1)})
	}
	return o
}

func TestRoundTrip(t *testing.T) {
	o := order()
	got, err := Decode(Encode(nil, o))
	if err != nil || got.ID != o.ID || got.Customer != o.Customer || len(got.Items) != len(o.Items) || got.Items[15] != o.Items[15] || got.Total != o.Total {
		t.Fatalf("Decode(Encode(o)) = %+v, %v", got, err)
	}
}

// BenchmarkEncode calls every helper; the head's checksum does more.
func BenchmarkEncode(b *testing.B) {
	o := order()
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		buf = Encode(buf[:0], o)
	}
}

// BenchmarkDecode does not change.
func BenchmarkDecode(b *testing.B) {
	msg := Encode(nil, order())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUvarint is one unchanged helper alone.
func BenchmarkUvarint(b *testing.B) {
	buf := make([]byte, 0, 16)
	for i := 0; b.Loop(); i++ {
		buf = appendUvarint(buf[:0], uint64(i)<<20)
	}
}
