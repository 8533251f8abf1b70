// Package heartbeat keeps a long step from going silent: a CI log that
// stops for a minute looks hung. A step that says nothing while it runs
// (a build, a count, timed rounds) starts a heartbeat that calls it back
// on a ticker, and the callback writes a line when the step has been
// quiet for Every.
package heartbeat

import (
	"sync"
	"time"
)

// Every is the longest a step goes without a progress line.
const Every = 10 * time.Second

// Start calls beat every tick, from a goroutine of its own, until stop
// is called; stop returns once a beat under way has ended.
func Start(tick time.Duration, beat func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				beat()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
