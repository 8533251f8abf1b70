package worker

import (
	"context"
	"io"
	"strings"
	"testing"
)

// FuzzClient feeds the orchestrator's end of the protocol arbitrary
// worker output after a valid handshake (and, separately, as the
// handshake): every call returns a measurement that passes the protocol's
// checks or an error, never a panic or a hang. Run with:
// go test -fuzz FuzzClient ./internal/worker
func FuzzClient(f *testing.F) {
	f.Add(`{"id":1,"ok":true,"iterations":100,"elapsed_ns":5000,"allocs":100,"bytes":6400}` + "\n" + `{"id":2,"ok":true,"size":26}`)
	f.Add(`{"id":1,"ok":true,"iterations":100,"elapsed_ns":-1}`)
	f.Add(`{"id":1,"ok":false,"error":"checksum mismatch"}` + "\r\n" + `{"id":2,"ok":true,"elapsed_ns":7}`)
	f.Add(`{"id":1,"ok":true,"iterations":100,"elapsed_ns":9223372036854775807,"allocs":18446744073709551615}`)
	f.Add(`{"protocol":"wirebench-ab","version":1,"min_version":1,"benchmarks":["BenchmarkX"]}`)
	f.Fuzz(func(t *testing.T, out string) {
		ctx := context.Background()
		for _, stream := range []string{helloLine(t, "BenchmarkX") + out, out} {
			c, err := NewClient(ctx, "head", strings.NewReader(stream), io.Discard)
			if err != nil {
				continue
			}
			if s, err := c.Run(ctx, "BenchmarkX", 100, 0); err == nil && (s.Iterations != 100 || s.Elapsed < 0) {
				t.Fatalf("run accepted %+v", s)
			}
			if n, err := c.Size(ctx, "BenchmarkX"); err == nil && n < 0 {
				t.Fatalf("size accepted %d", n)
			}
			if s, err := c.Warmup(ctx, "BenchmarkX", 1); err == nil && (s.Iterations < 1 || s.Elapsed < 0) {
				t.Fatalf("warm-up accepted %+v", s)
			}
			c.Kill()
		}
	})
}
