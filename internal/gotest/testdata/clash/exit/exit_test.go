package exit

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// holdVar names a file: the process TestMain starts lives while it
// exists (a minute at most).
const holdVar = "CLASH_EXIT_HOLD"

// TestMain skips every test, as a package may without the service its
// tests need, and leaves behind a process it started (the service, say),
// which inherits what the test binary did not mark close-on-exec.
func TestMain(m *testing.M) {
	if os.Getenv("CLASH_EXIT_CHILD") != "" {
		hold()
		os.Exit(0)
	}
	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), "CLASH_EXIT_CHILD=1")
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "exit: no service to test against: skipped")
	os.Exit(0)
}

// hold waits while the file holdVar names exists.
func hold() {
	path := os.Getenv(holdVar)
	for start := time.Now(); path != "" && time.Since(start) < time.Minute; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(path); err != nil {
			return
		}
	}
}

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Work(100)
	}
}
