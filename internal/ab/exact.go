package ab

import (
	"fmt"
	"slices"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// dominantShare is the share of blocks that must agree for an allocation
// metric to count as deterministic. A block right after a collection can
// allocate a few objects more (pools refill), so not every block agrees.
const dominantShare = 0.9

// maxNoisyAllocSamples bounds the samples of an allocation metric that
// varies, compared by compare's unpaired test.
const maxNoisyAllocSamples = 500

// exactComparison compares the metrics that need no test: the encoded
// size, and the allocations per operation (and any unit a benchmark
// reported with b.ReportMetric) of every benchmark, each side's value
// being the one (nearly) every block agreed on: both builds ran the same
// iteration counts, so a value every block agrees on is the code's, not
// the count's. Metrics that really vary are left to compare's unpaired
// test, on a thinned sample.
func exactComparison(base, head *results.Results, opts compare.Options) (*compare.Result, error) {
	bv, hv := results.New(base.Suite, base.Env), results.New(head.Suite, head.Env)
	for _, hb := range head.Benchmarks {
		bb := base.Lookup(hb.Key())
		if bb == nil {
			continue
		}
		x := results.Benchmark{Pkg: hb.Pkg, Name: hb.Name, Codec: hb.Codec, Dataset: hb.Dataset, Op: hb.Op}
		y := x
		for _, m := range hb.Metrics {
			unit := m.Unit
			if unit == results.UnitNsPerOp || unit == results.UnitBytesPerMsg {
				continue
			}
			b, h := bb.Metric(unit), hb.Metric(unit)
			if len(b) == 0 || len(h) == 0 {
				continue
			}
			db, okb := dominant(b)
			dh, okh := dominant(h)
			if okb && okh {
				x.Metrics = append(x.Metrics, results.Metric{Unit: unit, Values: []float64{db}})
				y.Metrics = append(y.Metrics, results.Metric{Unit: unit, Values: []float64{dh}})
				continue
			}
			x.Metrics = append(x.Metrics, results.Metric{Unit: unit, Values: thin(b, maxNoisyAllocSamples)})
			y.Metrics = append(y.Metrics, results.Metric{Unit: unit, Values: thin(h, maxNoisyAllocSamples)})
		}
		if v := bb.Metric(results.UnitBytesPerMsg); len(v) > 0 {
			x.Metrics = append(x.Metrics, results.Metric{Unit: results.UnitBytesPerMsg, Values: v[:1]})
		}
		if v := hb.Metric(results.UnitBytesPerMsg); len(v) > 0 {
			y.Metrics = append(y.Metrics, results.Metric{Unit: results.UnitBytesPerMsg, Values: v[:1]})
		}
		bv.Benchmarks = append(bv.Benchmarks, x)
		hv.Benchmarks = append(hv.Benchmarks, y)
	}
	o := opts
	o.Normalize = compare.NormalizeNever
	res, err := compare.Compare(bv, hv, o)
	if err != nil {
		return nil, fmt.Errorf("compare the exact metrics: %w", err)
	}
	res.Options = opts
	res.Gate = nil // the stored baseline's history gate: no part of a same-runner comparison
	return res, nil
}

// dominant returns the most frequent value of v and whether at least
// dominantShare of the values are that one.
func dominant(v []float64) (float64, bool) {
	count := map[float64]int{}
	best, bestN := 0.0, 0
	for _, x := range v {
		count[x]++
		if c := count[x]; c > bestN || (c == bestN && x < best) {
			best, bestN = x, c
		}
	}
	return best, float64(bestN) >= dominantShare*float64(len(v))
}

// thin returns at most k values of v, evenly spaced.
func thin(v []float64, k int) []float64 {
	if len(v) <= k {
		return slices.Clone(v)
	}
	out := make([]float64, k)
	for i := range out {
		out[i] = v[i*len(v)/k]
	}
	return out
}
