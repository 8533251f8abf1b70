package results

import (
	"fmt"
	"slices"
	"strings"
)

// Trouble is a benchmark, or a package's benchmarks, that a run could not
// measure the way it measured the others: one benchmark's trouble is its
// own row, never the whole run's. Name is the benchmark's key (Key), or,
// for a package whose tests did not build, the package's import path.
type Trouble struct {
	Name string      `json:"name"`
	Kind TroubleKind `json:"kind"`
	// Why is what the benchmark or the go command said (its skip or
	// failure message, the crash, the compiler's errors), shortened.
	Why string `json:"why"`
}

// TroubleKind says what happened to a benchmark, and so what a
// comparison can still say of it.
type TroubleKind string

const (
	// TroubleSkipped: the benchmark skips itself natively (b.Skip), as
	// go test -bench skips it. Nothing is measured, on purpose.
	TroubleSkipped TroubleKind = "skipped"
	// TroubleFailed: the benchmark fails, or panics, natively, as it does
	// under go test -bench.
	TroubleFailed TroubleKind = "failed"
	// TroubleNotCounted: the benchmark runs natively but not under
	// Valgrind (it skips or fails there, crashes on an instruction
	// Valgrind's CPU lacks, or outlasts its time): it has no count, and
	// only the clock, where it ran, can judge it.
	TroubleNotCounted TroubleKind = "not counted"
	// TroubleNotBuilt: the package's tests do not build; Name is the
	// package.
	TroubleNotBuilt TroubleKind = "not built"
)

// MaxTroubleWhy bounds Trouble.Why: a skip's message or the compiler's
// last lines, not a whole log.
const MaxTroubleWhy = 600

// NewTrouble is a Trouble with why made one readable line of at most
// MaxTroubleWhy bytes.
func NewTrouble(name string, kind TroubleKind, why string) Trouble {
	why = strings.Join(strings.Fields(why), " ")
	if len(why) > MaxTroubleWhy {
		cut := MaxTroubleWhy - len("…")
		for cut > 0 && !isRuneStart(why[cut]) {
			cut--
		}
		why = why[:cut] + "…"
	}
	return Trouble{Name: name, Kind: kind, Why: why}
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// String is "name: kind: why".
func (t Trouble) String() string { return fmt.Sprintf("%s: %s: %s", t.Name, t.Kind, t.Why) }

// Native reports whether the trouble is the code's natively (skipped,
// failed, not built): go test -bench meets it too.
func (t Trouble) Native() bool { return t.Kind != TroubleNotCounted }

// AddTrouble records t, unless r already has a trouble of that name
// (the first one stands: a benchmark not counted in one process is not
// counted in the next).
func (r *Results) AddTrouble(t Trouble) {
	if r.TroubleOf(t.Name) != nil {
		return
	}
	r.Troubles = append(r.Troubles, t)
	slices.SortStableFunc(r.Troubles, func(a, b Trouble) int { return strings.Compare(a.Name, b.Name) })
}

// TroubleOf is the trouble recorded for name (a benchmark's key, or a
// package), nil when it has none.
func (r *Results) TroubleOf(name string) *Trouble {
	for i := range r.Troubles {
		if r.Troubles[i].Name == name {
			return &r.Troubles[i]
		}
	}
	return nil
}

// validateTroubles checks that every trouble names something, says what
// kind it is, and is recorded once.
func (r *Results) validateTroubles() error {
	seen := map[string]bool{}
	for _, t := range r.Troubles {
		switch {
		case t.Name == "":
			return fmt.Errorf("a trouble without a name")
		case seen[t.Name]:
			return fmt.Errorf("trouble of %q recorded twice", t.Name)
		}
		switch t.Kind {
		case TroubleSkipped, TroubleFailed, TroubleNotCounted, TroubleNotBuilt:
		default:
			return fmt.Errorf("trouble of %q: unknown kind %q", t.Name, t.Kind)
		}
		seen[t.Name] = true
	}
	return nil
}
