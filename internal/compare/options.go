package compare

import "fmt"

// Correction names a multiple-comparison adjustment.
type Correction string

const (
	Holm              Correction = "holm"
	BenjaminiHochberg Correction = "bh"
	NoCorrection      Correction = "none"
)

// Normalize says when to separate the machine's speed shift.
type Normalize string

const (
	// NormalizeAuto normalises timings when the two runs' machines differ.
	NormalizeAuto   Normalize = "auto"
	NormalizeAlways Normalize = "always"
	NormalizeNever  Normalize = "never"
)

// Options are the comparison's thresholds and levels.
type Options struct {
	// Threshold is the relative change of a noisy metric that matters:
	// 0.05 means 5%. Default 0.05.
	Threshold float64
	// SizeThreshold is the relative growth of the encoded size (B/msg)
	// that counts as a regression. Default 0: any byte more.
	SizeThreshold float64
	// AllocThreshold is the relative growth of a deterministic allocation
	// count (allocs/op, B/op when every sample agrees) that counts as a
	// regression. Default 0: any allocation more.
	AllocThreshold float64
	// Alpha bounds the false alarms of the run after adjustment: with
	// Holm, the chance of any false alarm; with BH, the expected share of
	// false discoveries. Default 0.01.
	Alpha float64
	// Correction is the multiple-comparison adjustment. Default Holm.
	Correction Correction
	// Confidence is the level of the reported intervals, which also decide
	// "unchanged". Default 0.95.
	Confidence float64
	// Power is the power at which the minimum detectable effect is
	// computed. Default 0.8.
	Power float64
	// Normalize decides when timings are judged against the machine's
	// global speed shift. Default auto.
	Normalize Normalize
	// CountedUnit, when set, is the counted unit that gates
	// (results.UnitInstructionsPerOp or results.UnitEstCyclesPerOp); a
	// run that counted both reports the other only. Empty: every counted
	// unit gates.
	CountedUnit string
	// History is the stored baseline's past runs, which judge its timings
	// (see MinHistoryRuns); nil means none but the baseline itself, so
	// timings are reported, not enforced. Only Compare uses it: a
	// same-runner A/B run measures both builds in the same processes'
	// time, so the noise between runs does not enter it.
	History *History `json:"-"`
	// ShiftFrom, when set, are the benchmarks (by key) the machine's
	// speed shift between the runs is estimated from, and the history's
	// runs' shifts too; nil: every benchmark. A counted run's wall-time
	// check estimates it from the benchmarks whose counted work did not
	// change, so that a pull request that slows most benchmarks is not
	// taken for a slower machine (which would hide what it did). Fewer
	// than three: no shift is estimated.
	ShiftFrom map[string]bool `json:"-"`
}

// Defaults returns the default options.
func Defaults() Options {
	return Options{Threshold: 0.05, Alpha: 0.01, Correction: Holm, Confidence: 0.95, Power: 0.8, Normalize: NormalizeAuto}
}

// Validate checks the options' ranges.
func (o Options) Validate() error {
	switch {
	case !(o.Threshold >= 0 && o.Threshold < 1):
		return fmt.Errorf("threshold %v: want a fraction in [0, 1), e.g. 0.05 for 5%%", o.Threshold)
	case !(o.SizeThreshold >= 0) || !(o.AllocThreshold >= 0):
		return fmt.Errorf("size and allocation thresholds must be >= 0")
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("alpha %v: want a probability in (0, 1), e.g. 0.01", o.Alpha)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("confidence %v: want a probability in (0, 1), e.g. 0.95", o.Confidence)
	case !(o.Power > 0 && o.Power < 1):
		return fmt.Errorf("power %v: want a probability in (0, 1), e.g. 0.8", o.Power)
	}
	switch o.Correction {
	case Holm, BenjaminiHochberg, NoCorrection:
	default:
		return fmt.Errorf("correction %q: want holm, bh or none", o.Correction)
	}
	switch o.Normalize {
	case NormalizeAuto, NormalizeAlways, NormalizeNever:
	default:
		return fmt.Errorf("normalize %q: want auto, always or never", o.Normalize)
	}
	return nil
}

// SettleConfidence is the level of the interval that settles a counted
// benchmark after the first processes of a staged count
// (count.Settings.First): one whose every gated comparison has its
// interval at this level inside the floor, or (a significant change)
// wholly past it, is counted no further but to confirm a change.
// Stricter than the reports' 95%, so that a change at the floor is
// rarely settled as none (docs/design/counted-stages.md, "When counting
// stops").
const SettleConfidence = 0.99
