package load

import (
	"math"
	"os/exec"
	"runtime"
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

// TestTakeSeesOtherWork: on this machine, this process's own work and
// that of a child it waited for are its own (so never taken for other
// work), and a process spinning beside it that is nobody's waited-for
// child (started through a shell that leaves it running) shows as other
// work.
func TestTakeSeesOtherWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPUs' accounting is read on Linux only")
	}
	if testing.Short() {
		t.Skip("spins a CPU for two seconds")
	}
	take := func() Sample {
		s, err := Take()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := take()
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); {
	}
	if err := exec.Command("timeout", "0.5", "sh", "-c", "while :; do :; done").Run(); err == nil {
		t.Fatal("the spinning child was not stopped by timeout")
	}
	own := take()
	// Both spun for half a second each, on a CPU of a shared machine.
	if d := own.own - s.own; d < 400*time.Millisecond {
		t.Errorf("this process and its child spun for a second of wall time; their own time shows %v", d)
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
