//go:build linux

package worker

import (
	"fmt"
	"os/exec"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix" // sched_setaffinity, which syscall lacks
)

// startOn starts cmd with every thread it will ever have restricted to
// cpus (nil: where the caller may run). A child inherits the CPU affinity
// of the thread that forks it, so a goroutine locks a thread of its own,
// narrows that thread's affinity, starts cmd from it and widens it again
// before it unlocks; should widening fail, it ends without unlocking and
// the runtime discards the thread. Either way nothing else of the caller
// runs with the narrowed affinity (threads the runtime starts meanwhile
// come from its template thread, never from a locked one).
func startOn(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		var was, set unix.CPUSet
		if err := unix.SchedGetaffinity(0, &was); err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("read the CPU affinity: %w", err)
			return
		}
		for _, c := range cpus {
			set.Set(c)
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("pin it to CPU %v: %w", cpus, err)
			return
		}
		err := cmd.Start()
		if unix.SchedSetaffinity(0, &was) == nil {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	return <-done
}

// OneCPU returns the CPU to pin every worker to: the highest-numbered of
// those this process may run on (its affinity, which a container's cpuset
// narrows), when it may run on at least two; nil when it may run on one
// only (everything runs there anyway), or its affinity cannot be read or
// set (a seccomp profile that refuses sched_setaffinity: the workers then
// run unpinned rather than not at all). The highest rather than the first
// because interrupts and the system's own work favour CPU 0.
func OneCPU() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil || set.Count() < 2 {
		return nil
	}
	// Setting a thread's affinity to what it is changes nothing and
	// tells whether setting it is allowed.
	runtime.LockOSThread()
	err := unix.SchedSetaffinity(0, &set)
	runtime.UnlockOSThread()
	if err != nil {
		return nil
	}
	for c := 8*int(unsafe.Sizeof(set)) - 1; c >= 0; c-- {
		if set.IsSet(c) {
			return []int{c}
		}
	}
	return nil
}
