package clash_test

import (
	gofmt "fmt"
	tst "testing"

	wb "example.com/clash"
)

// The worker's imports and names, declared by the external test package.
var (
	bytes, json, fmt, strings, os, regexp, time, unsafe, runtime = 1, 2, 3, 4, 5, 6, 7, 8, 9
	testing                                                      = "not the testing package"
	wirebenchpkg                                                 = "not the package under test"
	clash                                                        = "not the package under test either"
)

func wirebench() string {
	return gofmt.Sprint(bytes, json, fmt, strings, os, regexp, time, unsafe, runtime)
}

var sink int

func BenchmarkExternal(b *tst.B) {
	for i := 0; i < b.N; i++ {
		sink += wb.Encode(50)
	}
	b.ReportMetric(float64(len(wirebench())), "B/msg")
}
