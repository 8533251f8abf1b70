package clash

import tst "testing"

// A file of the package's own named like the worker's file: the worker
// must not replace it.
func BenchmarkInWorkerFile(b *tst.B) {
	for i := 0; i < b.N; i++ {
		sink += Encode(10)
	}
}
