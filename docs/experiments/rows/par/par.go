// Package par encodes from many goroutines at once.
package par

import (
	"encoding/binary"
	"sync"
)

const slow = false

var mu sync.Mutex

func Encode(dst []byte, items []uint32) []byte {
	if slow {
		mu.Lock()
		defer mu.Unlock()
	}
	for _, it := range items {
		dst = binary.AppendUvarint(dst, uint64(it))
	}
	return dst
}
