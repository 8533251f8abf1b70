package results

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Profile is where a counted benchmark's work went: the self cost per
// operation of the functions that did it (their own instructions, not
// those of the functions they called; code the compiler inlined is its
// caller's), costliest first, reduced across the processes the way the
// benchmark's count is (internal/count). Functions that cost little are
// left out (Omitted of them, Rest together, none more than Most), so
// that a profile stays small: a function a profile does not name cost
// at most Most, or nothing when Omitted is 0.
type Profile struct {
	Functions []Function `json:"functions"`
	// Omitted is how many functions were left out, Rest what they cost
	// together and Most what the costliest of them cost, each unit on its
	// own. Nil when none were.
	Omitted int   `json:"omitted,omitempty"`
	Rest    *Cost `json:"rest,omitempty"`
	Most    *Cost `json:"most,omitempty"`
	// Varying are the functions whose self cost per operation differed
	// most between the processes (at most MaxVarying, largest first),
	// each with the standard deviation of its cost over them: what
	// moved a count from one process to the next. Nil with one process,
	// or when none differed.
	Varying []Function `json:"varying,omitempty"`
}

// MaxVarying bounds Profile.Varying.
const MaxVarying = 3

// NewVarying is the Varying list of a profile from each function's
// standard deviation over the processes (sd): the largest MaxVarying
// that are not 0, values rounded.
func NewVarying(sd map[string]Cost) []Function {
	var fs []Function
	for name, c := range sd {
		if c.Instructions > 0 {
			fs = append(fs, Function{Name: name, Cost: c})
		}
	}
	sortFunctions(fs)
	fs = fs[:min(len(fs), MaxVarying)]
	for i := range fs {
		fs[i].Cost = round(fs[i].Cost)
	}
	return fs
}

// Function is one function's self cost per operation. Name is the
// symbol callgrind names it by, the Go linker's: the package path, a
// receiver, the function, closures and instantiations of generic code as
// the linker spells them ("pkg.(*T).M", "pkg.F.func1",
// "pkg.Map[go.shape.int]").
type Function struct {
	Name string `json:"name"`
	Cost
}

// Cost is a self cost per operation: instructions/op and, with the
// cache simulation, est-cycles/op.
type Cost struct {
	Instructions float64 `json:"instructions"`
	EstCycles    float64 `json:"est_cycles,omitempty"`
}

// Unit is c's value of unit (UnitInstructionsPerOp or
// UnitEstCyclesPerOp; 0 for another).
func (c Cost) Unit(unit string) float64 {
	switch unit {
	case UnitInstructionsPerOp:
		return c.Instructions
	case UnitEstCyclesPerOp:
		return c.EstCycles
	}
	return 0
}

func (c Cost) add(o Cost) Cost {
	return Cost{Instructions: c.Instructions + o.Instructions, EstCycles: c.EstCycles + o.EstCycles}
}

// Sizes of a run's profiles: a function that costs less than
// ProfileFloor of its benchmark's instructions is left out (work done
// once a block, not once an operation, such as the collector's and the
// request's that ends the block, comes out well below it), and at most
// ProfileFunctions are kept. A stored baseline keeps fewer (Compact).
const (
	ProfileFloor     = 1e-4
	ProfileFunctions = 300
)

// NewProfile makes the profile of a benchmark from the self cost per
// operation of every function, costliest first (by instructions, then
// by name): functions below ProfileFloor of the total are left out, and
// any beyond ProfileFunctions; values are kept to 4 significant digits,
// finer than a function's cost moves between processes. Nil when no
// function cost anything.
func NewProfile(costs map[string]Cost) *Profile {
	fs := make([]Function, 0, len(costs))
	var total float64
	for name, c := range costs {
		if c.Instructions <= 0 && c.EstCycles <= 0 {
			continue
		}
		fs = append(fs, Function{Name: name, Cost: Cost{Instructions: max(c.Instructions, 0), EstCycles: max(c.EstCycles, 0)}})
		total += max(c.Instructions, 0)
	}
	if len(fs) == 0 {
		return nil
	}
	sortFunctions(fs)
	keep := len(fs)
	for keep > 0 && fs[keep-1].Instructions < ProfileFloor*total {
		keep--
	}
	return cut(fs, min(keep, ProfileFunctions))
}

