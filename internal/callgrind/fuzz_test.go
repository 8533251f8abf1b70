package callgrind

import (
	"io"
	"os"
	"strings"
	"testing"
)

// FuzzReadDump: whatever a dump file holds (a worker built from a pull
// request writes it), ReadDump and ReadProfile return counts or an
// error, never panic; what they accept names instructions, and a profile
// adds up to its totals; ReadLines and WriteCachegrind do not panic either.
func FuzzReadDump(f *testing.F) {
	for _, name := range []string{"testdata/instructions.dump", "testdata/cachesim.dump", "testdata/profile-head.dump"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("events: Ir\ntotals: 18446744073709551615\n")
	f.Fuzz(func(t *testing.T, dump string) {
		c, err := ReadDump(strings.NewReader(dump))
		if err == nil && !strings.Contains(dump, "Ir") {
			t.Errorf("accepted a dump without Ir: %+v", c)
		}
		_ = c.EstCycles()
		total, p, err := ReadProfile(strings.NewReader(dump))
		if err == nil && (total.Ir != p.Total().Ir || total != c) {
			t.Errorf("ReadProfile: totals %+v (ReadDump's %+v), its functions add up to %+v", total, c, p.Total())
		}
		if lines, err := ReadLines(strings.NewReader(dump)); err == nil {
			_ = WriteCachegrind(io.Discard, "x", lines, lines)
		}
	})
}
