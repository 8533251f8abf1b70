package count

import (
	"cmp"
	"slices"

	"github.com/wirebench/wirebench/internal/results"
)

// plan is what every counted process of a run does: the benchmarks and
// their block sizes, and how a count per operation is made.
type plan struct {
	names      []string
	iterations map[string]int
	nsPerOp    map[string]float64
	// processes is how many processes count each benchmark: Processes,
	// or CostlyProcesses for a costly one.
	processes map[string]int
	// difference is set for workers whose blocks include a benchmark
	// function's own setup (worker.Hello.BlockSetup); warmed for those
	// whose blocks warm themselves up (worker.Hello.TimerHooks), which
	// need no uncounted iterations before them.
	difference, warmed bool
	// allocates are the benchmarks whose operations allocate (their
	// calibrated B/op above 0), counted in allocBlocks blocks when that
	// is more than the run's Blocks (blocksOf).
	allocates   map[string]bool
	allocBlocks int
}

// planFor is the counting plan of the benchmarks names of a build
// calibrated as cal: each benchmark's block size kept from
// Settings.Iterations, or sized from cal.
func (r *run) planFor(names []string, cal *calibration) *plan {
	if r.o.suiteBlocks && !cal.hello.TimerHooks {
		r.o.Blocks, r.o.Block, r.o.AllocBlocks, r.o.suiteBlocks = SuiteBlocks, SuiteBlock, max(r.o.AllocBlocks, SuiteBlocks), false
	}
	p := &plan{names: names, iterations: map[string]int{}, nsPerOp: map[string]float64{}, processes: map[string]int{},
		difference: cal.hello.BlockSetup, warmed: cal.hello.TimerHooks, allocates: map[string]bool{}, allocBlocks: r.o.AllocBlocks}
	for _, n := range names {
		p.nsPerOp[n] = cal.nsPerOp[n]
		p.allocates[n] = cal.bytesOp[n] > 0
		p.processes[n] = r.o.Processes
		if cal.nsPerOp[n] >= float64(r.o.Costly) {
			p.processes[n] = min(r.o.Processes, r.o.CostlyProcesses)
		}
		if k, ok := r.o.Iterations[n]; ok && k > 0 {
			p.iterations[n] = k
			continue
		}
		p.iterations[n] = r.o.blockSize(cal.nsPerOp[n], cal.bytesOp[n])
	}
	return p
}

// costly reports whether one operation of the benchmark name takes
// Costly natively or longer.
func (r *run) costly(p *plan, name string) bool {
	return p.nsPerOp[name] >= float64(r.o.Costly)
}

// cost is the native time of what a process with plan p counts, in
// nanoseconds: per benchmark its blocks and the uncounted one before
// them. Valgrind slows every benchmark by a similar factor, so it orders
// and balances processes.
func (p *plan) cost(blocks int) float64 {
	var c float64
	for _, n := range p.names {
		c += p.benchCost(n, blocks)
	}
	return c
}

// benchCost is the native time, in nanoseconds, of what a process counts
// of the benchmark name: its blocks (one when one operation fills a
// block; a pair of n and 2n iterations each for the difference method)
// and the uncounted iterations before them (warmup for a worker whose
// blocks follow the benchmark's timer).
func (p *plan) benchCost(name string, blocks int) float64 {
	n := p.iterations[name]
	blocks = p.blocksOf(name, blocks)
	per, pre := 1, n
	if p.difference {
		per = 3
	}
	if p.warmed {
		pre = 0
		if blocks == 1 {
			pre = warmup(n)
		}
	}
	return p.nsPerOp[name] * float64(n*per*blocks+pre)
}

// blocksOf is how many blocks a process counts the benchmark name in,
// when a run counts blocks a benchmark: one when one operation fills a
// block, allocBlocks for one that allocates when that is more. A
// benchmark that allocates nothing counts the same to the instruction
// in every block of a seed's processes (msgpack/v5's, measured); one
// that allocates moves by the page allocator's work, which the median
// of three blocks holds down (docs/design/counted-stages.md, "Where a
// count's time goes").
func (p *plan) blocksOf(name string, blocks int) int {
	switch {
	case p.iterations[name] <= 1:
		return 1
	case p.allocates[name]:
		return max(blocks, p.allocBlocks)
	}
	return blocks
}

// testRequests is how many counted requests a process with plan p makes
// of a go test benchmark's worker (its blocks, two a block for the
// difference method); 0 for the embedded suite's worker, whose requests
// cost no more than their work.
func (p *plan) testRequests(blocks int) int {
	if !p.difference && !p.warmed {
		return 0
	}
	n := 0
	for _, name := range p.names {
		b := p.blocksOf(name, blocks)
		if p.difference {
			b *= 2
		}
		n += b
	}
	return n
}

// split is p's benchmarks in at most k plans of about equal cost, the
// costliest benchmark first into the plan with the least so far; a plan
// that would be empty is left out, and the names keep p's order.
func (p *plan) split(k, blocks int) []*plan {
	if k <= 1 || len(p.names) <= 1 {
		return []*plan{p}
	}
	byCost := slices.Clone(p.names)
	slices.SortStableFunc(byCost, func(a, b string) int { return cmp.Compare(p.benchCost(b, blocks), p.benchCost(a, blocks)) })
	sums := make([]float64, k)
	part := map[string]int{}
	for _, n := range byCost {
		i := slices.Index(sums, slices.Min(sums))
		part[n] = i
		sums[i] += p.benchCost(n, blocks)
	}
	var out []*plan
	for i := range k {
		var names []string
		for _, n := range p.names {
			if part[n] == i {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			out = append(out, p.only(names))
		}
	}
	return out
}

// byPackage is p's benchmarks in one plan per package (results.Key), in
// the order of their first benchmark: each a process of its own, a test
// binary's, so that a process starts the one binary it counts and no
// more processes are alive than run at once.
func (p *plan) byPackage() []*plan {
	var pkgs []string
	names := map[string][]string{}
	for _, n := range p.names {
		pkg, _ := results.SplitKey(n)
		if _, ok := names[pkg]; !ok {
			pkgs = append(pkgs, pkg)
		}
		names[pkg] = append(names[pkg], n)
	}
	out := make([]*plan, 0, len(pkgs))
	for _, pkg := range pkgs {
		out = append(out, p.only(names[pkg]))
	}
	return out
}

// forProcess is the plan of process k (from 0): the benchmarks counted in
// more than k processes.
func (p *plan) forProcess(k int) *plan {
	var names []string
	for _, n := range p.names {
		if p.processes[n] > k {
			names = append(names, n)
		}
	}
	return p.only(names)
}

// withBuild is p for the build whose own plan is b: p's benchmarks, block
// sizes and blocks, b's costs and way of counting.
func (p *plan) withBuild(b *plan) *plan {
	q := *b
	q.names, q.iterations, q.processes, q.allocates, q.allocBlocks = p.names, p.iterations, p.processes, p.allocates, p.allocBlocks
	return &q
}

// only is the plan for the benchmarks names of p alone.
func (p *plan) only(names []string) *plan {
	q := *p
	q.names = nil
	for _, n := range p.names {
		if slices.Contains(names, n) {
			q.names = append(q.names, n)
		}
	}
	return &q
}
