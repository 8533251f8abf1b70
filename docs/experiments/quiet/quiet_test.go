package quiet

import (
	"encoding/json"
	"testing"
)

var small, nested = Sample(4), Sample(64)

func BenchmarkDevNull(b *testing.B) {
	p := []byte{1}
	for b.Loop() {
		WriteNull(p)
	}
}

func BenchmarkPipe(b *testing.B) {
	p, buf := NewPipe(), []byte{1}
	for b.Loop() {
		p.RoundTrip(buf)
	}
}

func BenchmarkSleep(b *testing.B) {
	for b.Loop() {
		Nap()
	}
}

func BenchmarkDecodeSmall(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(small); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeNested(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(nested); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMap(b *testing.B) {
	b.ReportAllocs()
	var m map[string]string
	for b.Loop() {
		if err := json.Unmarshal([]byte(`{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8"}`), &m); err != nil {
			b.Fatal(err)
		}
		m = nil
	}
}

// BenchmarkLive keeps 20,000×live pointers to Parts alive (about 1 MB
// a 20,000, under the collector's 4 MB minimum goal, so that each cycle
// marks them all and a longer ring also leaves less room before the
// next) and allocates one Part an operation, in place of the oldest.
func BenchmarkLive(b *testing.B) {
	b.ReportAllocs()
	k := NewKeep(20_000)
	for i := range k.Len() {
		k.Put(float64(i))
	}
	v := 0.0
	for b.Loop() {
		v++
		k.Put(v)
	}
}
