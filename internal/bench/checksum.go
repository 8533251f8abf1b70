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

func (c *checksum) u64(x uint64) { *c = (*c ^ checksum(x)) * fnvPrime }
func (c *checksum) i32(x int32)  { c.u64(uint64(uint32(x))) }
func (c *checksum) f64(x float64) {
	c.u64(math.Float64bits(x))
}
func (c *checksum) b(x bool) {
	if x {
		c.u64(1)
	} else {
		c.u64(2)
	}
}
func (c *checksum) str(s string) {
	c.u64(uint64(len(s)))
	if len(s) > 0 {
		c.u64(uint64(s[0])<<8 | uint64(s[len(s)-1]))
	}
}
func (c *checksum) f64s(v []float64) {
	c.u64(uint64(len(v)))
	for _, x := range v {
		c.f64(x)
	}
}

// stringMap folds a string map in: its size and the sum of its entries,
// each hashed on its own, so the result does not depend on iteration
// order.
func (c *checksum) stringMap(m map[string]string) {
	var s uint64
	for k, v := range m {
		e := newChecksum()
		e.str(k)
		e.str(v)
		s += uint64(e)
	}
	c.u64(uint64(len(m)))
	c.u64(s)
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