// sortFunctions orders fs costliest first, by instructions, then by
// name.
func sortFunctions(fs []Function) {
	slices.SortFunc(fs, func(a, b Function) int {
		if c := cmp.Compare(b.Instructions, a.Instructions); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// cut is the profile of fs (sorted) keeping the first keep, values
// rounded.
func cut(fs []Function, keep int) *Profile {
	p := &Profile{Functions: make([]Function, 0, keep)}
	for i, f := range fs {
		if i < keep {
			p.Functions = append(p.Functions, Function{Name: f.Name, Cost: round(f.Cost)})
			continue
		}
		p.omit(f.Cost, f.Cost, 1)
	}
	if p.Rest != nil {
		*p.Rest, *p.Most = round(*p.Rest), round(*p.Most)
	}
	return p
}

// omit adds n functions to what p leaves out, costing rest together and
// none more than most.
func (p *Profile) omit(rest, most Cost, n int) {
	if n == 0 {
		return
	}
	if p.Rest == nil {
		p.Rest, p.Most = &Cost{}, &Cost{}
	}
	p.Omitted += n
	*p.Rest = p.Rest.add(rest)
	p.Most.Instructions = max(p.Most.Instructions, most.Instructions)
	p.Most.EstCycles = max(p.Most.EstCycles, most.EstCycles)
}

// round keeps 4 significant digits of each value.
func round(c Cost) Cost {
	r := func(x float64) float64 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
		return v
	}
	return Cost{Instructions: r(c.Instructions), EstCycles: r(c.EstCycles)}
}

// Compact is p with only the costliest functions that make up share of
// its instructions (but at least one), at most n of them, the others
// added to what it leaves out: the profile a stored baseline keeps.
func (p *Profile) Compact(share float64, n int) *Profile {
	if p == nil {
		return nil
	}
	total := p.Total().Instructions
	keep, sum := 0, 0.0
	for keep < len(p.Functions) && keep < n && (keep == 0 || sum < share*total) {
		sum += p.Functions[keep].Instructions
		keep++
	}
	c := &Profile{Functions: slices.Clone(p.Functions[:keep])}
	for _, f := range p.Functions[keep:] {
		c.omit(f.Cost, f.Cost, 1)
	}
	if p.Rest != nil {
		c.omit(*p.Rest, *p.Most, p.Omitted)
	}
	if c.Rest != nil {
		*c.Rest, *c.Most = round(*c.Rest), round(*c.Most)
	}
	return c
}

// Total is what every function of the benchmark cost, those left out
// included.
func (p *Profile) Total() Cost {
	var t Cost
	if p == nil {
		return t
	}
	for _, f := range p.Functions {
		t = t.add(f.Cost)
	}
	if p.Rest != nil {
		t = t.add(*p.Rest)
	}
	return t
}

// Lookup is the cost of the function name, and whether p names it.
func (p *Profile) Lookup(name string) (Cost, bool) {
	if p == nil {
		return Cost{}, false
	}
	for _, f := range p.Functions {
		if f.Name == name {
			return f.Cost, true
		}
	}
	return Cost{}, false
}

// Bound is what a function p does not name may have cost in unit: Most's
// value, 0 when p left nothing out (then such a function cost nothing).
func (p *Profile) Bound(unit string) float64 {
	if p == nil || p.Most == nil {
		return 0
	}
	return p.Most.Unit(unit)
}

// Clone is a copy of p that shares nothing with it.
func (p *Profile) Clone() *Profile {
	if p == nil {
		return nil
	}
	c := &Profile{Functions: slices.Clone(p.Functions), Omitted: p.Omitted}
	if p.Rest != nil {
		rest, most := *p.Rest, *p.Most
		c.Rest, c.Most = &rest, &most
	}
	return c
}

// validate checks that p's functions are named, once each, without
// control characters (reports show them on one line), and that every
// value is a finite number ≥ 0.
func (p *Profile) validate() error {
	if p == nil {
		return nil
	}
	costs := []Cost{}
	seen := make(map[string]bool, len(p.Functions))
	for _, f := range p.Functions {
		switch {
		case f.Name == "":
			return fmt.Errorf("a function of its profile has no name")
		case strings.IndexFunc(f.Name, unicode.IsControl) >= 0:
			return fmt.Errorf("the function %q of its profile holds a control character", f.Name)
		case seen[f.Name]:
			return fmt.Errorf("the function %s appears twice in its profile", f.Name)
		}
		seen[f.Name] = true
		costs = append(costs, f.Cost)
	}
	if (p.Rest == nil) != (p.Most == nil) || (p.Rest == nil) != (p.Omitted == 0) || p.Omitted < 0 {
		return fmt.Errorf("its profile leaves out %d functions, with rest %v and most %v", p.Omitted, p.Rest, p.Most)
	}
	if p.Rest != nil {
		costs = append(costs, *p.Rest, *p.Most)
	}
	for _, c := range costs {
		for _, v := range []float64{c.Instructions, c.EstCycles} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("its profile has the invalid cost %v", v)
			}
		}
	}
	return nil
}
