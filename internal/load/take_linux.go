package load

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// Take reads the machine's accounting now. It fails where /proc/stat
// cannot be read (not Linux); a measurement then records no load.
func Take() (Sample, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return Sample{}, fmt.Errorf("read the CPUs' accounting: %w", err)
	}
	busy, err := parseStat(data)
	if err != nil {
		return Sample{}, err
	}
	var self, children syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		return Sample{}, fmt.Errorf("getrusage: %w", err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children); err != nil {
		return Sample{}, fmt.Errorf("getrusage of the children: %w", err)
	}
	own := tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
	return Sample{at: time.Now(), busy: busy, own: own, ok: true}, nil
}

// tv is a getrusage time as a duration.
func tv(t syscall.Timeval) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
}
