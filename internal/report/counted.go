package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// Counted runs: what was counted and how, and what counting cannot see,
// shared by the Markdown and text reports.

// counted reports whether r compared counted metrics.
func counted(r *compare.Result) bool { return judge(r).counts.n > 0 }

// countBlind is what instructions and simulated cycles do not see.
const countBlind = "time in the kernel and I/O, waiting (locks, channels, sleep), real caches and memory bandwidth (simulated cycles only approximate them), branch prediction, parallel speed-up (Valgrind runs one thread at a time) and the collector's work outside the counted blocks"

// countedSentence says what a counted comparison counted, how, what
// counting cannot see, and how long it took (elapsed, 0 when not known);
// "" when the candidate was not counted.
func countedSentence(r *compare.Result, elapsed time.Duration) string {
	c := r.Counter
	if c == nil {
		return ""
	}
	units := "instructions/op"
	cache := "without cache simulation"
	if c.CacheSim {
		units = "est-cycles/op (gating) and instructions/op"
		cache = fmt.Sprintf("with callgrind's cache simulation (%s; an access costs %d cycle at the first level, %d at the last, %d from memory)",
			c.Geometry, callgrind.WeightL1, callgrind.WeightLL, callgrind.WeightRAM)
	}
	who := "this run"
	if r.Method == compare.MethodCounted {
		who = "each build"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Counted, not timed: %s under Valgrind's callgrind %s, %s, in %s of %s, %s; a process's blocks reduce to their median, and the processes are the replicates of Welch's t-test. A count does not move with what else runs on the machine. ",
		units, c.Version, cache, human.Plural(c.Processes, "process", "processes"), who, methodText(c.Method))
	fmt.Fprintf(&b, "Counting cannot see %s. Wall time was not compared (it was taken natively only to size the blocks and to see how much of each operation's time the count explains)", countBlind)
	if elapsed > 0 {
		fmt.Fprintf(&b, "; counting took %s", elapsed.Round(time.Second))
	}
	b.WriteString(".")
	if s := lacksSentence(c); s != "" {
		b.WriteString(" " + s)
	}
	return b.String()
}

// lacksSentence says which of the machine's CPU features the CPU counted
// on lacked (results.Counter.Lacks); "" when none or not recorded.
func lacksSentence(c *results.Counter) string {
	if c == nil || c.Lacks == "" {
		return ""
	}
	return fmt.Sprintf("Valgrind's virtual CPU lacks %s, which this machine's has: code that picks its path by CPU features was counted on another path than it runs natively.",
		strings.Join(strings.Fields(c.Lacks), ", "))
}

// methodText says how a count per operation was made.
func methodText(method string) string {
	switch method {
	case results.CountTimer:
		return "each benchmark counted while its timer ran, as testing times it (its setup left out), in blocks of a fixed number of iterations"
	case results.CountDifference:
		return "each benchmark function counted whole, its setup included, in blocks of n and 2n iterations whose difference is n operations"
	}
	return "each benchmark in blocks of a fixed number of iterations"
}

// changedRule is the summary's sentence on what makes a speed metric
// change: the timings' test, or for counted runs Welch's.
func changedRule(r *compare.Result) string {
	o := r.Options
	if counted(r) && judge(r).timings.n == 0 {
		return fmt.Sprintf("A count changed when Welch's t-test on the processes' log counts is significant (%s p < %g) **and** the change is beyond ±%s; intervals are %s. ",
			correctionText(o.Correction), o.Alpha, human.Percent(o.Threshold), human.Percent(o.Confidence))
	}
	return fmt.Sprintf("A timing counts as changed when %s is significant (%s p < %g) **and** the change is beyond ±%s; intervals are %s. ",
		timingTest(r), correctionText(o.Correction), o.Alpha, human.Percent(o.Threshold), human.Percent(o.Confidence))
}

// speedWord is what the report calls the run's speed metrics: counts or
// timings.
func speedWord(r *compare.Result) string {
	if counted(r) && judge(r).timings.n == 0 {
		return "count"
	}
	return "timing"
}

// maxUnseenNamed is how many benchmarks unseenSentence names; the others
// are counted.
const maxUnseenNamed = 5

// unseenSentence says which counted benchmarks' counts explain little of
// their native time (results.Unseen) and what that means for their
// verdicts; "" when there are none. With md the names are escaped for
// Markdown.
func unseenSentence(us []results.Unseen, md bool) string {
	if len(us) == 0 {
		return ""
	}
	var parts []string
	for _, u := range us[:min(len(us), maxUnseenNamed)] {
		name := elide(ShortName(u.Name), maxNameBytes)
		if md {
			name = escapeInline(name)
		}
		parts = append(parts, fmt.Sprintf("%s counted %s instructions/op in %s/op natively (%.2g an ns)",
			name, FormatCount(u.InstructionsPerOp), strings.TrimSpace(FormatNs(u.NativeNsPerOp)), u.PerNs()))
	}
	if rest := len(us) - len(parts); rest > 0 {
		parts = append(parts, human.Plural(rest, "other", "others"))
	}
	flag := "--metric time"
	if md {
		flag = "`" + flag + "`"
	}
	return fmt.Sprintf("⚠️ Counting saw little of the time of %s: %s. CPU-bound code counts %g or more instructions per nanosecond of its native time; "+
		"the rest of these operations' time is waiting (sleep, locks, other threads), the kernel or memory, which only a clock sees, "+
		"so a pass on them says only that their counted work did not grow. Time them with %s.",
		human.Plural(len(us), "benchmark", "benchmarks"), strings.Join(parts, "; "), results.MinCountedPerNs, flag)
}

// serialSentence says which counted benchmarks call RunParallel
// (results.Results.Serial): their counts are their serial work; "" when
// none. With md the names are escaped for Markdown.
func serialSentence(keys []string, md bool) string {
	if len(keys) == 0 {
		return ""
	}
	var names []string
	for _, k := range keys[:min(len(keys), maxUnseenNamed)] {
		name := elide(ShortName(k), maxNameBytes)
		if md {
			name = escapeInline(name)
		}
		names = append(names, name)
	}
	if rest := len(keys) - len(names); rest > 0 {
		names = append(names, human.Plural(rest, "other", "others"))
	}
	return fmt.Sprintf("Counted one goroutine at a time: %s %s b.RunParallel, and Valgrind runs one thread at a time, so %s count is %s serial work: "+
		"parallel speed-up and contention (locks, shared cache lines) only a clock sees.",
		strings.Join(names, ", "), pick(len(keys) == 1, "calls", "call"), pick(len(keys) == 1, "its", "their"), pick(len(keys) == 1, "its", "their"))
}

// countNotes are what a counted run's report says beside its table: the
// CPU features counting lacked (with c; nil leaves them to
// countedSentence), the benchmarks whose counts explain little of their
// time, and those counted serially.
func countNotes(c *results.Counter, unseen []results.Unseen, serial []string, md bool) []string {
	var out []string
	for _, s := range []string{lacksSentence(c), unseenSentence(unseen, md), serialSentence(serial, md)} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
