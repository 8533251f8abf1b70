package main

import (
	"os"
	"runtime"
	"strings"
	"syscall"
)

// measureGODEBUG is the runtime setting wirebench measures under.
//
// After a collection the Go runtime's scavenger returns free heap pages to
// Linux with MADV_DONTNEED, at its own pace, so the next batch of a
// benchmark that allocates megabytes faults every page back in — more or
// fewer depending on how long other benchmarks ran in between. On this
// project's 2-core test machine that made a 512 KiB encode vary from 56 µs
// to 1 ms per operation across samples. With madvdontneed=0 the runtime
// uses MADV_FREE: released pages stay mapped until the kernel needs them,
// reuse costs no fault, and the same samples stayed within 19-100 µs with a
// fifth of the page faults. The setting is read only at start-up, so
// wirebench re-executes itself with it.
const measureGODEBUG = "madvdontneed=0"

// reexecWithGODEBUG replaces the process with itself under measureGODEBUG,
// on Linux, unless GODEBUG already decides madvdontneed. It returns only
// when it did not re-execute (other systems, or exec failed: the run then
// goes on, a little noisier).
func reexecWithGODEBUG() {
	if runtime.GOOS != "linux" {
		return
	}
	cur := os.Getenv("GODEBUG")
	if strings.Contains(cur, "madvdontneed=") {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	val := measureGODEBUG
	if cur != "" {
		val = cur + "," + measureGODEBUG
	}
	env := append(os.Environ(), "GODEBUG="+val)
	_ = syscall.Exec(exe, os.Args, env)
}
