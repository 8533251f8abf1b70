package clash

import tst "testing"

func BenchmarkInWorker2File(b *tst.B) {
	for i := 0; i < b.N; i++ {
		sink += Encode(20)
	}
}
