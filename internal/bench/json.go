package bench

import "encoding/json"

// JSON is encoding/json from the standard library: the text-format
// reference point.
type JSON struct{}

func (JSON) Name() string { return "json" }

func (c JSON) Bind(v any) (Ops, error) {
	return reflectOps(c, v, json.Marshal, json.Unmarshal)
}
