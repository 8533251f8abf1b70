package ab

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/heartbeat"
	"github.com/wirebench/wirebench/internal/human"
)

// progressf writes a progress line to Options.Progress (if any), at most
// every two seconds unless always is set.
func (r *run) progressf(always bool, format string, args ...any) {
	if r.opts.Progress == nil {
		return
	}
	r.outMu.Lock()
	defer r.outMu.Unlock()
	if !always && time.Since(r.lastOut) < 2*time.Second {
		return
	}
	r.lastOut = time.Now()
	fmt.Fprintf(r.opts.Progress, "wirebench: ab: "+format+"\n", args...)
}

// chatterf is progressf for the lines only Options.Verbose shows; what it
// says is kept as what the run is doing, for the heartbeat.
func (r *run) chatterf(always bool, format string, args ...any) {
	r.outMu.Lock()
	r.doing = fmt.Sprintf(format, args...)
	r.outMu.Unlock()
	if r.opts.Verbose {
		r.progressf(always, format, args...)
	}
}

// heartbeat writes a line whenever heartbeat.Every has passed without
// one (what the run did last, and the time elapsed), until stop is
// called.
func (r *run) heartbeat() (stop func()) {
	if r.opts.Progress == nil {
		return func() {}
	}
	const tick = heartbeat.Every / 20
	return heartbeat.Start(tick, func() {
		r.outMu.Lock()
		quiet, doing := time.Since(r.lastOut) >= heartbeat.Every-tick, r.doing
		r.outMu.Unlock()
		if quiet && doing != "" {
			r.progressf(true, "%s elapsed; last: %s", time.Since(r.start).Round(time.Second), doing)
		}
	})
}

// aaSummary describes the A/A check's outcome in one line: what was
// flagged, and the largest change.
func aaSummary(cs []compare.Comparison) string {
	var names []string
	var top *compare.Comparison
	for i, c := range cs {
		if flagged(c) {
			names = append(names, fmt.Sprintf("%s %+.2f%%", strings.TrimPrefix(c.Name, "Benchmark"), 100*(c.Ratio-1)))
		}
		if !math.IsNaN(c.Ratio) && (top == nil || math.Abs(math.Log(c.Ratio)) > math.Abs(math.Log(top.Ratio))) {
			top = &cs[i]
		}
	}
	s := human.Plural(len(cs), "benchmark", "benchmarks") + ", nothing flagged"
	if len(names) > 0 {
		s = fmt.Sprintf("%s, FLAGGED %s", human.Plural(len(cs), "benchmark", "benchmarks"), strings.Join(names, ", "))
	}
	if top != nil {
		s += fmt.Sprintf(" (largest change %+.2f%%, %s)", 100*(top.Ratio-1), strings.TrimPrefix(top.Name, "Benchmark"))
	}
	return s
}

// verdictCounts counts the timing verdicts for the last progress line.
func verdictCounts(cs []compare.Comparison) string {
	n := map[compare.Verdict]int{}
	unconfirmed := 0
	for _, c := range cs {
		n[c.Verdict]++
		if c.Unconfirmed {
			unconfirmed++
		}
	}
	return fmt.Sprintf("%s (%d unconfirmed), %s, %d unchanged, %d inconclusive",
		human.Plural(n[compare.Regression], "timing regression", "timing regressions"), unconfirmed,
		human.Plural(n[compare.Improvement], "improvement", "improvements"), n[compare.Unchanged], n[compare.Inconclusive])
}

// onOff describes the A/A check in the first progress line.
func onOff(b bool) string {
	if b {
		return "every benchmark, against a second base worker"
	}
	return "off"
}
