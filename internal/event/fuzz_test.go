package event

import (
	"os"
	"testing"
)

// FuzzParse feeds the event payload parser arbitrary input: an event or an
// error, never a panic, and a pull request always has a number. Run with:
// go test -fuzz FuzzParse ./internal/event
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/pull_request.json", "testdata/pull_request_fork.json", "testdata/push.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add("pull_request", data)
		f.Add("push", data)
	}
	f.Add("pull_request_target", []byte(`{"number":7,"pull_request":{"head":{"repo":null}}}`))
	f.Add("pull_request", []byte(`{"pull_request":{"number":-1}}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		e := &Event{Name: name}
		if err := e.parse("fuzz", data); err != nil {
			return
		}
		if e.PR != nil && e.PR.Number <= 0 {
			t.Fatalf("pull request number %d accepted", e.PR.Number)
		}
		if e.PR != nil && e.PR.HeadRepo == "" && !e.PR.Fork {
			t.Fatalf("a pull request without a head repository is not treated as a fork")
		}
	})
}
