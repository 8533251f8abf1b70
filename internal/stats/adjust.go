package stats

import (
	"math"
	"slices"
)

// Holm returns the Holm–Bonferroni adjusted p-values of p, in the same
// order, as R's p.adjust(p, "holm"): the i-th smallest of m p-values is
// multiplied by m-i+1, made non-decreasing, and capped at 1. Rejecting
// every hypothesis whose adjusted p-value is below alpha keeps the chance
// of any false rejection (the family-wise error rate) below alpha, under
// any dependence between the tests.
//
// NaN entries stay NaN and do not count towards m, as NA in R.
func Holm(p []float64) []float64 {
	out, idx := adjustPrep(p)
	slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(p[a], p[b]) })
	m := len(idx)
	run := math.Inf(-1)
	for i, k := range idx {
		run = math.Max(run, float64(m-i)*p[k])
		out[k] = math.Min(1, run)
	}
	return out
}

// BenjaminiHochberg returns the Benjamini–Hochberg adjusted p-values
// ("q-values") of p, in the same order, as R's p.adjust(p, "BH"): the i-th
// smallest of m p-values is multiplied by m/i, made non-decreasing from
// the largest down, and capped at 1. Rejecting below alpha keeps the
// expected share of false discoveries below alpha (for independent or
// positively dependent tests) but, unlike Holm, allows some false alarms;
// it suits exploratory runs, not gates.
//
// NaN entries stay NaN and do not count towards m, as NA in R.
func BenjaminiHochberg(p []float64) []float64 {
	out, idx := adjustPrep(p)
	slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(p[b], p[a]) })
	m := len(idx)
	run := math.Inf(1)
	for j, k := range idx {
		i := m - j // rank of p[k] from the smallest
		run = math.Min(run, float64(m)/float64(i)*p[k])
		out[k] = math.Min(1, run)
	}
	return out
}

// adjustPrep returns an output slice with NaN at the NaN positions of p
// and the indexes of the other entries.
func adjustPrep(p []float64) (out []float64, idx []int) {
	out = make([]float64, len(p))
	for i, v := range p {
		if math.IsNaN(v) {
			out[i] = math.NaN()
			continue
		}
		idx = append(idx, i)
	}
	return out, idx
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
