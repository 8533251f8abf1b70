package matrix

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"

	"google.golang.org/protobuf/proto"
)

// The operations a benchmark measures.
const (
	Serialize   = "serialize"
	Deserialize = "deserialize"
)

// Message is one message to benchmark, in the forms its codecs need. A
// codec whose form is missing does not apply to the message and is left
// out (or, when it was asked for by name, is an error).
type Message struct {
	// Value is the message as a Go value, usually a pointer to a struct:
	// the form of the codecs that work by reflection (json, msgpack, gob)
	// and of Custom codecs. Decoded values of those codecs and of
	// FlatBuffers' Read are checked against it.
	Value any
	// Proto is the same message as generated protobuf code, for the
	// protobuf codec.
	Proto proto.Message
	// FlatBuffers builds and reads the message's FlatBuffers table.
	FlatBuffers *FlatBuffers
	// New and NewProto, when set, return a new, empty value of Value's
	// type and of Proto's type for decoders to decode into. Without them
	// the codecs make one by reflection, which costs a few dozen
	// nanoseconds a decode: enough to matter for a message of a few
	// fields.
	New      func() any
	NewProto func() proto.Message
	// Diff, when set, replaces the field-by-field comparison of a decoded
	// Go value with Value: it returns "" when they are equal, otherwise
	// the first difference.
	Diff func(want, got any) string
	// Sum, when set, reads every field of a decoded Go value (of Value's
	// type) and folds them into a number; SumProto does the same for a
	// decoded protobuf message. Deserialize benchmarks call them on every
	// decode and check the number, so reading the fields is part of the
	// time (a lazy or zero-copy decoder pays for what it defers).
	Sum      func(v any) uint64
	SumProto func(m proto.Message) uint64
}

// CheckValue compares a decoded Go value with m.Value: nil when equal,
// otherwise an error naming the first field that differs.
func (m *Message) CheckValue(got any) error {
	var d string
	if m.Diff != nil {
		d = m.Diff(m.Value, got)
	} else {
		d = diffValues(m.Value, got)
	}
	if d != "" {
		return fmt.Errorf("%w: %s", ErrMismatch, d)
	}
	return nil
}

// Codec is one serialization format. A new codec is one type implementing
// Codec (or one Custom value), given to Run in the list of codecs.
type Codec interface {
	// Name names the codec in benchmark names, e.g. "protobuf".
	Name() string
	// Bind prepares m in the codec's natural form (outside the timed
	// region) and returns the operations on it, or an error wrapping
	// ErrNotApplicable when m lacks the codec's form.
	Bind(m *Message) (Ops, error)
}

// Ops are one codec's operations on one bound message.
type Ops struct {
	// Encode serializes the message. The bytes may be reused by the next
	// call.
	Encode func() ([]byte, error)
	// Decode deserializes b into a fresh value of the codec's natural
	// form, every field materialised.
	Decode func(b []byte) (any, error)
	// Check compares a decoded value with the message: nil when equal,
	// otherwise an error naming the first field that differs.
	Check func(decoded any) error
	// Sum, when not nil, reads every field of a decoded value into a
	// number (see Message.Sum).
	Sum func(decoded any) uint64
}

// Errors.
var (
	// ErrNotApplicable is wrapped by Bind when a message lacks the form a
	// codec encodes.
	ErrNotApplicable = errors.New("the codec does not apply to the message")
	// ErrMismatch is wrapped when a codec's decoding of its own encoding
	// differs from the message.
	ErrMismatch = errors.New("decoding does not give back the message")
)

// Defaults are the codecs that run when none are named: every built-in
// codec, each of which takes part when the message has its form.
func Defaults() []Codec {
	return []Codec{Protobuf{}, FlatBuffersCodec{}, FlatBuffersCodec{Reuse: true}, MsgPack{}, JSON{}, Gob{}}
}

// Benchmark is one codec, dataset and operation, checked and ready to
// run.
type Benchmark struct {
	// Name is the sub-benchmark's name: codec=C/dataset=D/op=O, or
	// codec=C/dataset=D when one operation was asked for.
	Name               string
	Codec, Dataset, Op string
	// Size is the encoded message size in bytes.
	Size int
	loop func(n int) error
}

// Loop runs the operation n times. Every encode must give the same size;
// with a Sum, every decode must read back the message's sum.
func (b *Benchmark) Loop(n int) error {
	if err := b.loop(n); err != nil {
		return fmt.Errorf("codec %s, dataset %s, %s: %w", b.Codec, b.Dataset, b.Op, err)
	}
	return nil
}

