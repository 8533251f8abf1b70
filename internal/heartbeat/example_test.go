package heartbeat_test

import (
	"fmt"
	"time"

	"github.com/wirebench/wirebench/internal/heartbeat"
)

// A step that says nothing while it runs starts a heartbeat and stops it
// when it ends; no beat comes after stop has returned.
func ExampleStart() {
	beats := make(chan struct{}, 1)
	stop := heartbeat.Start(time.Millisecond, func() {
		select {
		case beats <- struct{}{}:
		default:
		}
	})
	<-beats // the step runs; the ticker calls back meanwhile
	stop()
	fmt.Println("the step ended, the heartbeat with it")
	// Output: the step ended, the heartbeat with it
}
