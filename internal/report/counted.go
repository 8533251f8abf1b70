package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// Counted runs: what was counted and how, and what counting cannot see,
// shared by the Markdown and text reports.

// counted reports whether r compared counted metrics.
func counted(r *compare.Result) bool { return judge(r).counts.n > 0 }

// countBlind is what instructions and simulated cycles do not see.
const countBlind = "time in the kernel and I/O, waiting (locks, channels, sleep), real caches and memory bandwidth (simulated cycles only approximate them), branch prediction, parallel speed-up (Valgrind runs one thread at a time) and the collector's pacing (when it starts, its assists, its marking beside the code)"

// collectorSentence says what gc-instructions/op holds, for a run that
// counted it: the collector is off in a counted block.
const collectorSentence = "The collector is off in a counted block (the heap collected before each); its work is counted apart, as " + results.UnitGCInstructionsPerOp +
	": one collection counted at the end of each block's timed run (marking what the run keeps reachable, sweeping what it allocated), once every heap room's worth of the bytes an operation allocates at the process's GOGC, and gated like a count. "

// countedSentence says what a counted comparison counted, how, what
// counting cannot see, and how long it took (elapsed, 0 when not known);
// "" when the candidate was not counted, or nothing was (every package
// identical: the identical sentence says why).
func countedSentence(r *compare.Result, elapsed time.Duration) string {
	c := r.Counter
	if c == nil || (len(r.Comparisons) == 0 && r.IdenticalCount() > 0) {
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
	fmt.Fprintf(&b, "%s: %s under Valgrind's callgrind %s, %s, in %s of %s%s, %s; a process's blocks reduce to their median, and the processes are the replicates%s. A count does not move with what else runs on the machine. ",
		pick(r.Clock == nil, "Counted, not timed", "Counted"), units, c.Version, cache, human.Plural(c.Processes, "process", "processes"), who, stagesText(c), methodText(c.Method), pairingText(r))
	if s := budgetSentence(c); s != "" {
		b.WriteString(s + " ")
	}
	if hasUnit(r, results.UnitGCInstructionsPerOp) {
		b.WriteString(collectorSentence)
	}
	fmt.Fprintf(&b, "Counting cannot see %s. ", countBlind)
	if k := r.Clock; k != nil && k.History {
		fmt.Fprintf(&b, "So this run was also timed natively, the wall-time check (%s of a %s budget, %s, judged against the baseline's history of wall times as a timed check is, a regression confirmed in a new process): "+
			"a wall time beyond ±%s fails the run even when the count did not move. Its floor is wide because another binary's code layout alone moves a benchmark's time by up to about 10%%, which no count sees",
			k.Elapsed.Round(time.Second), k.Budget.Round(time.Second), human.Plural(k.Rounds, "round", "rounds"), human.Percent(k.Threshold))
	} else if k != nil {
		fmt.Fprintf(&b, "So both builds were also timed natively, the wall-time check (%s of a %s budget, %s in %s of workers, base and head alternating in short blocks, with an A/A check): "+
			"a wall time beyond ±%s fails the run even when the count did not move. Its floor is wide because another binary's code layout alone moves a benchmark's time by up to about 10%%, which no count sees",
			k.Elapsed.Round(time.Second), k.Budget.Round(time.Second), human.Plural(k.Rounds, "round", "rounds"), human.Plural(k.Generations, "generation", "generations"), human.Percent(k.Threshold))
	} else {
		b.WriteString("Wall time was not compared (it was taken natively only to size the blocks and to see how much of each operation's time the count explains)")
	}
	if elapsed > 0 {
		fmt.Fprintf(&b, "; counting took %s", elapsed.Round(time.Second))
	}
	b.WriteString(".")
	if s := lacksSentence(c); s != "" {
		b.WriteString(" " + s)
	}
	return b.String()
}

// maxPatchesBytes bounds what patchesSentence quotes of a build's
// patches: far above what wirebench writes.
const maxPatchesBytes = 400

// unpairedCost is what testing counts unpaired costs, as measured
// (docs/lab/counted-pairs.md, "Go releases": docs/experiments/goreleases.sh,
// 2026-12-07; the manual's section, docs/counted.md, "Go releases",
// which the sentence cites, quotes these figures).
const unpairedCost = "unpaired, a count's interval spans the spread between processes that their random state makes (map orders, hash seeds, random draws), which pairing cancels: " +
	"a small module's four benchmarks, counted A/A, could detect a median change of 0.69-0.97% (worst 1.4-3.1%) in 6 runs unpaired on go1.25, " +
	"against 0.02-0.16% (worst 0.05-0.62%) in 12 paired on go1.26 and go1.27 (docs/counted.md, \"Go releases\")"

// patchesSentence says, for a counted comparison some of whose counts
// were not paired by seed, whose processes were not seeded because the
// toolchain that built them did not take wirebench's runtime seed patch,
// which patches did not apply (results.Counter.Patches), and what that
// costs; "" when every count paired, or no unseeded side's build said
// what was patched (the embedded suite's worker, never seeded, or a
// build recorded before), in the style st.
func patchesSentence(r *compare.Result, st style) string {
	paired, tested := pairing(r.Comparisons)
	if tested == 0 || paired == tested {
		return ""
	}
	base, head := "baseline", "candidate"
	if r.Method == compare.MethodCounted {
		base, head = "base", "head"
	}
	var parts []string
	for _, side := range []struct {
		name string
		c    *results.Counter
		env  results.Env
	}{{base, r.BaselineCounter, r.BaselineEnv}, {head, r.Counter, r.CandidateEnv}} {
		if side.c == nil || side.c.Patches == "" || side.c.Random == results.SeededRandom {
			continue
		}
		said := st.text(Elide(side.c.Patches, maxPatchesBytes))
		if side.env.GoVersion != "" {
			said = st.text(Elide(side.env.GoVersion, 60)) + "; " + said
		}
		parts = append(parts, fmt.Sprintf("the %s's processes were not seeded (%s)", side.name, said))
	}
	if len(parts) == 0 {
		return ""
	}
	how := "so the counts were tested by Welch's t-test, not pair by pair"
	if paired > 0 {
		how = fmt.Sprintf("so %d of %d counts were tested by Welch's t-test, not pair by pair", tested-paired, tested)
	}
	return fmt.Sprintf("Not paired by seed: %s, %s: %s.", strings.Join(parts, "; "), how, unpairedCost)
}

// stagesText says how many benchmarks a staged count settled after its
// first processes (results.Counter.First) and how many it counted beyond
// the plan (results.Counter.Further), "" when neither.
func stagesText(c *results.Counter) string {
	var parts []string
	if c.First > 0 && c.Settled > 0 {
		parts = append(parts, fmt.Sprintf("%s settled after %d, %s %s interval inside the floor or clear of it, and counted no further but to confirm a change",
			human.Plural(c.Settled, "benchmark", "benchmarks"), c.First, pick(c.Settled == 1, "its", "their"), human.Percent(compare.SettleConfidence)))
	}
	if c.Further > 0 {
		parts = append(parts, fmt.Sprintf("%s counted in %d more, %s interval still straddling the floor after %d",
			human.Plural(c.Further, "benchmark", "benchmarks"), c.Processes, pick(c.Further == 1, "its", "their"), c.Processes))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// budgetSentence says that a count's plan was cut for a budget
// (results.Counter.Budget), and to what; "" when it was not.
func budgetSentence(c *results.Counter) string {
	if c == nil || c.Budget <= 0 {
		return ""
	}
	return fmt.Sprintf("The count was cut for the budget (%s), expected to take about %s: %s a benchmark in each of %s (fewer processes give wider intervals).",
		c.Budget, c.Estimate.Round(time.Second), human.Plural(c.Blocks, "block", "blocks"), human.Plural(c.Processes, "process", "processes"))
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

// pairing is how many of the counted comparisons in cs were tested
// paired by seed (compare.TestPairedT), of all counted ones with a test.
func pairing(cs []compare.Comparison) (paired, tested int) {
	for _, c := range cs {
		if c.Counted() {
			tested++
			if c.Test == compare.TestPairedT {
				paired++
			}
		}
	}
	return paired, tested
}

// pairingText is the end of the sentence on the replicates: how the
// processes were tested, paired by seed or not, and what spread between
// processes the pairing left.
func pairingText(r *compare.Result) string {
	paired, tested := pairing(r.Comparisons)
	switch {
	case tested == 0 || paired == 0:
		return " of Welch's t-test"
	case paired < tested:
		return fmt.Sprintf(": process k of each build had seed k (the same order of benchmarks, and the same random state where the worker could set it), so %d of %d counts were tested pair by pair (paired t-test, %s), the others by Welch's t-test",
			paired, tested, spreadText(r))
	}
	return fmt.Sprintf(": process k of each build had seed k (the same order of benchmarks, and the same random state where the worker could set it), so the counts were tested pair by pair (paired t-test, %s)", spreadText(r))
}

// spreadText says, for the paired counts of the unit r gates on, the
// median spread between processes and what remained of it within pairs.
func spreadText(r *compare.Result) string {
	var all, within []float64
	for _, c := range gatingCounts(r) {
		if c.Test == compare.TestPairedT {
			all, within = append(all, c.Spread), append(within, c.PairSpread)
		}
	}
	if len(all) == 0 {
		return "no gating unit paired"
	}
	a, _ := stats.Median(all)
	w, _ := stats.Median(within)
	return fmt.Sprintf("median spread between processes %s, within pairs %s", spreadPercent(a), spreadPercent(w))
}

// spreadPercent is a relative spread in percent, to two significant
// digits below 1%.
func spreadPercent(s float64) string {
	switch {
	case s == 0:
		return "0"
	case s >= 0.01:
		return fmt.Sprintf("%.1f%%", 100*s)
	case s >= 0.0001:
		return fmt.Sprintf("%.3f%%", 100*s)
	}
	return fmt.Sprintf("%.4f%%", 100*s)
}

// changedRule is the summary's sentence on what makes a speed metric
// change: the timings' test, or for counted runs Welch's, or both with
// the wall-time check's floor.
func changedRule(r *compare.Result) string {
	o := r.Options
	test := "Welch's t-test"
	if paired, tested := pairing(r.Comparisons); paired > 0 {
		test = pick(paired == tested, "the paired t-test", "the paired t-test (Welch's where processes did not pair)")
	}
	count := fmt.Sprintf("A count changed when %s on the processes' log counts is significant (%s p < %g) **and** the change is beyond ±%s; intervals are %s. ",
		test, correctionText(o.Correction), o.Alpha, human.Percent(o.Threshold), human.Percent(o.Confidence))
	switch {
	case r.Clock != nil:
		return count + fmt.Sprintf("A wall time changed when %s is significant (%s p < %g over the timings) **and** the change is beyond ±%s. ",
			timingTest(r), correctionText(o.Correction), o.Alpha, human.Percent(r.Clock.Threshold))
	case counted(r) && judge(r).timings.n == 0:
		return count
	}
	return fmt.Sprintf("A timing counts as changed when %s is significant (%s p < %g) **and** the change is beyond ±%s; intervals are %s. ",
		timingTest(r), correctionText(o.Correction), o.Alpha, human.Percent(o.Threshold), human.Percent(o.Confidence))
}

// ruleLine is the text report's line on what makes a metric change.
func ruleLine(r *compare.Result) string {
	o := r.Options
	if k := r.Clock; k != nil {
		return fmt.Sprintf("(counts: %s p < %g and beyond ±%s; wall time: %s p < %g and beyond ±%s; %s intervals; exact metrics: %s of size or allocations fails)",
			correctionText(o.Correction), o.Alpha, human.Percent(o.Threshold), correctionText(o.Correction), o.Alpha, human.Percent(k.Threshold),
			human.Percent(o.Confidence), exactRule(o))
	}
	return fmt.Sprintf("(%ss: %s p < %g and beyond ±%s, %s intervals; exact metrics: %s of size or allocations fails)",
		speedWord(r), correctionText(o.Correction), o.Alpha, human.Percent(o.Threshold), human.Percent(o.Confidence), exactRule(o))
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
// verdicts, in the style st; "" when there are none.
func unseenSentence(us []results.Unseen, clock *compare.Clock, st style) string {
	if len(us) == 0 {
		return ""
	}
	var parts []string
	for _, u := range us[:min(len(us), maxUnseenNamed)] {
		name := st.text(Elide(ShortName(u.Name), maxNameBytes))
		parts = append(parts, fmt.Sprintf("%s counted %s instructions/op in %s/op natively (%.2g an ns)",
			name, FormatCount(u.InstructionsPerOp), strings.TrimSpace(FormatNs(u.NativeNsPerOp)), u.PerNs()))
	}
	if rest := len(us) - len(parts); rest > 0 {
		parts = append(parts, human.Plural(rest, "other", "others"))
	}
	s := fmt.Sprintf("Counting saw little of the time of %s: %s. CPU-bound code counts %g or more instructions per nanosecond of its native time; "+
		"the rest of these operations' time is waiting (sleep, locks, other threads), the kernel or memory, which only a clock sees",
		human.Plural(len(us), "benchmark", "benchmarks"), strings.Join(parts, "; "), results.MinCountedPerNs)
	if clock != nil {
		return s + fmt.Sprintf(": the wall-time check timed them, so a change of their time beyond ±%s fails the run whatever their count did.", human.Percent(clock.Threshold))
	}
	return "⚠️ " + s + fmt.Sprintf(", so a pass on them says only that their counted work did not grow. Time them with %s.", st.code("--metric time"))
}

// serialSentence says which counted benchmarks call RunParallel
// (results.Results.Serial): their counts are their serial work; "" when
// none; in the style st.
func serialSentence(keys []string, clock *compare.Clock, st style) string {
	if len(keys) == 0 {
		return ""
	}
	var names []string
	for _, k := range keys[:min(len(keys), maxUnseenNamed)] {
		names = append(names, st.text(Elide(ShortName(k), maxNameBytes)))
	}
	if rest := len(keys) - len(names); rest > 0 {
		names = append(names, human.Plural(rest, "other", "others"))
	}
	s := fmt.Sprintf("Counted one goroutine at a time: %s %s b.RunParallel, and Valgrind runs one thread at a time, so %s count is %s serial work: "+
		"parallel speed-up and contention (locks, shared cache lines) only a clock sees",
		strings.Join(names, ", "), pick(len(keys) == 1, "calls", "call"), pick(len(keys) == 1, "its", "their"), pick(len(keys) == 1, "its", "their"))
	if clock != nil {
		return s + "; the wall-time check timed " + pick(len(keys) == 1, "it", "them") + " on every CPU, as go test runs " + pick(len(keys) == 1, "it", "them") + "."
	}
	return s + "."
}

// countNotes are what a counted run's report says beside its table: the
// CPU features counting lacked (with c; nil leaves them to
// countedSentence), the benchmarks whose counts explain little of their
// time, and those counted serially, and what the wall-time check beside
// the count (clock, nil when none) made of both; in the style st.
func countNotes(c *results.Counter, unseen []results.Unseen, serial []string, clock *compare.Clock, st style) []string {
	var out []string
	for _, s := range []string{budgetSentence(c), lacksSentence(c), unseenSentence(unseen, clock, st), serialSentence(serial, clock, st)} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// gatingCounts are r's counted comparisons of the unit it gates on,
// ordered as compare.Sort orders them.
func gatingCounts(r *compare.Result) []compare.Comparison {
	unit := cmp.Or(r.Options.CountedUnit, results.UnitInstructionsPerOp)
	var cs []compare.Comparison
	for _, c := range r.Comparisons {
		if c.Counted() && c.Unit == unit {
			cs = append(cs, c)
		}
	}
	compare.Sort(cs)
	return cs
}

// spreadSection is the collapsed table of how each benchmark's counts
// were tested: paired by seed or not, on how many processes, the spread
// between processes and what remained of it within pairs, and the change
// the test could detect. The widest spreads are kept first when the
// comment must shrink.
func spreadSection(d *document, r *compare.Result, details string) {
	cs := gatingCounts(r)
	if len(cs) == 0 {
		return
	}
	var gc []compare.Comparison
	for _, c := range r.Comparisons {
		if c.Counted() && c.Unit == results.UnitGCInstructionsPerOp {
			gc = append(gc, c)
		}
	}
	compare.Sort(gc)
	t := &table{
		head: "| Benchmark | Test | Processes | Spread between processes | Within pairs | Could detect |\n|:--|:--|--:|--:|--:|--:|\n",
		more: moreRows(details),
	}
	for _, c := range slices.Concat(cs, gc) {
		test, procs, within := "Welch's t", fmt.Sprintf("%d+%d", c.Baseline.N, c.Candidate.N), "–"
		if c.Test == compare.TestPairedT {
			test, procs, within = "paired t", human.Plural(c.Pairs, "pair", "pairs"), spreadPercent(c.PairSpread)
		}
		name := CellName(c.Name)
		if c.Unit == results.UnitGCInstructionsPerOp {
			name += " (" + c.Unit + ")"
		}
		t.rows = append(t.rows, row{
			text: fmt.Sprintf("| %s | %s | %s | %s | %s | %s |\n", name, test, procs, spreadPercent(c.Spread), within, mdeText(c.MDE)),
			tier: tierAllSame, mag: max(c.Spread, c.PairSpread),
		})
	}
	summary := fmt.Sprintf("How each count was tested: Welch's t-test on %s", human.Plural(len(cs), "benchmark", "benchmarks"))
	if paired, _ := pairing(cs); paired > 0 {
		summary = fmt.Sprintf("How each count was tested: %s of %s paired by seed", human.Count(paired), human.Plural(len(cs), "benchmark", "benchmarks"))
	}
	d.add(detailsOpen(summary) +
		"The spread is the standard deviation of the processes' log counts (relative); within pairs, of a pair's difference over √2: what the paired test sees. " +
		"A benchmark whose pairs differ about as much as any two processes meets inputs the seed does not fix.\n\n")
	d.addTable(t)
	if s := unpairedSentence(cs, r.Options.Threshold); s != "" {
		d.add(s + "\n\n")
	}
	d.add(detailsClose)
}

// unpairedSentence names the benchmarks of cs (counts of the gating
// unit) whose pairs differed about as much as any two processes (the
// spread within pairs at least half that between processes) where that
// mattered (they could not detect a tenth of the threshold), with the
// functions whose cost varied most between the candidate's processes:
// what the seed did not fix. "" when there are none.
func unpairedSentence(cs []compare.Comparison, threshold float64) string {
	var parts []string
	for _, c := range cs {
		if c.Test != compare.TestPairedT || c.PairSpread < c.Spread/2 || !(c.MDE >= threshold/10) {
			continue
		}
		part := fmt.Sprintf("%s (within pairs %s, between processes %s", CellName(c.Name), spreadPercent(c.PairSpread), spreadPercent(c.Spread))
		if len(c.Varying) > 0 {
			fns := make([]string, len(c.Varying))
			for i, f := range c.Varying {
				fns[i] = fmt.Sprintf("%s ±%s", codeName(Elide(callgrind.FuncName(f.Name), maxNameBytes)), FormatCount(f.Instructions))
			}
			part += "; varying most between processes, per operation: " + strings.Join(fns, ", ")
		}
		parts = append(parts, part+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return "Pairs differed about as much as any two processes in " + strings.Join(parts, "; ") + ": the seed does not fix what varies there, so its interval is as wide as an unpaired test's."
}

// hasUnit reports whether r compared some benchmark's unit.
func hasUnit(r *compare.Result, unit string) bool {
	return slices.ContainsFunc(r.Comparisons, func(c compare.Comparison) bool { return c.Unit == unit })
}
