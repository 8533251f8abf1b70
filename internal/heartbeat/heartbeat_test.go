package heartbeat

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestStart: beats come on the ticker until stop, and none after stop
// has returned.
func TestStart(t *testing.T) {
	var n atomic.Int64
	stop := Start(time.Millisecond, func() { n.Add(1) })
	for deadline := time.Now().Add(5 * time.Second); n.Load() < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("%d beats in 5 s of a 1 ms ticker", n.Load())
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	at := n.Load()
	time.Sleep(20 * time.Millisecond)
	if n.Load() != at {
		t.Errorf("%d beats after stop returned", n.Load()-at)
	}
}
