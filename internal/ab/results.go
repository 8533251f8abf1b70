package ab

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
	"github.com/wirebench/wirebench/internal/worker"
)

// series is the paired timings of the tasks in m: worker other against
// the base, visit by visit, with the generation of each visit. The head
// (other == wHead) is compared with both base workers when the visit has
// the A/A check's (see reference): the noise of the reference then counts
// half for each of two blocks and two processes instead of once for one,
// which measured on the test machine took a tenth to a third off the
// variance of the log ratios (0.69-0.88 of it in four A/A runs of the
// default suite) and, if the offsets between generations are the
// processes', takes a quarter off those. The A/A check (other == wBase2)
// stays the second base worker against the first.
func (r *run) series(m *measurement, other int) []series {
	ss := make([]series, len(r.tasks))
	for i, t := range r.tasks {
		s := series{name: r.names[t.bench], base: make([]float64, 0, len(m.visits[i])), other: make([]float64, 0, len(m.visits[i]))}
		for j, v := range m.visits[i] {
			if v[other].Iterations == 0 {
				continue // a visit of a generation without that worker
			}
			s.base, s.other = append(s.base, reference(v, other)), append(s.other, v[other].NsPerOp())
			s.gen = append(s.gen, m.gens[i][j])
		}
		ss[i] = s
	}
	return ss
}

// reference is the base's time per operation that v's block of worker
// other is compared with: for the head, the geometric mean of both base
// workers' blocks (adjacent in time, of the same build) when v has the
// second one's; else the base's block.
func reference(v visit, other int) float64 {
	b := v[wBase].NsPerOp()
	if other == wHead && v[wBase2].Iterations > 0 {
		return math.Sqrt(b * v[wBase2].NsPerOp())
	}
	return b
}

// results turns one worker's blocks in m, the main phase, into results:
// per benchmark one sample of each metric per visit, the encoded size for
// serialize benchmarks. Task i measured benchmark i.
func (r *run) results(h worker.Hello, m *measurement, sizes []int, w int) *results.Results {
	res := results.New(h.Suite, h.Env)
	res.Settings = results.Settings{Budget: r.opts.Budget, Seed: r.opts.Seed, Source: "wirebench ab", Elapsed: time.Since(r.start)}
	for i, key := range r.names {
		pkg, name := results.SplitKey(key)
		codec, dataset, op := results.NameParts(name)
		b := results.Benchmark{Pkg: pkg, Name: name, Codec: codec, Dataset: dataset, Op: op}
		for _, v := range m.visits[i] {
			b.Iterations = append(b.Iterations, int64(v[w].Iterations))
			b.Add(results.UnitNsPerOp, v[w].NsPerOp())
		}
		for _, v := range m.visits[i] {
			b.Add(results.UnitBytesPerOp, v[w].BytesPerOp())
		}
		for _, v := range m.visits[i] {
			b.Add(results.UnitAllocsPerOp, v[w].AllocsPerOp())
		}
		for _, unit := range metricUnits(m.visits[i], w) {
			for _, v := range m.visits[i] {
				if x, ok := v[w].Metrics[unit]; ok {
					b.Add(unit, x)
				}
			}
		}
		if op == results.OpSerialize && sizes[i] > 0 && b.Metric(results.UnitBytesPerMsg) == nil {
			b.Add(results.UnitBytesPerMsg, float64(sizes[i]))
		}
		res.Settings.Rounds = max(res.Settings.Rounds, len(m.visits[i]))
		if len(b.Iterations) > 0 {
			res.Benchmarks = append(res.Benchmarks, b)
		}
	}
	return res
}

// metricUnits are the units beyond time and allocations that worker w
// reported in visits (b.ReportMetric), sorted.
func metricUnits(visits []visit, w int) []string {
	seen := map[string]bool{}
	for _, v := range visits {
		for u := range v[w].Metrics {
			seen[u] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// sameRunnerShift is the geometric mean of the timing ratios, for
// reference only: both builds ran on one machine, so there is no machine
// difference to separate from the change.
func sameRunnerShift(cs []compare.Comparison, confidence float64) *compare.Shift {
	var ratios []float64
	for _, c := range cs {
		if c.Ratio > 0 && !math.IsInf(c.Ratio, 0) {
			ratios = append(ratios, c.Ratio)
		}
	}
	if len(ratios) == 0 {
		return nil
	}
	s := &compare.Shift{N: len(ratios), Estimate: ratios[0], Lo: math.NaN(), Hi: math.NaN(),
		Reason: "same-runner A/B: both builds ran on this machine at the same time, so there is no machine difference to separate"}
	if len(ratios) >= 2 {
		if g, err := stats.GeoMean(ratios, confidence); err == nil {
			s.Estimate, s.Lo, s.Hi = g.Estimate, g.Lo, g.Hi
		}
	}
	return s
}
