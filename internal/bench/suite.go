package bench

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// Operations, as results name them.
const (
	OpSerialize   = results.OpSerialize
	OpDeserialize = results.OpDeserialize
)

// SuiteName names the embedded suite in results and baselines, so a
// baseline of another suite is never compared with this one.
const SuiteName = "default"

// Benchmark is one codec, dataset and operation, prepared and ready to
// measure.
type Benchmark struct {
	// Name is the Go benchmark name, e.g.
	// "BenchmarkSerialize/codec=protobuf/dataset=small".
	Name               string
	Codec, Dataset, Op string
	// Size is the encoded message size in bytes.
	Size int
	// loop runs the operation n times and checks every result: the
	// encoded size must not change and every decode must read back the
	// checksum of the value encoded.
	loop func(n int) error
}

// Name returns the Go benchmark name of an operation on a codec and dataset.
func Name(op, codec, dataset string) string {
	base := "BenchmarkSerialize"
	if op == OpDeserialize {
		base = "BenchmarkDeserialize"
	}
	return base + "/codec=" + codec + "/dataset=" + dataset
}

// Selection decides which benchmarks a run includes.
type Selection struct {
	// Filter is matched against benchmark names; nil matches all.
	Filter *regexp.Regexp
	// Only, when set, further restricts the run to the names it accepts
	// (one shard of a partitioned suite).
	Only func(name string) bool
}

// includesDataset reports whether a dataset takes part: default datasets
// always may (the filter then picks benchmarks); opt-in datasets only when
// the filter names them literally, so no pattern like ".*" starts a
// multi-gigabyte run by accident.
func (s Selection) includesDataset(d Dataset) bool {
	if !d.OptIn {
		return true
	}
	return s.Filter != nil && strings.Contains(s.Filter.String(), d.Name)
}

func (s Selection) match(name string) bool {
	return (s.Filter == nil || s.Filter.MatchString(name)) && (s.Only == nil || s.Only(name))
}

// Names lists the benchmarks sel selects, without preparing any.
func Names(sel Selection, codecs []Codec, datasets []Dataset) []string {
	var out []string
	for _, d := range datasets {
		if !sel.includesDataset(d) {
			continue
		}
		for _, c := range codecs {
			for _, op := range []string{OpSerialize, OpDeserialize} {
				if n := Name(op, c.Name(), d.Name); sel.match(n) {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// Prepare builds the selected benchmarks of the suite: for every dataset
// and codec it binds the value, encodes it once, and checks that decoding
// reads back what was encoded. A codec that fails that check is an error:
// a fast wrong codec is a bug, not a result.
func Prepare(sel Selection, codecs []Codec, datasets []Dataset) ([]*Benchmark, error) {
	var out []*Benchmark
	for _, d := range datasets {
		if !sel.includesDataset(d) {
			continue
		}
		var value any
		var want uint64
		for _, c := range codecs {
			ser, de := Name(OpSerialize, c.Name(), d.Name), Name(OpDeserialize, c.Name(), d.Name)
			if !sel.match(ser) && !sel.match(de) {
				continue
			}
			if value == nil {
				value = d.New()
				want = Checksum(value)
			}
			bs, err := prepareOne(c, d.Name, value, want)
			if err != nil {
				return nil, err
			}
			for _, b := range bs {
				if sel.match(b.Name) {
					out = append(out, b)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the filter %q matches no benchmark (names look like %s)", sel.Filter, Name(OpSerialize, "protobuf", "small"))
	}
	return out, nil
}

func prepareOne(c Codec, dataset string, value any, want uint64) ([]*Benchmark, error) {
	ops, err := c.Bind(value)
	if err != nil {
		return nil, fmt.Errorf("prepare %s/%s: %w", c.Name(), dataset, err)
	}
	enc, err := ops.Encode()
	if err != nil {
		return nil, fmt.Errorf("prepare %s/%s: encode: %w", c.Name(), dataset, err)
	}
	encoded := cloneBytes(enc)
	got, err := ops.Decode(encoded)
	if err != nil {
		return nil, fmt.Errorf("prepare %s/%s: decode: %w", c.Name(), dataset, err)
	}
	if got != want {
		return nil, fmt.Errorf("prepare %s/%s: decoding does not read back the encoded value (checksum %x, want %x): the codec is broken", c.Name(), dataset, got, want)
	}
	size := len(encoded)
	ser := &Benchmark{
		Name: Name(OpSerialize, c.Name(), dataset), Codec: c.Name(), Dataset: dataset, Op: OpSerialize, Size: size,
		loop: func(n int) error {
			for range n {
				b, err := ops.Encode()
				if err != nil {
					return err
				}
				if len(b) != size {
					return fmt.Errorf("encoded size changed from %d to %d bytes", size, len(b))
				}
			}
			return nil
		},
	}
	de := &Benchmark{
		Name: Name(OpDeserialize, c.Name(), dataset), Codec: c.Name(), Dataset: dataset, Op: OpDeserialize, Size: size,
		loop: func(n int) error {
			for range n {
				sum, err := ops.Decode(encoded)
				if err != nil {
					return err
				}
				if sum != want {
					return fmt.Errorf("decoded checksum %x, want %x", sum, want)
				}
			}
			return nil
		},
	}
	return []*Benchmark{ser, de}, nil
}

// Loop runs b's operation n times, untimed. It is what go test -bench and
// the A/B worker drive.
func (b *Benchmark) Loop(n int) error {
	if err := b.loop(n); err != nil {
		return fmt.Errorf("%s: %w", b.Name, err)
	}
	return nil
}

// Axes are every codec and dataset of the suite, in report order, for
// results: charts order and colour by them.
func Axes() *results.Axes {
	a := &results.Axes{Codecs: CodecNames()}
	for _, d := range Datasets() {
		a.Datasets = append(a.Datasets, results.DatasetAxis{Name: d.Name, Elements: d.Elements})
	}
	return a
}
