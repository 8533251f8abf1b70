package bench

import (
	"fmt"
	"github.com/wirebench/wirebench/internal/human"
	"math"
	"math/rand/v2"
	"slices"
)

// The canonical values of the datasets. Each codec converts them into its
// natural in-memory form before timing starts, and decodes back into that
// form. The reflection-based codecs (msgpack, json, gob) use these types
// directly, with the snake_case field names of the schemas.

// Primitive is the small dataset's message and medium's nested message.
type Primitive struct {
	IntVal   int32   `msgpack:"int_val" json:"int_val"`
	FloatVal float64 `msgpack:"float_val" json:"float_val"`
	StrVal   string  `msgpack:"str_val" json:"str_val"`
	BoolVal  bool    `msgpack:"bool_val" json:"bool_val"`
}

// Medium has nested objects, a numeric array and a string map.
type Medium struct {
	Name     string            `msgpack:"name" json:"name"`
	ID       int32             `msgpack:"id" json:"id"`
	Scores   []float64         `msgpack:"scores" json:"scores"`
	Metadata map[string]string `msgpack:"metadata" json:"metadata"`
	Nested   Primitive         `msgpack:"nested" json:"nested"`
}

// Item is one element of the large dataset.
type Item struct {
	Name  string   `msgpack:"name" json:"name"`
	ID    int32    `msgpack:"id" json:"id"`
	Score float64  `msgpack:"score" json:"score"`
	Tags  []string `msgpack:"tags" json:"tags"`
}

// Large is a list of complex objects with nested arrays.
type Large struct {
	Items []Item `msgpack:"items" json:"items"`
}

// Floats is a numeric array, the family that shows how cost grows with
// payload size.
type Floats struct {
	Values []float64 `msgpack:"values" json:"values"`
}

// Pair is two numeric arrays.
type Pair struct {
	A []float64 `msgpack:"a" json:"a"`
	B []float64 `msgpack:"b" json:"b"`
}

// Pairs is a list of pairs of numeric arrays (the bulk transfer of
// seed 004: 100 pairs of 250,000 doubles, about 381 MB).
type Pairs struct {
	Pairs []Pair `msgpack:"pairs" json:"pairs"`
}

// Dataset is one payload of the suite.
type Dataset struct {
	Name string
	// Description says what the payload is, for reports.
	Description string
	// OptIn datasets only run when a filter names them explicitly: they
	// need more memory or time than a default CI run should spend.
	OptIn bool
	// Elements is the number of array elements (the numeric family) or 0.
	Elements int
	// New builds the canonical value: *Primitive, *Medium, *Large, *Floats
	// or *Pairs. It is deterministic: every call, codec and run gets
	// semantically identical values.
	New func() any
}

// floatSeed fixes the numeric arrays' contents across runs and machines.
const floatSeed = 0x77697265 // "wire"

// Datasets returns the suite's datasets, default ones first, in order of
// growing size.
func Datasets() []Dataset {
	return []Dataset{
		{Name: "small", Description: "4 primitive fields (int, float, string, bool)", New: func() any { return NewSmall() }},
		{Name: "medium", Description: "nested object, numeric array, string map", New: func() any { return NewMedium() }},
		{Name: "large", Description: "100 complex objects with nested arrays", New: func() any { return NewLarge() }},
		floatsDataset("floats-1k", 1<<10, false),
		floatsDataset("floats-64k", 1<<16, false),
		floatsDataset("floats-1m", 1<<20, false),
		floatsDataset("floats-16m", 1<<24, true),
		{Name: "pairs-100x250k", Description: "100 pairs of 250,000 doubles (381 MB raw); all 7 codecs at once peak at about 11 GB of memory", OptIn: true,
			Elements: 100 * 2 * 250_000, New: func() any { return NewPairs(100, 250_000) }},
	}
}

func floatsDataset(name string, n int, optIn bool) Dataset {
	return Dataset{
		Name:        name,
		Description: fmt.Sprintf("%d doubles (%s raw)", n, human.Bytes(float64(8*n))),
		OptIn:       optIn,
		Elements:    n,
		New:         func() any { return NewFloats(n) },
	}
}

