//go:build linux

package worker

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpusAllowed reads the Cpus_allowed_list line of a /proc status file
// ("" when the file is gone: a thread that ended meanwhile).
func cpusAllowed(t *testing.T, status string) string {
	t.Helper()
	data, err := os.ReadFile(status)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("%s has no Cpus_allowed_list", status)
	return ""
}

// TestStartPinned starts a stand-in worker on OneCPU's CPU: the worker
// process runs there, and no thread of the caller is left narrowed.
func TestStartPinned(t *testing.T) {
	cpus := OneCPU()
	if cpus == nil {
		t.Skip("this process may run on one CPU only: nothing to pin")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	before := cpusAllowed(t, "/proc/self/status")
	out := filepath.Join(t.TempDir(), "allowed")
	script := filepath.Join(t.TempDir(), "worker")
	body := "#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status > " + out + "\n" +
		`echo '{"protocol":"wirebench-ab","version":1,"min_version":1,"suite":"default","benchmarks":["BenchmarkX"]}'` + "\nread line\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Start(ctx, "head", Command{Path: script, Env: os.Environ(), CPUs: cpus}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Kill()
	got, err := os.ReadFile(out) // written before the handshake
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(got)), "Cpus_allowed_list:"))
	if want != strconv.Itoa(cpus[0]) {
		t.Errorf("the worker may run on CPUs %q, want %d only", want, cpus[0])
	}
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil || len(tasks) == 0 {
		t.Fatalf("threads: %v, %v", tasks, err)
	}
	for _, st := range tasks {
		if a := cpusAllowed(t, st); a != "" && a != before {
			t.Errorf("thread %s of the caller may run on %q after the start, %q before", st, a, before)
		}
	}
}
