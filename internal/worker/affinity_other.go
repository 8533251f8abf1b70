//go:build !linux

package worker

import "os/exec"

// startOn starts cmd; pinning a worker to CPUs is implemented on Linux
// only (sched_setaffinity), so cpus is ignored here.
func startOn(cmd *exec.Cmd, cpus []int) error { return cmd.Start() }

// OneCPU returns nil: workers are pinned on Linux only.
func OneCPU() []int { return nil }
