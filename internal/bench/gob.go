package bench

import (
	"bytes"
	"encoding/gob"
)

// Gob is encoding/gob, Go's native self-describing format (the role
// pickle and Storable play for Python and Perl). Each message gets a fresh
// Encoder and Decoder, so every message carries its type description and
// stands alone like every other codec's; a stream reusing one encoder
// would amortise that description across messages.
type Gob struct{}

func (Gob) Name() string { return "gob" }

func (c Gob) Bind(v any) (Ops, error) {
	return reflectOps(c, v, gobMarshal, gobUnmarshal)
}

func gobMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func gobUnmarshal(b []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(b)).Decode(v)
}
