package baseline

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/results"
)

// TestProfileSize measures what the compact profiles add to a stored
// baseline, on a test baseline shaped like the default suite's: 84
// counted benchmarks in 5 processes, each with a run profile of 131
// functions whose costs fall off as 1/rank, names of 40 bytes on
// average, as a real block of Serialize protobuf/medium's (131
// functions, names of 36 bytes on average among the costliest 30, which
// make up 87% of its instructions, 71 of them 99%), and a module's 100.
// It fails when a benchmark's profile adds more than maxPerBenchmark
// bytes, and logs the sizes, as written and compressed as git stores
// them (docs/counted.md).
func TestProfileSize(t *testing.T) {
	const maxPerBenchmark = 4 << 10
	for _, n := range []int{84, 100} {
		with, without := suiteResults(n, true), suiteResults(n, false)
		a, err := New(with, "").Encode()
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(without, "").Encode()
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		for _, bm := range New(with, "").Reference.Benchmarks {
			kept += len(bm.Profile.Functions)
		}
		added := len(a) - len(b)
		t.Logf("%d benchmarks: a baseline of one run is %d bytes without profiles, %d with (+%d, %d a benchmark, %.1f functions kept of %d); compressed %d and %d",
			n, len(b), len(a), added, added/n, float64(kept)/float64(n), runFunctions, deflated(t, b), deflated(t, a))
		if added > n*maxPerBenchmark {
			t.Errorf("the profiles add %d bytes a benchmark, more than %d", added/n, maxPerBenchmark)
		}
		if added <= 0 {
			t.Error("the profiles add nothing: not stored?")
		}
	}
}

// runFunctions is how many functions a run's profile has.
const runFunctions = 131

// deflated is the size of data compressed (zlib, as git stores objects).
func deflated(t *testing.T, data []byte) int {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}

// suiteResults is a counted run of n benchmarks, with profiles or not.
func suiteResults(n int, profiles bool) *results.Results {
	rng := rand.New(rand.NewPCG(1, 2))
	r := results.New("default", results.Env{Machine: "m"})
	r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}
	for i := range n {
		b := results.Benchmark{Name: fmt.Sprintf("BenchmarkSerialize/codec=protobuf/dataset=d%03d", i), Iterations: []int64{64, 64, 64, 64, 64}}
		total := 1000 + 1e6*rng.Float64()
		for range 5 {
			b.Add(results.UnitInstructionsPerOp, total*(1+0.001*rng.NormFloat64()))
			b.Add(results.UnitAllocsPerOp, 12)
			b.Add(results.UnitBytesPerOp, 1024)
		}
		if profiles {
			costs := map[string]results.Cost{}
			norm := 0.0
			for k := range runFunctions {
				norm += 1 / float64(k+1)
			}
			for k := range runFunctions {
				// 40 bytes on average: a package path, a receiver, a name
				name := fmt.Sprintf("example.com/codec/internal/%s.(*T).f%03d", strings.Repeat("p", rng.IntN(17)), k)
				costs[name] = results.Cost{Instructions: total / float64(k+1) / norm}
			}
			b.Profile = results.NewProfile(costs)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	return r
}

// TestNewCompactsProfiles: a stored reference keeps compact profiles
// (ProfileShare, ProfileFunctions), the run it was made from keeps its
// own, and the baseline file reads back with them.
func TestNewCompactsProfiles(t *testing.T) {
	r := suiteResults(2, true)
	b := New(r, "")
	for i, bm := range b.Reference.Benchmarks {
		p, full := bm.Profile, r.Benchmarks[i].Profile
		if len(p.Functions) != ProfileFunctions || p.Omitted != len(full.Functions)-ProfileFunctions+full.Omitted {
			t.Errorf("%s: stored %d functions, %d left out; the run has %d (%d left out)", bm.Name, len(p.Functions), p.Omitted, len(full.Functions), full.Omitted)
		}
		if got, want := p.Total().Instructions, full.Total().Instructions; got < want*0.999 || got > want*1.001 {
			t.Errorf("%s: the stored profile adds up to %v, the run's to %v", bm.Name, got, want)
		}
	}
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode("b.json", data, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Reference.Benchmarks[1].Profile; got == nil || got.Functions[0] != b.Reference.Benchmarks[1].Profile.Functions[0] {
		t.Errorf("read back %+v", got)
	}
	// A run without profiles is stored as it is.
	plain := suiteResults(2, false)
	if New(plain, "").Reference != plain {
		t.Error("a run without profiles was copied")
	}
}
