package results

import (
	"bytes"
	"testing"
)

// FuzzRead feeds the results parser (JSON and Go benchmark text) arbitrary
// input: it must return results that validate, or an error — never panic.
// Run with: go test -fuzz FuzzRead ./internal/results (the corpus found
// is kept in testdata/fuzz/FuzzRead).
func FuzzRead(f *testing.F) {
	var text, js bytes.Buffer
	r := sample()
	r.WriteBench(&text)
	r.Encode(&js)
	f.Add(text.Bytes())
	f.Add(js.Bytes())
	f.Add([]byte("BenchmarkX-8 100 12.5 ns/op 3 B/op\nBenchmarkX-8 100 13 ns/op 3 B/op\n"))
	f.Add([]byte("goos: linux\nBenchmarkA/k=v 1 NaN ns/op\n"))
	f.Add([]byte(`{"format":"wirebench.results","version":1,"benchmarks":[{"name":"A","metrics":[{"unit":"ns/op","values":[1,2]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read("fuzz", data)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("Read returned results that do not validate: %v", err)
		}
		var buf bytes.Buffer
		if err := r.WriteBench(&buf); err != nil {
			t.Fatalf("WriteBench: %v", err)
		}
	})
}
