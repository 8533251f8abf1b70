package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// Shift is the machine's global speed shift between the runs: the
// geometric mean of all timing ratios, with its interval, or, when timings
// are judged against the baseline's history, their median (Median).
type Shift struct {
	Estimate, Lo, Hi float64
	N                int // timings it was computed from
	// Median is set when Estimate is the median of the timing ratios,
	// with its order-statistic interval (see historyShifts).
	Median bool
	// Applied says whether timings were judged against it, and Reason why
	// (or why not).
	Applied bool
	Reason  string
}

// ShardShift is one shard's speed shift.
type ShardShift struct {
	Shard int
	Shift Shift
}

// machineFields are the environment fields that describe the machine, not
// the code: a change in them moves every timing alike. Go and library
// versions are code changes a pull request may make on purpose, so they are
// reported but never normalised away.
var machineFields = map[string]bool{"machine": true, "cpu": true, "goos/goarch": true, "GOMAXPROCS": true}

// splitDiff separates the machine differences between two environments
// from the others (Go and library versions).
func splitDiff(base, cand results.Env) (machine, other []results.Difference) {
	for _, d := range base.Diff(cand) {
		if machineFields[d.Field] {
			machine = append(machine, d)
		} else {
			other = append(other, d)
		}
	}
	return machine, other
}

// speedShifts estimates the machine's speed shift for each machine that
// measured the candidate's timings: the candidate's, or each shard's when
// the candidate was merged from the shards of a matrix (each shard ran on
// its own runner). It sets r.Shift, and r.ShardShifts for merged
// candidates, and returns the shifts by shard (0 when not merged), none
// for a shard without timings.
func (r *Result) speedShifts(base, cand *results.Results, ns []noisy, opts Options) map[int]*Shift {
	byShard := map[int][]noisy{}
	for _, n := range ns {
		byShard[n.p.shard] = append(byShard[n.p.shard], n)
	}
	shifts := map[int]*Shift{}
	for shard, group := range byShard {
		env := cand.Env
		if shard != 0 {
			env = cand.ShardEnv(&results.Benchmark{Shard: shard})
		}
		if sh := speedShift(base.Env, env, timingRatios(group, opts.ShiftFrom), opts); sh != nil {
			shifts[shard] = sh
			if shard != 0 {
				r.ShardShifts = append(r.ShardShifts, ShardShift{Shard: shard, Shift: *sh})
			}
		}
	}
	sort.Slice(r.ShardShifts, func(i, j int) bool { return r.ShardShifts[i].Shard < r.ShardShifts[j].Shard })
	if len(r.ShardShifts) == 0 {
		r.Shift = shifts[0]
	} else {
		r.Shift = summarizeShardShifts(r.ShardShifts)
	}
	return shifts
}

// timingRatios returns the raw candidate/baseline ratios of the ns/op
// comparisons among ns that have a finite, positive estimate: what the
// speed shift is estimated from.
func timingRatios(ns []noisy, from map[string]bool) []float64 {
	var ratios []float64
	for _, n := range ns {
		c := n.c
		if shiftsWith(from, c.Name) && c.Unit == results.UnitNsPerOp && c.Note == "" && c.RawRatio > 0 && !math.IsInf(c.RawRatio, 0) {
			ratios = append(ratios, c.RawRatio)
		}
	}
	return ratios
}

// speedShift estimates the speed shift between the baseline's machine and
// the machine that measured ratios (the candidate's timing ratios), and
// decides whether to judge those timings against it. nil when there are no
// timings.
func speedShift(baseEnv, candEnv results.Env, ratios []float64, opts Options) *Shift {
	if len(ratios) == 0 {
		return nil
	}
	sh := estimateShift(ratios, opts.Confidence)
	sh.Applied, sh.Reason = normalizeChoice(baseEnv, candEnv, opts.Normalize)
	// The same machine at another time can be another machine: a busy
	// neighbour or a throttled CPU moves every timing alike. When the
	// whole run moved by more than the threshold with confidence, that is
	// far more likely the machine than a change that slows every
	// benchmark equally, so auto normalises then too, and says so.
	if opts.Normalize == NormalizeAuto && !sh.Applied && sh.N >= 3 &&
		(sh.Lo > 1+opts.Threshold || sh.Hi < 1-opts.Threshold) {
		sh.Applied = true
		sh.Reason += fmt.Sprintf(", but every timing moved together by ×%.2f [%.2f, %.2f], beyond the ±%.0f%% threshold: the machine's speed changed between the runs (load or throttling), so timings were judged relative to that shift; a change that slows every benchmark alike cannot be told apart from it", sh.Estimate, sh.Lo, sh.Hi, 100*opts.Threshold)
	}
	if sh.Applied && sh.N < 3 {
		sh.Applied = false
		sh.Reason += ", but fewer than 3 timings cannot separate it from real change, so timings are compared as measured"
	}
	return sh
}

