package clash

import (
	goflag "flag"
	gofmt "fmt"
	goos "os"
	tst "testing"
)

// parsed is set by init, which parses the command line (as a package may
// once testing.Init has defined the test flags) and reads os.Args.
var parsed = -1

// early is initialized before init and TestMain run.
var early = gofmt.Sprint(goos.Args[1:])

var _ = func() int { parsed = 0; return parsed }()

func init() {
	tst.Init()
	goflag.Parse()
	parsed = goflag.NArg() + len(goos.Args[0])
}

// TestMain sets the package up, runs its tests, and says so.
func TestMain(m *tst.M) {
	if parsed < 0 || early == "" {
		gofmt.Fprintln(goos.Stderr, "init did not run before TestMain")
		goos.Exit(3)
	}
	gofmt.Fprintln(goos.Stderr, "clash: TestMain set up")
	code := m.Run()
	gofmt.Fprintln(goos.Stderr, "clash: TestMain tore down")
	goos.Exit(code)
}

// TestWirebenchWorker is a test of the package's own with the worker's
// name.
func TestWirebenchWorker(t *tst.T) {
	if got := wirebenchClientRequest(2, 3); got != 5 {
		t.Errorf("wirebenchClientRequest(2, 3) = %d", got)
	}
}

var sink int

func BenchmarkEncode(b *tst.B) {
	for i := 0; i < b.N; i++ {
		sink += Encode(100)
	}
	b.ReportMetric(float64(len(fmt)), "B/msg")
}

func BenchmarkNames(b *tst.B) {
	for _, n := range []int{1, 10} {
		b.Run(gofmt.Sprintf("n=%d", n), func(b *tst.B) {
			for i := 0; i < b.N; i++ {
				sink += Encode(n) + int(wirebenchClientRequest(uintptr(i), 1))
			}
		})
	}
}
