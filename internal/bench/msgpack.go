package bench

import "github.com/vmihailenco/msgpack/v5"

// MsgPack is MessagePack through github.com/vmihailenco/msgpack/v5 with its
// default settings, on Go structs with snake_case field names (structs
// encode as maps, ints at their declared width).
type MsgPack struct{}

func (MsgPack) Name() string { return "msgpack" }

func (c MsgPack) Bind(v any) (Ops, error) {
	return reflectOps(c, v, msgpack.Marshal, msgpack.Unmarshal)
}
