package load

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestParseStat: busy is every CPU's time but idle and iowait, guest
// time not twice; a file without the line, or with a bad number, is an
// error naming it.
func TestParseStat(t *testing.T) {
	tests := []struct {
		name, stat string
		want       time.Duration
		err        string
	}{
		{"linux 2.6.33+", "cpu  100 20 30 4000 50 6 7 8 9 10\ncpu0 50 10 15 2000 25 3 3 4 4 5\n", 171 * 10 * time.Millisecond, ""},
		{"no steal or guest", "cpu  100 20 30 4000 50 6 7\n", 163 * 10 * time.Millisecond, ""},
		{"after other lines", "intr 5\ncpu  1 0 0 9 0 0 0 0 0 0\n", 10 * time.Millisecond, ""},
		{"no cpu line", "cpu0 1 2 3 4 5\nintr 5\n", 0, "no line of every CPU's times"},
		{"bad number", "cpu  1 x 3 4 5 6 7 8 9 10\n", 0, "field 2"},
	}
	for _, tt := range tests {
		got, err := parseStat([]byte(tt.stat))
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

// TestOther: the other work is the machine's busy time less this
// process's own, over the wall time; never negative; 0 without a sample.
func TestOther(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := Sample{at: t0, busy: 10 * time.Second, own: 2 * time.Second, ok: true}
	tests := []struct {
		name  string
		later Sample
		want  float64
	}{
		{"one CPU busy with other work", Sample{at: t0.Add(10 * time.Second), busy: 25 * time.Second, own: 7 * time.Second, ok: true}, 1},
		{"only this process", Sample{at: t0.Add(10 * time.Second), busy: 15 * time.Second, own: 7 * time.Second, ok: true}, 0},
		{"ticks behind microseconds", Sample{at: t0.Add(10 * time.Second), busy: 14 * time.Second, own: 7 * time.Second, ok: true}, 0},
		{"no later sample", Sample{}, 0},
	}
	for _, tt := range tests {
		if got := s.Other(tt.later); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTakeSeesOtherWork: this process's own work and that of a child it
// waited for are its own (so never taken for other work): the own time
// grows by what the kernel accounts to this process (/proc/self/stat)
// and to the child (wait4's rusage), whatever else the machine is doing;
// and a process spinning beside it that is nobody's waited-for child
// (started through a shell that leaves it running) shows as other work.
func TestTakeSeesOtherWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPUs' accounting is read on Linux only")
	}
	if testing.Short() {
		t.Skip("spins a CPU for a second and a half")
	}
	take := func() Sample {
		s, err := Take()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s, self0 := take(), selfCPU(t)
	for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
	}
	child := exec.Command("timeout", "0.3", "sh", "-c", "while :; do :; done")
	if err := child.Run(); err == nil {
		t.Fatal("the spinning child was not stopped by timeout")
	}
	self1, own := selfCPU(t), take()
	want := self1 - self0 + child.ProcessState.UserTime() + child.ProcessState.SystemTime()
	// /proc/self/stat counts in ticks of 10 ms.
	if d := own.own - s.own; d < want-30*time.Millisecond {
		t.Errorf("own time grew by %v, want at least %v (this process's %v and its child's %v)", d, want, self1-self0, want-(self1-self0))
	}
	if want < 50*time.Millisecond {
		t.Errorf("the spinning took %v of CPU: too little to tell", want)
	}
	if err := exec.Command("sh", "-c", "timeout 1 sh -c 'while :; do :; done' >/dev/null 2>&1 &").Run(); err != nil {
		t.Fatal(err)
	}
	a := take()
	time.Sleep(900 * time.Millisecond)
	b := take()
	if o := a.Other(b); o < 0.5 {
		t.Errorf("a process spinning beside this one counted as %.2f CPUs of other work, want about 1", o)
	}
}

// selfCPU is this process's user and system time as the kernel accounts
// it in /proc/self/stat (fields 14 and 15, in USER_HZ ticks).
func selfCPU(t *testing.T) time.Duration {
	t.Helper()
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	var ticks int64
	for _, i := range []int{11, 12} { // fields 14 and 15, counted after the name
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / userHZ
}
