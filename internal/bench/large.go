package bench

import (
	"encoding/binary"
	"fmt"
	"math"

	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	"github.com/wirebench/wirebench/matrix"
	"github.com/wirebench/wirebench/schemas/fb"
	"github.com/wirebench/wirebench/schemas/pb"
)

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

// largeMessage is v in every form.
func largeMessage(v *Large) *matrix.Message {
	msg := &pb.LargeMessage{Items: make([]*pb.ComplexItem, len(v.Items))}
	for i, it := range v.Items {
		msg.Items[i] = &pb.ComplexItem{Name: it.Name, Id: it.ID, Score: it.Score, Tags: it.Tags}
	}
	items := make([]flatbuffers.UOffsetT, len(v.Items))
	var tags []flatbuffers.UOffsetT
	return &matrix.Message{
		Value:    v,
		New:      func() any { return new(Large) },
		NewProto: func() proto.Message { return new(pb.LargeMessage) },
		Proto:    msg,
		FlatBuffers: &matrix.FlatBuffers{
			Build: func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
				for i := range v.Items {
					it := &v.Items[i]
					name := b.CreateString(it.Name)
					tags = tags[:0]
					for _, t := range it.Tags {
						tags = append(tags, b.CreateString(t))
					}
					tagsOff := fbOffsets(b, tags)
					fb.ComplexItemStart(b)
					fb.ComplexItemAddName(b, name)
					fb.ComplexItemAddId(b, it.ID)
					fb.ComplexItemAddScore(b, it.Score)
					fb.ComplexItemAddTags(b, tagsOff)
					items[i] = fb.ComplexItemEnd(b)
				}
				itemsOff := fbOffsets(b, items)
				fb.LargeMessageStart(b)
				fb.LargeMessageAddItems(b, itemsOff)
				return fb.LargeMessageEnd(b)
			},
			Read: readLarge,
		},
		Sum: func(x any) uint64 {
			m := x.(*Large)
			c := newChecksum()
			c = c.u64(uint64(len(m.Items)))
			for i := range m.Items {
				it := &m.Items[i]
				c = c.str(it.Name)
				c = c.i32(it.ID)
				c = c.f64(it.Score)
				c = c.u64(uint64(len(it.Tags)))
				for _, t := range it.Tags {
					c = c.str(t)
				}
			}
			return uint64(c)
		},
		SumProto: func(x proto.Message) uint64 {
			m := x.(*pb.LargeMessage)
			c := newChecksum()
			c = c.u64(uint64(len(m.GetItems())))
			for _, it := range m.GetItems() {
				c = c.str(it.GetName())
				c = c.i32(it.GetId())
				c = c.f64(it.GetScore())
				c = c.u64(uint64(len(it.GetTags())))
				for _, t := range it.GetTags() {
					c = c.str(t)
				}
			}
			return uint64(c)
		},
	}
}

// readLarge reads every field of a LargeMessage table.
func readLarge(buf []byte) any {
	m := fb.GetRootAsLargeMessage(buf, 0)
	out := &Large{Items: make([]Item, m.ItemsLength())}
	var it fb.ComplexItem
	for i := range out.Items {
		m.Items(&it, i)
		tags := make([]string, it.TagsLength())
		for j := range tags {
			tags[j] = string(it.Tags(j))
		}
		out.Items[i] = Item{Name: string(it.Name()), ID: it.Id(), Score: it.Score(), Tags: tags}
	}
	return out
}

// rawLargeCodec is the raw codec of a *Large.
var rawLargeCodec = raw[Large]{bind: func(v *Large) (func() []byte, func(*rawReader) *Large) {
	enc := func() []byte {
		n := 4
		for i := range v.Items {
			n += 4 + len(v.Items[i].Name) + 4 + 8 + 4
			for _, t := range v.Items[i].Tags {
				n += 4 + len(t)
			}
		}
		b := make([]byte, 0, n)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v.Items)))
		for i := range v.Items {
			it := &v.Items[i]
			b = rawString(b, it.Name)
			b = binary.LittleEndian.AppendUint32(b, uint32(it.ID))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(it.Score))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(it.Tags)))
			for _, t := range it.Tags {
				b = rawString(b, t)
			}
		}
		return b
	}
	dec := func(r *rawReader) *Large {
		l := &Large{Items: make([]Item, r.count(4+4+8+4))}
		for i := range l.Items {
			it := &l.Items[i]
			it.Name, it.ID, it.Score = r.string(), r.int32(), r.float64()
			it.Tags = make([]string, r.count(4))
			for j := range it.Tags {
				it.Tags[j] = r.string()
			}
		}
		return l
	}
	return enc, dec
}}
