package baseline

import (
	"testing"
	"time"
)

// FuzzDecode feeds the baseline decoder arbitrary input: a baseline or an
// error, never a panic, and a decoded baseline must encode again.
func FuzzDecode(f *testing.F) {
	good, _ := New(runAt(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), "c", 100), "1").Encode()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"wirebench.baseline","version":1,"suite":"default","reference":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode("fuzz", data, "")
		if err != nil {
			return
		}
		if _, err := b.Encode(); err != nil {
			t.Fatalf("decoded baseline does not encode: %v", err)
		}
	})
}
