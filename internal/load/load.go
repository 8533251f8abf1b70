// Package load measures the machine's other work: the CPU time that
// processes other than this one and its children took while a
// measurement ran, from the kernel's accounting of every CPU
// (/proc/stat) less this process's own and its children's (getrusage).
//
// A timing judged against a stored history cannot tell the code's change
// from the machine's when the two move a benchmark unlike the others: a
// benchmark that runs on every CPU (b.RunParallel) loses half its speed
// to one busy process beside it on a 2-CPU runner, while a serial one
// beside it loses a few percent. The timings' own statistics cannot see
// that; this instrument can, and a comparison holds back what it
// affects. Hypervisor steal counts as other work: it is time the
// machine's CPUs gave to someone else.
package load

import (
	"bufio"
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc/stat's times: USER_HZ, 100 on Linux for
// every architecture Go supports there.
const userHZ = 100

// Sample is the machine's CPU accounting at one moment.
type Sample struct {
	at time.Time
	// busy is the time every CPU spent on anything but idling and
	// waiting for I/O; own is this process's and its reaped children's
	// user and system time.
	busy, own time.Duration
	ok        bool
}

// Other is how many CPUs' worth of work other processes did on average
// between s and later, a later sample: 0.95 is one CPU busy with
// something else nearly all the time. It is 0 when either sample is
// missing, and never below 0 (the kernel accounts in ticks, this
// process in microseconds).
func (s Sample) Other(later Sample) float64 {
	wall := later.at.Sub(s.at)
	if !s.ok || !later.ok || wall <= 0 {
		return 0
	}
	other := (later.busy - s.busy) - (later.own - s.own)
	return max(0, float64(other)/float64(wall))
}

// CPUs is how many CPUs the machine has, for reading Other.
func CPUs() int { return runtime.NumCPU() }

// parseStat is the busy time of every CPU from /proc/stat's first line:
// "cpu  user nice system idle iowait irq softirq steal guest guest_nice"
// in USER_HZ ticks; busy is all but idle and iowait (guest time is
// already in user).
func parseStat(data []byte) (time.Duration, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[0] != "cpu" {
			continue
		}
		var busy uint64
		for i, s := range f[1:] {
			if i >= 8 { // guest and guest_nice are in user and nice
				break
			}
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/stat: field %d of %q: %w", i+1, sc.Text(), err)
			}
			if i == 3 || i == 4 { // idle, iowait
				continue
			}
			busy += v
		}
		return time.Duration(busy) * time.Second / userHZ, nil
	}
	return 0, fmt.Errorf("/proc/stat has no line of every CPU's times (\"cpu ...\")")
}