// Prepare binds m to every codec (Defaults when none are given: those
// that do not apply are left out), encodes it once and checks that
// decoding gives it back, and returns a serialize and a deserialize
// benchmark per codec. op, when not "", keeps only that operation (and
// leaves the op level out of the names).
func Prepare(dataset string, m *Message, op string, codecs ...Codec) ([]*Benchmark, error) {
	explicit := len(codecs) > 0
	if !explicit {
		codecs = Defaults()
	}
	if op != "" && op != Serialize && op != Deserialize {
		return nil, fmt.Errorf("operation %q: want %q, %q or \"\" for both", op, Serialize, Deserialize)
	}
	var out []*Benchmark
	for _, c := range codecs {
		bs, err := prepare(c, dataset, m, op)
		if errors.Is(err, ErrNotApplicable) && !explicit {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dataset %s: no codec applies to the message (give Message.Value, Proto or FlatBuffers)", dataset)
	}
	return out, nil
}

func prepare(c Codec, dataset string, m *Message, op string) ([]*Benchmark, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("codec %s, dataset %s: %w", c.Name(), dataset, fmt.Errorf(format, args...))
	}
	ops, err := c.Bind(m)
	if err != nil {
		return nil, fail("%w", err)
	}
	enc, err := ops.Encode()
	if err != nil {
		return nil, fail("encode: %w", err)
	}
	encoded := bytes.Clone(enc)
	got, err := ops.Decode(encoded)
	if err != nil {
		return nil, fail("decode: %w", err)
	}
	if err := ops.Check(got); err != nil {
		return nil, fail("%w", err)
	}
	var want uint64
	if ops.Sum != nil {
		want = ops.Sum(got)
	}
	size := len(encoded)
	name := func(o string) string {
		n := "codec=" + c.Name() + "/dataset=" + dataset
		if op == "" {
			n += "/op=" + o
		}
		return n
	}
	var out []*Benchmark
	if op == "" || op == Serialize {
		out = append(out, &Benchmark{Name: name(Serialize), Codec: c.Name(), Dataset: dataset, Op: Serialize, Size: size,
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
			}})
	}
	if op == "" || op == Deserialize {
		out = append(out, &Benchmark{Name: name(Deserialize), Codec: c.Name(), Dataset: dataset, Op: Deserialize, Size: size,
			loop: func(n int) error { return decodeLoop(ops, encoded, want, n) }})
	}
	return out, nil
}

// sink keeps decoded values alive, so the compiler cannot drop a decode
// whose result is not read.
var sink any

func decodeLoop(ops Ops, encoded []byte, want uint64, n int) error {
	for range n {
		v, err := ops.Decode(encoded)
		if err != nil {
			return err
		}
		if ops.Sum != nil {
			if sum := ops.Sum(v); sum != want {
				return fmt.Errorf("decoded sum %x, want %x", sum, want)
			}
			continue
		}
		sink = v
	}
	return nil
}

// Run runs m on every codec (Defaults when none are given) as
// sub-benchmarks of b, both operations: codec=C/dataset=D/op=O, each
// reporting allocations, and serialize benchmarks the encoded size as
// B/msg. A codec that does not give the message back fails b.
func Run(b *testing.B, dataset string, m *Message, codecs ...Codec) {
	b.Helper()
	run(b, dataset, m, "", codecs)
}

// RunOp is Run for one operation (Serialize or Deserialize), named
// codec=C/dataset=D under b.
func RunOp(b *testing.B, op, dataset string, m *Message, codecs ...Codec) {
	b.Helper()
	run(b, dataset, m, op, codecs)
}

func run(b *testing.B, dataset string, m *Message, op string, codecs []Codec) {
	b.Helper()
	benches, err := Prepare(dataset, m, op, codecs...)
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range benches {
		b.Run(bm.Name, func(b *testing.B) { timed(b, bm) })
	}
}

// MaxBatchBytes bounds the garbage a run makes between collections: the
// collector is off while timing, and a collection, untimed, comes after
// every batch of iterations that allocates about this much.
const MaxBatchBytes = 32 << 20

// timed runs b.N iterations of bm with the collector off while timing, so
// one benchmark's garbage is not collected on another's time and a
// collection cycle does not land inside some runs and not others; batches
// are cut so at most MaxBatchBytes of garbage piles up (more would make
// the heap grow into fresh pages, whose faults vary from run to run).
func timed(b *testing.B, bm *Benchmark) {
	b.ReportAllocs()
	chunk := b.N
	var before, after runtime.MemStats
	k := min(probe, b.N)
	runtime.ReadMemStats(&before)
	if err := bm.Loop(k); err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(k); perOp > 0 {
		chunk = max(1, int(MaxBatchBytes/perOp))
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(chunk, b.N-done)
		if done > 0 {
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
		}
		if err := bm.Loop(n); err != nil {
			b.Fatal(err)
		}
		done += n
	}
	b.StopTimer()
	// After the loop: ResetTimer clears reported metrics.
	if bm.Op == Serialize {
		b.ReportMetric(float64(bm.Size), "B/msg")
	}
}

// probe is the most iterations that estimate a benchmark's garbage per
// operation (and warm it up) before timing.
const probe = 16
