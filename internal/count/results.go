package count

import (
	"errors"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// results turns the processes' counts of one build into results: per
// benchmark one sample of every unit per process, its block size as the
// sample's iterations, the encoded size of serialize benchmarks, and the
// native time of an operation the calibration measured (what the count
// must explain: results.Unseen).
func (r *run) results(side string, b Build, cal *calibration, p *plan, procs []processCounts) *results.Results {
	h, sizes := cal.hello, cal.sizes
	res := results.New(h.Suite, h.Env)
	// The hello is the calibration's, run natively; every counted
	// process ran with GOMAXPROCS=1 (callgrind.Env).
	res.Env.GOMAXPROCS = 1
	method := results.CountBlock
	switch {
	case p.difference:
		method = results.CountDifference
	case p.warmed:
		method = results.CountTimer
	}
	way := r.way(side)
	stack := "" // the worker grows a benchmark's stack at its timer's start
	if p.warmed {
		stack = results.StackGrown
	}
	res.Settings = results.Settings{Seed: r.o.Seed, Source: "wirebench count", Elapsed: time.Since(r.start), Rounds: len(procs),
		Counter: &results.Counter{Tool: "callgrind", Version: r.o.Valgrind.Version, CacheSim: r.o.Callgrind.CacheSim,
			Geometry: r.o.Callgrind.Geometry(), Method: method, Processes: len(procs), Blocks: r.o.Blocks, Heap: way.Heap, Threads: way.Threads, CPU: way.CPU, Random: way.Random, Patches: b.Program.Patches(), MemProfile: callgrind.MemProfile, Stack: stack,
			Estimate: r.estimated, Budget: r.cutFor}}
	if cpu := res.Settings.Counter.CPU; cpu != "" && h.CPUID != nil {
		res.Settings.Counter.Lacks = callgrind.FeatureList(callgrind.Lacking(h.CPUID.Features(), strings.Fields(cpu)))
	}
	for _, t := range append(slices.Clone(cal.troubles), r.troublesOf(side)...) {
		res.AddTrouble(t)
	}
	for _, key := range p.names {
		if res.TroubleOf(key) != nil {
			continue // not counted in some process: its own row, no counts
		}
		pkg, name := results.SplitKey(key)
		codec, dataset, op := results.NameParts(name)
		b := results.Benchmark{Pkg: pkg, Name: name, Codec: codec, Dataset: dataset, Op: op, NativeNsPerOp: cal.nsPerOp[key], Parallel: cal.parallel[key]}
		units := map[string]bool{}
		for _, pc := range procs {
			if _, ok := pc.values[key]; !ok {
				continue // a process that did not count it (a costly benchmark's)
			}
			b.Iterations = append(b.Iterations, int64(p.iterations[key]))
			if s, ok := pc.seeds[key]; ok {
				b.Seeds = append(b.Seeds, s) // a process not seeded leaves the benchmark unpaired
			}
			for u := range pc.values[key] {
				units[u] = true
			}
		}
		for _, u := range orderedUnits(units) {
			for _, pc := range procs {
				if x, ok := pc.values[key][u]; ok {
					b.Add(u, x)
				}
			}
		}
		b.Profile = profile(key, procs)
		if unnamed(b.Profile) {
			r.noteProfile(key, errors.New("the binary has no symbol table (built with -ldflags=-s?), so its functions are named by their addresses"))
		}
		if op == results.OpSerialize && sizes[key] > 0 && b.Metric(results.UnitBytesPerMsg) == nil {
			b.Add(results.UnitBytesPerMsg, float64(sizes[key]))
		}
		res.Benchmarks = append(res.Benchmarks, b)
	}
	return res
}

// profile is where the work of the benchmark key went, over the
// processes that counted it: per function the median of its self cost
// per operation in each process (0 in a process it did not run in), as
// a process's count is one sample and the comparison's estimate is
// theirs. Processes whose profile could not be read are left out; nil
// when none could.
func profile(key string, procs []processCounts) *results.Profile {
	var profs []map[string]results.Cost
	for _, pc := range procs {
		if prof, ok := pc.profiles[key]; ok {
			profs = append(profs, prof)
		}
	}
	if len(profs) == 0 {
		return nil
	}
	fns := map[string]bool{}
	for _, prof := range profs {
		for fn := range prof {
			fns[fn] = true
		}
	}
	costs := make(map[string]results.Cost, len(fns))
	sd := make(map[string]results.Cost, len(fns))
	ir, cyc := make([]float64, len(profs)), make([]float64, len(profs))
	for fn := range fns {
		for i, prof := range profs {
			ir[i], cyc[i] = prof[fn].Instructions, prof[fn].EstCycles
		}
		mi, _ := stats.Median(ir)
		mc, _ := stats.Median(cyc)
		costs[fn] = results.Cost{Instructions: mi, EstCycles: mc}
		if len(profs) > 1 {
			sd[fn] = results.Cost{Instructions: stdDev(ir), EstCycles: stdDev(cyc)}
		}
	}
	p := results.NewProfile(costs)
	if p != nil {
		p.Varying = results.NewVarying(sd)
	}
	return p
}

// stdDev is the sample standard deviation of xs (at least two).
func stdDev(xs []float64) float64 {
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// unnamed reports whether most of p's instructions are in functions
// callgrind could only name by their address ("0x…"): a binary linked
// without its symbol table.
func unnamed(p *results.Profile) bool {
	if p == nil {
		return false
	}
	var named, all float64
	for _, f := range p.Functions {
		all += f.Instructions
		if !strings.HasPrefix(f.Name, "0x") {
			named += f.Instructions
		}
	}
	return all > 0 && named < all/2
}

// orderedUnits are the counted units first, then the allocations, then
// the rest sorted: the order tables show them in.
func orderedUnits(units map[string]bool) []string {
	var out []string
	for _, u := range []string{results.UnitInstructionsPerOp, results.UnitEstCyclesPerOp, results.UnitGCInstructionsPerOp, results.UnitBytesPerOp, results.UnitAllocsPerOp} {
		if units[u] {
			out = append(out, u)
			delete(units, u)
		}
	}
	rest := make([]string, 0, len(units))
	for u := range units {
		rest = append(rest, u)
	}
	slices.Sort(rest)
	return append(out, rest...)
}
