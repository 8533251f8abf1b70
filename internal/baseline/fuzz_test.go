package baseline

import (
	"testing"
	"time"
)

// FuzzDecode feeds the baseline decoder arbitrary input: a baseline or an
// error, never a panic. A decoded baseline must encode again, number its
// history in increasing arrival order, and take a new run as its
// reference and newest entry, whatever times it holds.
func FuzzDecode(f *testing.F) {
	good, _ := New(runAt(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), "c", 100), "1").Encode()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"wirebench.baseline","version":1,"suite":"default","reference":{}}`))
	f.Add([]byte(`{"format":"wirebench.baseline","version":1,"suite":"default","reference":{"format":"wirebench.results","version":1},` +
		`"history":[{"seq":9,"time":"2999-01-01T00:00:00Z","medians":{"B":{"ns/op":1}}},{"seq":2,"time":"1999-01-01T00:00:00Z"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode("fuzz", data, "")
		if err != nil {
			return
		}
		if _, err := b.Encode(); err != nil {
			t.Fatalf("decoded baseline does not encode: %v", err)
		}
		for i := 1; i < len(b.History); i++ {
			if b.History[i].Seq <= b.History[i-1].Seq {
				t.Fatalf("history[%d].seq %d after %d: not in arrival order", i, b.History[i].Seq, b.History[i-1].Seq)
			}
		}
		r := runAt(time.Unix(0, 0), "new-run", 1)
		for _, e := range b.History {
			if e.key() == Summarize(r, "fuzz-run").key() {
				return // the run is stored already: a refresh rightly changes nothing
			}
		}
		after := Refresh(b, r, "fuzz-run", 5)
		if after.Reference != r || after.History[len(after.History)-1].Commit != "new-run" || len(after.History) > 5 {
			t.Fatalf("after a refresh: reference %v, %d entries, newest %q", after.Reference.Env.Commit, len(after.History), after.History[len(after.History)-1].Commit)
		}
	})
}
