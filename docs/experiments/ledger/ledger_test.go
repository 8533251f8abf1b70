package ledger

import "testing"

var entry = &Entry{ID: 1 << 40, Items: []uint32{3, 1, 4, 1, 5, 9, 2, 6}, Note: "settled at the back room.", Region: "eu-west-1"}

func BenchmarkMarshal(b *testing.B) {
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = Marshal(buf[:0], entry)
	}
	b.ReportMetric(float64(len(buf)), "B/msg")
}

func BenchmarkUnmarshal(b *testing.B) {
	buf := Marshal(nil, entry)
	var e Entry
	b.ReportAllocs()
	for b.Loop() {
		if !Unmarshal(buf, &e) {
			b.Fatal("does not decode")
		}
	}
}

func BenchmarkChecksum(b *testing.B) {
	buf := Marshal(nil, entry)
	b.ReportAllocs()
	for b.Loop() {
		sink += Checksum(buf)
	}
}

func TestRoundTrip(t *testing.T) {
	buf := Marshal(nil, entry)
	want := 41
	if grow {
		want = 51
	}
	if len(buf) != want {
		t.Errorf("%d bytes, want %d", len(buf), want)
	}
	var e Entry
	if !Unmarshal(buf, &e) || e.ID != entry.ID || len(e.Items) != len(entry.Items) || e.Note != entry.Note {
		t.Errorf("decoded %+v", e)
	}
}