// NewSmall returns the small dataset: {42, 3.14, "hello world", true}.
func NewSmall() *Primitive {
	return &Primitive{IntVal: 42, FloatVal: 3.14, StrVal: "hello world", BoolVal: true}
}

// NewMedium returns the medium dataset.
func NewMedium() *Medium {
	return &Medium{
		Name:     "test_object",
		ID:       12345,
		Scores:   []float64{1, 2, 3, 4, 5},
		Metadata: map[string]string{"key1": "value1", "key2": "value2", "key3": "value3"},
		Nested:   Primitive{IntVal: 99, FloatVal: 2.71, StrVal: "nested", BoolVal: false},
	}
}

// NewLarge returns the large dataset: 100 items, item i =
// {"item_%04d", i, i*1.5, ["tag_0" .. "tag_4"]}. The strings are built here,
// once, never inside a timed loop.
func NewLarge() *Large {
	items := make([]Item, 100)
	for i := range items {
		tags := make([]string, 5)
		for j := range tags {
			tags[j] = fmt.Sprintf("tag_%d", j)
		}
		items[i] = Item{Name: fmt.Sprintf("item_%04d", i), ID: int32(i), Score: float64(i) * 1.5, Tags: tags}
	}
	return &Large{Items: items}
}

// NewFloats returns n doubles drawn from a fixed seed, spread over several
// orders of magnitude so text formats do not get an easy ride.
func NewFloats(n int) *Floats {
	return &Floats{Values: randomFloats(rand.New(rand.NewPCG(floatSeed, uint64(n))), n)}
}

// NewPairs returns count pairs of n-element arrays from a fixed seed.
func NewPairs(count, n int) *Pairs {
	r := rand.New(rand.NewPCG(floatSeed, uint64(count)<<32|uint64(n)))
	p := make([]Pair, count)
	for i := range p {
		p[i] = Pair{A: randomFloats(r, n), B: randomFloats(r, n)}
	}
	return &Pairs{Pairs: p}
}

func randomFloats(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(7)-3))
	}
	return v
}

// checksum folds what a decoder read into one number. Every codec's
// deserialize ends with it over its decoded value, so the decoded fields are
// read (and the compiler cannot drop the decode), and the harness can check
// the result against the canonical value's checksum. Strings contribute
// their length and first and last bytes: materialising them as Go strings
// is the decoder's work, hashing them fully would only add equal cost.
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

// mapEntry hashes one map entry on its own, so the map's checksum (the sum
// of its entries) does not depend on iteration order.
func mapEntry(k, v string) uint64 {
	c := newChecksum()
	c.str(k)
	c.str(v)
	return uint64(c)
}

// Checksum returns the checksum of a canonical value.
func Checksum(v any) uint64 {
	c := newChecksum()
	switch v := v.(type) {
	case *Primitive:
		c.primitive(v)
	case *Medium:
		c.str(v.Name)
		c.i32(v.ID)
		c.f64s(v.Scores)
		var m uint64
		for k, val := range v.Metadata {
			m += mapEntry(k, val)
		}
		c.u64(uint64(len(v.Metadata)))
		c.u64(m)
		c.primitive(&v.Nested)
	case *Large:
		c.u64(uint64(len(v.Items)))
		for i := range v.Items {
			it := &v.Items[i]
			c.str(it.Name)
			c.i32(it.ID)
			c.f64(it.Score)
			c.u64(uint64(len(it.Tags)))
			for _, t := range it.Tags {
				c.str(t)
			}
		}
	case *Floats:
		c.f64s(v.Values)
	case *Pairs:
		c.u64(uint64(len(v.Pairs)))
		for _, p := range v.Pairs {
			c.f64s(p.A)
			c.f64s(p.B)
		}
	default:
		panic(fmt.Sprintf("bench: Checksum of unknown type %T", v))
	}
	return uint64(c)
}

func (c *checksum) primitive(p *Primitive) {
	c.i32(p.IntVal)
	c.f64(p.FloatVal)
	c.str(p.StrVal)
	c.b(p.BoolVal)
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
