package history

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
)

// readAA reads a history from a TSV of medians (testdata/rows-aa-*.tsv):
// one entry a run, with the units keep selects.
func readAA(t *testing.T, path string, keep func(unit string) bool) []baseline.Entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var h []baseline.Entry
	sc := bufio.NewScanner(f)
	header := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if !header {
			header = true
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			t.Fatalf("%s: %q: want 6 fields", path, line)
		}
		run, err1 := strconv.Atoi(f[0])
		v, err2 := strconv.ParseFloat(f[5], 64)
		if err1 != nil || err2 != nil || run < 1 {
			t.Fatalf("%s: %q: %v %v", path, line, err1, err2)
		}
		for len(h) < run {
			i := len(h)
			h = append(h, baseline.Entry{Seq: int64(i + 1), Time: time.Date(2026, 12, 4, 15, 34, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute),
				Commit: fmt.Sprintf("%040x", i+1), RunID: strconv.Itoa(i + 1), Medians: map[string]map[string]float64{}})
		}
		if !keep(f[4]) {
			continue
		}
		m := h[run-1].Medians
		if m[f[3]] == nil {
			m[f[3]] = map[string]float64{}
		}
		m[f[3]][f[4]] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestRealAAHistory replays the pushes of a real A/A history (the rows
// module's 25 runs of unchanged code, counted and timed, half of them
// beside a CPU hog: testdata/rows-aa-2026-12-04.tsv) with the default
// settings: the counts show no change point and no creep on any push;
// the timings' false change points, if any, are logged
// (docs/lab/change-points.md, "What the models measured").
func TestRealAAHistory(t *testing.T) {
	const path = "testdata/rows-aa-2026-12-04.tsv"
	counted := readAA(t, path, func(u string) bool { return u != "ns/op" })
	timed := readAA(t, path, func(u string) bool { return u == "ns/op" })
	for _, tt := range []struct {
		name     string
		h        []baseline.Entry
		o        Options
		mustHold bool
	}{
		{"counted", counted, Options{Creep: CreepOptions{Limit: 0.02, Runs: 20}}, true},
		{"timed", timed, Options{}, false},
		// The counts' tests alone, without the floors (a step of any
		// size, a creep of any size): how the statistics fare on real
		// counts, whose medians move by a few hundredths of a percent in
		// steps of whole instructions.
		{"counted without floors", counted, Options{Floor: 1e-12, Creep: CreepOptions{Limit: 1e-12, Runs: 20}}, false},
	} {
		o := tt.o
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.h) != 25 {
				t.Fatalf("%d runs, want 25", len(tt.h))
			}
			pushes, withPoint := 0, 0
			for n := 2; n <= len(tt.h); n++ {
				a := Analyze(tt.h[:n], tt.h[:n-1], o)
				pushes++
				news := a.NewPoints()
				if a.Creep != nil {
					for _, c := range a.Creep.Found {
						if c.New {
							t.Logf("push %d: creep %+v", n, c)
							withPoint++
						}
					}
				}
				if len(news) > 0 {
					withPoint++
					for _, p := range news {
						t.Logf("push %d: change point %s %s at run %d, %+.2f%% (%s, p %.2g)", n, p.Key, p.Unit, p.Run+1, 100*p.Step, p.Model, p.P)
					}
				}
			}
			t.Logf("%s: %d of %d pushes with a new change point or creep", tt.name, withPoint, pushes)
			if tt.mustHold && withPoint > 0 {
				t.Errorf("%d of %d pushes of an A/A history show a change point or creep, want none", withPoint, pushes)
			}
		})
	}
}
