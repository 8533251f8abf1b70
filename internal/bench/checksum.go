package bench

import (
	"math"
	"slices"
)

// checksum folds what a decoder read into one number. Every deserialize
// benchmark ends with it over its decoded value (Message.Sum and
// SumProto), so the decoded fields are read (and the compiler cannot drop
// the decode), and the harness checks the result against the message's.
// Strings contribute their length and first and last bytes: materialising
// them as Go strings is the decoder's work, hashing them fully would only
// add equal cost.
type checksum uint64

// The 64-bit FNV-1a parameters.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// newChecksum starts a checksum.
func newChecksum() checksum { return fnvOffset }

// The methods return the updated checksum rather than update it through a
// pointer: a value the compiler keeps in a register, not in memory, is
// several times faster over a long array, and the checksum's cost is part
// of every deserialize benchmark.
func (c checksum) u64(x uint64) checksum { return (c ^ checksum(x)) * fnvPrime }
func (c checksum) i32(x int32) checksum  { return c.u64(uint64(uint32(x))) }
func (c checksum) f64(x float64) checksum {
	return c.u64(math.Float64bits(x))
}
func (c checksum) b(x bool) checksum {
	if x {
		return c.u64(1)
	}
	return c.u64(2)
}
func (c checksum) str(s string) checksum {
	c = c.u64(uint64(len(s)))
	if len(s) > 0 {
		c = c.u64(uint64(s[0])<<8 | uint64(s[len(s)-1]))
	}
	return c
}
func (c checksum) f64s(v []float64) checksum {
	c = c.u64(uint64(len(v)))
	for _, x := range v {
		c = c.f64(x)
	}
	return c
}

// stringMap folds a string map in: its size and the sum of its entries,
// each hashed on its own, so the result does not depend on iteration
// order.
func (c checksum) stringMap(m map[string]string) checksum {
	var s uint64
	for k, v := range m {
		s += uint64(newChecksum().str(k).str(v))
	}
	return c.u64(uint64(len(m))).u64(s)
}

// sortedKeys returns m's keys in order, so encoders that write maps as
// parallel lists (FlatBuffers, raw) are deterministic.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
