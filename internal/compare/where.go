package compare

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// Where is where a counted change went: the functions whose self cost
// per operation moved most between the baseline's profile of the
// benchmark and the candidate's (results.Profile), the question every
// reviewer of a flagged count asks next.
type Where struct {
	// Change is the benchmark's change per operation in the
	// comparison's unit, the candidate's median less the baseline's:
	// what the functions' changes are shares of.
	Change float64
	// Functions are the functions that moved most, by how much (Delta),
	// at most MaxWhere of them and each by at least MinWhere of Change,
	// largest first.
	Functions []Moved
	// Explained is how much of Change they add up to (1 = all of it).
	Explained float64
	// BaseBound and CandidateBound are what a function a side's profile
	// does not name may have cost there (results.Profile.Bound): 0 when
	// the side's profile names every function.
	BaseBound, CandidateBound float64
	// Dumps, when set by whoever kept them (internal/count.SaveDumps), is
	// the directory of callgrind's dumps of a block of the benchmark, and
	// Open the command that shows, there, where its work went, per
	// function and source line.
	Dumps, Open string
}

// Moved is one function's self cost per operation on both sides.
type Moved struct {
	Name string
	// Base and Candidate are its cost per operation; with BaseAtMost
	// (CandidateAtMost) that side's profile does not name it, and its
	// cost there was at most that much (the side's bound).
	Base, Candidate             float64
	BaseAtMost, CandidateAtMost bool
	// Delta is Candidate less Base: with a bound, the least it can have
	// moved (the bound taken as its cost).
	Delta float64
	// Share is Delta over the benchmark's change (Where.Change).
	Share float64
	// Appeared is set for a function that cost nothing in the baseline
	// (its profile names every function that cost something, and not
	// it), Disappeared for one that cost nothing in the candidate.
	Appeared, Disappeared bool
}

// What a Where lists: at most MaxWhere functions, each of which moved
// by at least MinWhere of the benchmark's change (smaller moves are
// noise next to it, or many small steps no one line explains).
const (
	MaxWhere = 5
	MinWhere = 0.05
)

// locate fills in Where for every counted regression and improvement of
// r, and every inconclusive count whose estimate lies beyond the
// threshold (a change the run could not confirm, whose functions a
// reader may still want), from the profiles of base's and cand's
// benchmarks (their packages made comparable as pairUp makes them).
func (r *Result) locate(base, cand *results.Results) {
	base, cand = samePackages(base, cand)
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		// A profile is of the block's own work: the collector's count
		// (a collection after it) has none.
		if !results.IsCounted(c.Unit) || c.Unit == results.UnitGCInstructionsPerOp {
			continue
		}
		bb, cb := base.Lookup(c.Name), cand.Lookup(c.Name)
		if bb == nil || cb == nil {
			continue
		}
		if cb.Profile != nil {
			c.Varying = cb.Profile.Varying
		}
		beyond := c.Verdict == Inconclusive && math.Abs(c.Ratio-1) >= r.Options.Threshold
		if c.Verdict != Regression && c.Verdict != Improvement && !beyond {
			continue
		}
		c.Where = Locate(bb.Profile, cb.Profile, c.Unit, c.Candidate.Median-c.Baseline.Median)
		r.UnprofiledBase = r.UnprofiledBase || bb.Profile == nil && cb.Profile != nil
	}
}

// Locate is where a change of change per operation in unit went, from
// the profiles of the baseline (base) and the candidate (cand); nil
// when either has none or the change is 0.
func Locate(base, cand *results.Profile, unit string, change float64) *Where {
	if base == nil || cand == nil || change == 0 || math.IsNaN(change) {
		return nil
	}
	w := &Where{Change: change, BaseBound: base.Bound(unit), CandidateBound: cand.Bound(unit)}
	var moved []Moved
	seen := map[string]bool{}
	add := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		m := Moved{Name: name}
		bc, inBase := base.Lookup(name)
		cc, inCand := cand.Lookup(name)
		m.Base, m.Candidate = bc.Unit(unit), cc.Unit(unit)
		switch {
		case inBase && inCand:
			m.Delta = m.Candidate - m.Base
		case inCand: // at most BaseBound in the baseline
			m.Base, m.BaseAtMost = w.BaseBound, w.BaseBound > 0
			m.Delta = max(m.Candidate-w.BaseBound, 0)
			m.Appeared = w.BaseBound == 0
		default: // at most CandidateBound in the candidate
			m.Candidate, m.CandidateAtMost = w.CandidateBound, w.CandidateBound > 0
			m.Delta = min(w.CandidateBound-m.Base, 0)
			m.Disappeared = w.CandidateBound == 0
		}
		m.Share = m.Delta / change
		if math.Abs(m.Delta) >= MinWhere*math.Abs(change) && m.Delta != 0 {
			moved = append(moved, m)
		}
	}
	for _, f := range cand.Functions {
		add(f.Name)
	}
	for _, f := range base.Functions {
		add(f.Name)
	}
	slices.SortFunc(moved, func(a, b Moved) int {
		if c := cmp.Compare(math.Abs(b.Delta), math.Abs(a.Delta)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	w.Functions = moved[:min(len(moved), MaxWhere)]
	for _, m := range w.Functions {
		w.Explained += m.Delta
	}
	w.Explained /= change
	return w
}
