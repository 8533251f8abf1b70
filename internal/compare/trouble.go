package compare

import (
	"slices"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// Trouble is a benchmark, or a package's benchmarks (Name an import
// path), that the baseline or the candidate could not measure as the
// run measured the others (results.Trouble): its own row, never the
// whole run's. Base and Head are each side's trouble, nil where that
// side had none (it measured the benchmark, or does not have it).
type Trouble struct {
	Name       string
	Base, Head *results.Trouble
	// BaseMeasured is set when the baseline has the benchmark (or, for a
	// package, benchmarks of it) measured: what the candidate lost, the
	// base had.
	BaseMeasured bool
}

// Broke reports whether t is the candidate's doing that the baseline did
// not have: its benchmark fails natively, or its package's tests do not
// build, where the baseline's did not (a failure the baseline shares is
// not the pull request's). Fail closed: such a trouble fails the run.
func (t Trouble) Broke() bool {
	h := t.Head
	if h == nil || (h.Kind != results.TroubleFailed && h.Kind != results.TroubleNotBuilt) {
		return false
	}
	return t.Base == nil || t.Base.Kind != h.Kind
}

// LostCount reports whether the candidate could not count what the
// baseline counted: not counted under Valgrind in the candidate, counted
// in the baseline. Only the clock can judge it then.
func (t Trouble) LostCount() bool {
	return t.Head != nil && t.Head.Kind == results.TroubleNotCounted && t.Base == nil && t.BaseMeasured
}

// noteTroubles records in r the troubles of base and cand (their
// results.Results.Troubles), by name, and takes the benchmarks they name
// out of Missing and New: a benchmark that skipped or failed on one side
// is a trouble, not a benchmark removed or added.
func (r *Result) noteTroubles(base, cand *results.Results) {
	byName := map[string]*Trouble{}
	get := func(name string) *Trouble {
		t, ok := byName[name]
		if !ok {
			t = &Trouble{Name: name, BaseMeasured: measured(base, name)}
			byName[name] = t
		}
		return t
	}
	for _, bt := range base.Troubles {
		get(bt.Name).Base = &bt
	}
	for _, ct := range cand.Troubles {
		get(ct.Name).Head = &ct
	}
	r.Troubles = r.Troubles[:0]
	for _, t := range byName {
		r.Troubles = append(r.Troubles, *t)
	}
	slices.SortFunc(r.Troubles, func(a, b Trouble) int { return strings.Compare(a.Name, b.Name) })
	troubled := func(name string) bool {
		pkg, _ := results.SplitKey(name)
		return byName[name] != nil || (pkg != "" && byName[pkg] != nil)
	}
	r.Missing = slices.DeleteFunc(r.Missing, troubled)
	r.New = slices.DeleteFunc(r.New, troubled)
}

// NoteTroubles is noteTroubles for a comparison whose Missing and New
// were set after Compare (a counted pair lists them from its builds).
func (r *Result) NoteTroubles(base, cand *results.Results) { r.noteTroubles(base, cand) }

// measured reports whether r measured name: a benchmark of that key, or
// for a package, a benchmark of it.
func measured(r *results.Results, name string) bool {
	for _, b := range r.Benchmarks {
		if b.Key() == name || b.Pkg == name {
			return true
		}
	}
	return false
}

// troubled reports whether either run has a trouble of the benchmark
// name: its counts, where one side has some from before its trouble
// (a process that counted it before another crashed on it), are not
// compared.
func troubled(base, cand *results.Results, name string) bool {
	return base.TroubleOf(name) != nil || cand.TroubleOf(name) != nil
}

// Unjudged reports whether t's benchmark was judged by nothing that
// could fail the run in its place: the candidate lost its count (see
// LostCount) and no wall-time comparison of it is in r. The run fails
// on it then: nothing that could not be measured is called unchanged.
func (r *Result) Unjudged(t Trouble) bool {
	if !t.LostCount() {
		return false
	}
	for _, c := range r.Comparisons {
		if c.Name == t.Name && c.Unit == results.UnitNsPerOp && r.Enforced(c) {
			return false
		}
	}
	return true
}

// FailingTroubles are the troubles that fail the run under
// FailOnRegression: what the candidate broke (Broke), and counts it
// lost that no clock judged (Unjudged).
func (r *Result) FailingTroubles() []Trouble {
	var out []Trouble
	for _, t := range r.Troubles {
		if t.Broke() || r.Unjudged(t) {
			out = append(out, t)
		}
	}
	return out
}