// estimateShift is the geometric mean of ratios with its interval at
// confidence; the interval is NaN for a single ratio (or when it cannot
// be computed).
func estimateShift(ratios []float64, confidence float64) *Shift {
	sh := &Shift{N: len(ratios), Estimate: geoMean(ratios), Lo: math.NaN(), Hi: math.NaN()}
	if len(ratios) >= 2 {
		if g, err := stats.GeoMean(ratios, confidence); err == nil {
			sh.Estimate, sh.Lo, sh.Hi = g.Estimate, g.Lo, g.Hi
		}
	}
	return sh
}

// normalizeChoice decides, before looking at the timings, whether timings
// measured on candEnv's machine are judged against its speed shift, and
// why: as normalize says, or, for auto, when the machines differ.
func normalizeChoice(baseEnv, candEnv results.Env, normalize Normalize) (bool, string) {
	switch normalize {
	case NormalizeAlways:
		return true, "requested (--normalize always)"
	case NormalizeNever:
		return false, "not requested (--normalize never)"
	}
	machine, _ := splitDiff(baseEnv, candEnv)
	switch {
	case len(machine) > 0:
		return true, "the two runs ran on different machines (" + diffFields(machine) + ")"
	case baseEnv.Machine == "" && candEnv.Machine == "" && baseEnv.CPU != "":
		// Go benchmark text names the CPU, never the host.
		return false, "both runs record the same CPU (" + baseEnv.CPU + ") and neither its host; taken to be the same machine (use --normalize always if not)"
	case baseEnv.Machine == "" && candEnv.Machine == "":
		return false, "neither run records its machine; assumed the same (use --normalize always if not)"
	}
	return false, "both runs ran on the same machine"
}

// normalizeTiming divides an ns/op comparison's estimate by its machine's
// speed shift sh when sh is applied, and returns the candidate's samples
// to test: divided by the shift too, or as measured.
func normalizeTiming(c *Comparison, cand []float64, sh *Shift) []float64 {
	if sh == nil || !sh.Applied || c.Unit != results.UnitNsPerOp {
		return cand
	}
	c.Normalized = true
	c.Ratio, c.Lo, c.Hi = c.RawRatio/sh.Estimate, c.Lo/sh.Estimate, c.Hi/sh.Estimate
	return scale(cand, 1/sh.Estimate)
}

// summarizeShardShifts describes per-shard normalisation in one Shift: the
// geometric mean of the shards' shifts, applied if any shard's was.
func summarizeShardShifts(ss []ShardShift) *Shift {
	var est []float64
	applied := 0
	n := 0
	for _, s := range ss {
		est = append(est, s.Shift.Estimate)
		n += s.Shift.N
		if s.Shift.Applied {
			applied++
		}
	}
	return &Shift{
		Estimate: geoMean(est), Lo: math.NaN(), Hi: math.NaN(), N: n, Applied: applied > 0,
		Reason: fmt.Sprintf("the candidate was merged from %d shards, each measured on its own runner, so the speed shift was estimated per shard and applied to %d of them", len(ss), applied),
	}
}

// diffFields lists environment differences for a reason: "field: a → b; ...".
func diffFields(d []results.Difference) string {
	var f []string
	for _, x := range d {
		f = append(f, x.String())
	}
	return strings.Join(f, "; ")
}

// scale returns v multiplied by f.
func scale(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

// geoMean is the geometric mean of v, which must be positive.
func geoMean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}
