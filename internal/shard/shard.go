package shard

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Spec is one shard of a partition: Index of Count, 1-based.
type Spec struct {
	Index, Count int
}

// MaxCount bounds the number of shards: a job matrix has at most 256 jobs
// (GitHub's limit per workflow run), and a count read from a shard's
// results file must not make a merge loop or allocate without end.
const MaxCount = 256

// Parse reads "I/N" (1 <= I <= N <= MaxCount).
func Parse(s string) (Spec, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: want I/N, e.g. 2/4", s)
	}
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || cnt < 1 || idx < 1 || idx > cnt {
		return Spec{}, fmt.Errorf("shard %q: want I/N with 1 <= I <= N, e.g. 2/4", s)
	}
	if cnt > MaxCount {
		return Spec{}, fmt.Errorf("shard %q: at most %d shards (a job matrix has at most %d jobs)", s, MaxCount, MaxCount)
	}
	return Spec{idx, cnt}, nil
}

func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Whole reports whether s is the unsharded run (1/1 or zero).
func (s Spec) Whole() bool { return s.Count <= 1 }

// Costs are the expected measuring costs of the benchmarks a reference
// run (the baseline) knows, in any unit shared by all (e.g. seconds).
type Costs map[string]float64

// Assign returns the shard (1..n) of every name. The benchmarks costs
// knows are balanced by cost — all of them, whether or not names holds
// them, so the assignment depends only on the reference — and the rest are
// placed by hashing their names.
func Assign(names []string, n int, costs Costs) map[string]int {
	out := make(map[string]int, len(names))
	if n <= 1 {
		for _, name := range names {
			out[name] = 1
		}
		return out
	}
	planned := balance(costs, n)
	for _, name := range names {
		if s, ok := planned[name]; ok {
			out[name] = s
		} else {
			out[name] = rendezvous(name, n)
		}
	}
	return out
}

// balance spreads the reference's benchmarks over n shards by the
// longest-processing-time rule: most expensive first, each to the least
// loaded shard; equal costs in hash order, so the result depends on
// nothing but the costs.
func balance(costs Costs, n int) map[string]int {
	type item struct {
		name string
		cost float64
		hash uint64
	}
	items := make([]item, 0, len(costs))
	for name, c := range costs {
		items = append(items, item{name, c, hash64(name)})
	}
	slices.SortFunc(items, func(a, b item) int {
		switch {
		case a.cost != b.cost:
			if a.cost > b.cost {
				return -1
			}
			return 1
		case a.hash != b.hash:
			if a.hash < b.hash {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	out := make(map[string]int, len(items))
	load := make([]float64, n)
	for _, it := range items {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += it.cost
		out[it.name] = best + 1
	}
	return out
}

// Select returns the names that belong to shard s, in their given order.
func Select(names []string, s Spec, costs Costs) []string {
	if s.Whole() {
		return names
	}
	a := Assign(names, s.Count, costs)
	var out []string
	for _, name := range names {
		if a[name] == s.Index {
			out = append(out, name)
		}
	}
	return out
}

// rendezvous picks the shard with the highest hash of (name, shard): the
// choice for one name never depends on the other names.
func rendezvous(name string, n int) int {
	best, bestHash := 1, uint64(0)
	for s := 1; s <= n; s++ {
		if h := hash64(name + "\x00" + strconv.Itoa(s)); h > bestHash || s == 1 {
			best, bestHash = s, h
		}
	}
	return best
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	// FNV's low bits mix poorly for short similar strings; fold once more.
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}
