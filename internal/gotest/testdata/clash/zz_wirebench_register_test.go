package clash_test

import (
	tst "testing"

	wb "example.com/clash"
)

// A file of the external test package named like the worker's file.
func BenchmarkInRegisterFile(b *tst.B) {
	for i := 0; i < b.N; i++ {
		sink += wb.Encode(30)
	}
}
