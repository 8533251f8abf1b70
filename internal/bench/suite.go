package bench

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/matrix"
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
	// checksum of the message.
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

// codecs are the codecs of d that sel selects a benchmark of.
func (s Selection) codecs(d Dataset) []matrix.Codec {
	var out []matrix.Codec
	for _, c := range d.Codecs() {
		if s.match(Name(OpSerialize, c.Name(), d.Name)) || s.match(Name(OpDeserialize, c.Name(), d.Name)) {
			out = append(out, c)
		}
	}
	return out
}

// Names lists the benchmarks sel selects, without preparing any.
func Names(sel Selection, datasets []Dataset) []string {
	var out []string
	for _, d := range datasets {
		if !sel.includesDataset(d) {
			continue
		}
		for _, c := range d.Codecs() {
			for _, op := range []string{OpSerialize, OpDeserialize} {
				if n := Name(op, c.Name(), d.Name); sel.match(n) {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// Prepare builds the selected benchmarks of the suite with the matrix
// package: for every dataset and codec it binds the message, encodes it
// once, and checks that decoding gives it back. A codec that fails that
// check is an error naming the field: a fast wrong codec is a bug, not a
// result.
func Prepare(sel Selection, datasets []Dataset) ([]*Benchmark, error) {
	var out []*Benchmark
	for _, d := range datasets {
		if !sel.includesDataset(d) {
			continue
		}
		codecs := sel.codecs(d)
		if len(codecs) == 0 {
			continue
		}
		prepared, err := matrix.Prepare(d.Name, d.Message(), "", codecs...)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		for _, p := range prepared {
			b := &Benchmark{Name: Name(p.Op, p.Codec, d.Name), Codec: p.Codec, Dataset: d.Name, Op: p.Op, Size: p.Size, loop: p.Loop}
			if sel.match(b.Name) {
				out = append(out, b)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the filter %q matches no benchmark (names look like %s)", sel.Filter, Name(OpSerialize, "protobuf", "small"))
	}
	return out, nil
}

// Loop runs b's operation n times, untimed. It is what go test -bench and
// the A/B worker drive.
func (b *Benchmark) Loop(n int) error { return b.loop(n) }

// Axes are every codec and dataset of the suite, in report order, for
// results: charts order and colour by them.
func Axes() *results.Axes {
	a := &results.Axes{Codecs: CodecNames()}
	for _, d := range Datasets() {
		a.Datasets = append(a.Datasets, results.DatasetAxis{Name: d.Name, Elements: d.Elements})
	}
	return a
}
