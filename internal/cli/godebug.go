package cli

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
	env, again := godebugEnviron(os.Environ())
	if !again {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	_ = syscall.Exec(exe, os.Args, env)
}

// godebugEnviron is environ with measureGODEBUG added to its GODEBUG (the
// user's settings kept, before it), and whether that changed anything:
// false when GODEBUG already decides madvdontneed. The result holds one
// GODEBUG: the runtime reads the first, so appending a second one beside
// a user's GODEBUG would leave the setting unseen and re-execute forever.
func godebugEnviron(environ []string) ([]string, bool) {
	cur, found := "", false
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			if !found {
				cur, found = v, true
			}
			continue
		}
		out = append(out, kv)
	}
	for _, s := range strings.Split(cur, ",") {
		if strings.HasPrefix(strings.TrimSpace(s), "madvdontneed=") {
			return environ, false
		}
	}
	val := measureGODEBUG
	if cur != "" {
		val = cur + "," + measureGODEBUG
	}
	return append(out, "GODEBUG="+val), true
}
