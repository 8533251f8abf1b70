package compare

import (
	"slices"

	"github.com/wirebench/wirebench/internal/results"
)

// pair is one benchmark and unit measured by both runs: the baseline's
// samples b, the candidate's c, the iteration counts behind each side's
// samples (bn, cn: in sample order, nil when not recorded), the seeds of
// the processes behind them (bs, cs: likewise), and the shard that
// measured the candidate's (0 unless it was merged from shards).
type pair struct {
	name, unit string
	b, c       []float64
	bn, cn     []int64
	bs, cs     []uint64
	shard      int
}

// pairUp pairs the benchmarks and units of base and cand, in the
// candidate's order, and records in r the benchmarks that do not pair:
// those only in the candidate (New), only in the baseline (Missing), and
// those with no unit in common (UnitMismatch). MB/s is left out where
// ns/op is on both sides: it is derived from ns/op, and comparing it too
// would count one change twice.
func (r *Result) pairUp(base, cand *results.Results) []pair {
	base, cand = samePackages(base, cand)
	var pairs []pair
	for _, cb := range cand.Benchmarks {
		bb := base.Lookup(cb.Key())
		if bb == nil {
			r.New = append(r.New, cb.Key())
			continue
		}
		common := 0
		hasNs := cb.Metric(results.UnitNsPerOp) != nil && bb.Metric(results.UnitNsPerOp) != nil
		for _, m := range cb.Metrics {
			bv := bb.Metric(m.Unit)
			if bv == nil {
				continue
			}
			common++
			if m.Unit == results.UnitMBPerSec && hasNs {
				continue
			}
			if results.IsCounted(m.Unit) && troubled(base, cand, cb.Key()) {
				continue
			}
			pairs = append(pairs, pair{name: cb.Key(), unit: m.Unit, b: bv, c: m.Values,
				bn: iterationsOf(bb, len(bv)), cn: iterationsOf(&cb, len(m.Values)),
				bs: seedsOf(bb, len(bv)), cs: seedsOf(&cb, len(m.Values)), shard: cb.Shard})
		}
		if common == 0 {
			r.UnitMismatch = append(r.UnitMismatch, cb.Key())
		}
	}
	same := unmeasured(base, cand)
	medians := base.Medians()
	for _, bb := range base.Benchmarks {
		if cand.Lookup(bb.Key()) != nil {
			continue
		}
		if !same[bb.Pkg] {
			r.Missing = append(r.Missing, bb.Key())
			continue
		}
		i := slices.IndexFunc(r.Identical, func(id Identical) bool { return id.Package == bb.Pkg })
		if i < 0 {
			r.Identical = append(r.Identical, Identical{Package: bb.Pkg, Hash: cand.Hashes[bb.Pkg]})
			i = len(r.Identical) - 1
		}
		r.Identical[i].Benchmarks = append(r.Identical[i].Benchmarks, IdenticalBenchmark{Name: bb.Key(), Baseline: medians[bb.Key()]})
	}
	return pairs
}

// unmeasured is the packages cand did not measure because their hash is
// the one base recorded (results.Results.Unmeasured): the same test
// binary and files, so base's values stand for theirs.
func unmeasured(base, cand *results.Results) map[string]bool {
	same := map[string]bool{}
	for _, pkg := range cand.Unmeasured {
		if h := cand.Hashes[pkg]; h != "" && base.Hashes[pkg] == h {
			same[pkg] = true
		}
	}
	return same
}

// samePackages makes a run that names one package comparable with a run
// that names none (go test -bench output of one package against the
// embedded suite's results, which have no packages): their benchmarks
// then match by name alone. Otherwise benchmarks match by package and
// name, and the runs are returned as they are.
func samePackages(base, cand *results.Results) (*results.Results, *results.Results) {
	pb, pc := packages(base), packages(cand)
	if !(len(pb) == 1 && len(pc) == 1) || pb[0] == pc[0] || (pb[0] != "" && pc[0] != "") {
		return base, cand
	}
	return withoutPackages(base), withoutPackages(cand)
}

func packages(r *results.Results) []string {
	var out []string
	for _, b := range r.Benchmarks {
		if !slices.Contains(out, b.Pkg) {
			out = append(out, b.Pkg)
		}
	}
	return out
}

func withoutPackages(r *results.Results) *results.Results {
	c := *r
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		c.Benchmarks[i].Pkg = ""
	}
	return &c
}

// iterationsOf is b's iteration counts when they describe its n samples
// of a metric, nil otherwise (not recorded, or a metric of one value such
// as the encoded size).
func iterationsOf(b *results.Benchmark, n int) []int64 {
	if len(b.Iterations) != n {
		return nil
	}
	return b.Iterations
}

// seedsOf is b's seeds when there is one for each of its n samples, nil
// otherwise.
func seedsOf(b *results.Benchmark, n int) []uint64 {
	if len(b.Seeds) != n {
		return nil
	}
	return b.Seeds
}

// exampleName is a benchmark name of either run, for an error message
// that shows the names must match.
func exampleName(base, cand *results.Results) string {
	for _, r := range []*results.Results{base, cand} {
		if len(r.Benchmarks) > 0 {
			return r.Benchmarks[0].Name
		}
	}
	return "BenchmarkX"
}
