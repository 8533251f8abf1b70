// Package rows encodes a small order; slow turns on what makes a head
// slower in ways a count may not see.
package rows

import (
	"encoding/binary"
	"os"
	"strings"
	"syscall"
	"time"
)

const slow = false

type Order struct {
	ID    uint64
	Items []uint32
	Note  string
}

func Encode(dst []byte, o *Order) []byte {
	dst = binary.AppendUvarint(dst, o.ID)
	dst = binary.AppendUvarint(dst, uint64(len(o.Items)))
	for _, it := range o.Items {
		dst = binary.AppendUvarint(dst, uint64(it))
	}
	dst = binary.AppendUvarint(dst, uint64(len(o.Note)))
	return append(dst, o.Note...)
}

func EncodeSleep(dst []byte, o *Order) []byte {
	if slow {
		time.Sleep(50 * time.Microsecond)
	}
	return Encode(dst, o)
}

var devNull, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)

func EncodeWrite(dst []byte, o *Order) []byte {
	dst = Encode(dst, o)
	if slow {
		devNull.Write(dst[:1])
	}
	return dst
}

func EncodeSyscalls(dst []byte, o *Order) []byte {
	if slow {
		for range 20 {
			syscall.Getpid()
		}
	}
	return Encode(dst, o)
}

// underValgrind is what code that behaves differently when watched
// looks at.
var underValgrind = func() bool {
	m, _ := os.ReadFile("/proc/self/maps")
	return strings.Contains(string(m), "vgpreload")
}()

func EncodeNative(dst []byte, o *Order) []byte {
	if slow && !underValgrind {
		dst = Encode(dst, o)
		dst = dst[:0]
	}
	return Encode(dst, o)
}

var near, far = make([]uint32, 64<<20/4), make([]uint32, 64<<20/4)

// Walk follows 1,000 links of a 64 MiB table: to the next entry, or
// (slow) to a random one: the same instructions either way.
func Walk() uint32 {
	t := near
	if slow {
		t = far
	}
	i := uint32(0)
	for range 1000 {
		i = t[i]
	}
	return i
}

func init() {
	for i := range near {
		near[i] = uint32(i + 1)
	}
	near[len(near)-1] = 0
	for i := range far {
		far[i] = uint32(i)
	}
	x := uint64(88172645463325252)
	for i := len(far) - 1; i > 0; i-- { // one cycle through every entry (Sattolo)
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i))
		far[i], far[j] = far[j], far[i]
	}
}
