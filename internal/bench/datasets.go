package bench

import (
	"fmt"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/matrix"
)

// Dataset is one payload of the suite.
type Dataset struct {
	Name string
	// Description says what the payload is.
	Description string
	// OptIn datasets only run when a filter names them explicitly: they
	// need more memory or time than a default CI run should spend.
	OptIn bool
	// Elements is the number of array elements (the numeric family) or 0.
	Elements int
	// Message builds the message in every codec's form. It is
	// deterministic: every call, codec and run gets semantically identical
	// values.
	Message func() *matrix.Message
	// Raw is the hand-written floor codec of the dataset's type.
	Raw matrix.Codec
}

// Codecs are the codecs of the suite for d, in report order: every
// built-in codec of the matrix package, then the raw floor.
func (d Dataset) Codecs() []matrix.Codec { return append(matrix.Defaults(), d.Raw) }

// CodecNames names the suite's codecs, in report order.
func CodecNames() []string {
	var names []string
	for _, c := range (Dataset{Raw: rawPrimitiveCodec}).Codecs() {
		names = append(names, c.Name())
	}
	return names
}

// Datasets returns the suite's datasets, default ones first, in order of
// growing size. Adding one of a new shape is one file: its Go type, its
// message in every form (schemas/ holds the protobuf and FlatBuffers
// schemas), its raw codec, and a line here.
func Datasets() []Dataset {
	return []Dataset{
		{Name: "small", Description: "4 primitive fields (int, float, string, bool)",
			Message: func() *matrix.Message { return smallMessage(NewSmall()) }, Raw: rawPrimitiveCodec},
		{Name: "medium", Description: "nested object, numeric array, string map",
			Message: func() *matrix.Message { return mediumMessage(NewMedium()) }, Raw: rawMediumCodec},
		{Name: "large", Description: "100 complex objects with nested arrays",
			Message: func() *matrix.Message { return largeMessage(NewLarge()) }, Raw: rawLargeCodec},
		floatsDataset("floats-1k", 1<<10, false),
		floatsDataset("floats-64k", 1<<16, false),
		floatsDataset("floats-1m", 1<<20, false),
		floatsDataset("floats-16m", 1<<24, true),
		{Name: "pairs-100x250k", Description: "100 pairs of 250,000 doubles (381 MB raw); all 7 codecs at once peak at about 11 GB of memory", OptIn: true,
			Elements: 100 * 2 * 250_000, Message: func() *matrix.Message { return pairsMessage(NewPairs(100, 250_000)) }, Raw: rawPairsCodec},
	}
}

func floatsDataset(name string, n int, optIn bool) Dataset {
	return Dataset{
		Name:        name,
		Description: fmt.Sprintf("%d doubles (%s raw)", n, human.Bytes(float64(8*n))),
		OptIn:       optIn,
		Elements:    n,
		Message:     func() *matrix.Message { return floatsMessage(NewFloats(n)) },
		Raw:         rawFloatsCodec,
	}
}
