package results

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/wirebench/wirebench/internal/stats"
)

// Format names the JSON document kind, so a results file is never mistaken
// for a baseline or another tool's JSON.
const Format = "wirebench.results"

// Version is the results format version this build writes. Reading a file
// with a newer version is an error, never a silent misread.
const Version = 1

// Standard units. Timings are noisy; encoded size is exact.
const (
	UnitNsPerOp     = "ns/op"
	UnitBytesPerOp  = "B/op"
	UnitAllocsPerOp = "allocs/op"
	UnitBytesPerMsg = "B/msg"
	UnitMBPerSec    = "MB/s"
	// Counted work (internal/callgrind): instructions executed per
	// operation, and cycles per operation estimated from callgrind's
	// cache simulation. Their samples are one per worker process.
	UnitInstructionsPerOp = "instructions/op"
	UnitEstCyclesPerOp    = "est-cycles/op"
	// UnitGCInstructionsPerOp is the collector's counted work an
	// operation: the instructions of one collection counted after a
	// block (marking what the run left reachable, sweeping what it
	// allocated), times the collections an operation causes at the
	// process's GOGC, its bytes allocated over the heap's room after
	// that collection. A counted block runs with the collector off, so
	// instructions/op holds none of it.
	UnitGCInstructionsPerOp = "gc-instructions/op"
)

// IsCounted reports whether unit is counted work rather than a timing or
// a size: its samples are processes, each the reduction of that
// process's counted blocks.
func IsCounted(unit string) bool {
	return unit == UnitInstructionsPerOp || unit == UnitEstCyclesPerOp || unit == UnitGCInstructionsPerOp
}

// The operations a serialization benchmark measures (Benchmark.Op).
const (
	OpSerialize   = "serialize"
	OpDeserialize = "deserialize"
)

// Results is one run of a suite.
type Results struct {
	Format     string      `json:"format"`
	Version    int         `json:"version"`
	Suite      string      `json:"suite"`
	Env        Env         `json:"env"`
	Settings   Settings    `json:"settings"`
	Benchmarks []Benchmark `json:"benchmarks"`
	// Axes are the suite's codecs and datasets, when the run is of a
	// codec-by-dataset suite: charts and tables order and colour by them
	// without knowing the suite.
	Axes *Axes `json:"axes,omitempty"`
	// Shards is set on results merged from the shards of a matrix: one
	// entry per shard; each benchmark's Shard says which measured it.
	Shards []ShardRun `json:"shards,omitempty"`
	// Clock is set on a counted run that was also timed (metric auto
	// against a stored baseline): the same benchmarks timed natively, a
	// timed run of its own, with its own settings and samples. It is the
	// wall-time check's: what a count cannot see (waiting, the kernel,
	// caches) is judged on it against the baseline's.
	Clock *Results `json:"clock,omitempty"`
	// Hashes is the identity of each package's test binary as measured
	// (gotest.Hash: the binary, the toolchain, GOOS/GOARCH, the build
	// flags and the package's files that are not Go source), by package,
	// for a go test run: a later check skips a package whose hash is the
	// same as its baseline's.
	Hashes map[string]string `json:"hashes,omitempty"`
	// Unmeasured are the packages of Hashes that were not measured because
	// the stored baseline records the same hash for them: the baseline's
	// values stand for their benchmarks.
	Unmeasured []string `json:"unmeasured,omitempty"`
	// Troubles are the benchmarks (and packages) the run could not
	// measure as it measured the others, each with why: skipped or
	// failed natively, not counted under Valgrind, not built. A
	// benchmark with a trouble may still be in Benchmarks with what was
	// measured of it (its wall time, where it ran natively).
	Troubles []Trouble `json:"troubles,omitempty"`
}

// Settings records how a run was made, so it can be reproduced. Samples,
// Budget, Warmup, MaxBatchBytes, Filter and the sharding decide the batch
// sizes the harness plans, and with them what a timing measures (fixed
// costs amortised over more or fewer iterations): see Harness.
type Settings struct {
	Samples int           `json:"samples,omitempty"`
	Budget  time.Duration `json:"budget_ns,omitempty"`
	Filter  string        `json:"filter,omitempty"`
	Seed    uint64        `json:"seed,omitempty"`
	Source  string        `json:"source,omitempty"` // "wirebench" or "go test -bench"
	Elapsed time.Duration `json:"elapsed_ns,omitempty"`
	Rounds  int           `json:"rounds,omitempty"` // rounds completed (may be fewer than Samples when the budget ran out)
	// Warmup is the warm-up of each benchmark, whose last batch sizes the
	// first sample's; MaxBatchBytes bounds the memory a batch may
	// allocate, and with it the batch size of allocating benchmarks. 0:
	// not recorded (results of older versions, go test -bench).
	Warmup        time.Duration `json:"warmup_ns,omitempty"`
	MaxBatchBytes int64         `json:"max_batch_bytes,omitempty"`
	// Shard is "I/N" when this run measured one shard of a partitioned
	// suite; Partition identifies the partition (every shard of one matrix
	// run must agree on it) and SuiteSize is the number of benchmarks over
	// all shards.
	Shard     string `json:"shard,omitempty"`
	Partition string `json:"partition,omitempty"`
	SuiteSize int    `json:"suite_size,omitempty"`
	// OtherCPUs is how many CPUs' worth of other processes' work ran
	// beside a timed run, on average (package load): 0.95 is one CPU
	// busy with something else nearly all the time. 0 where not
	// recorded. It decides nothing of what the run measured, only
	// whether its timings of benchmarks that run on every CPU can be
	// judged against another run's (compare.BusyCheck).
	OtherCPUs float64 `json:"other_cpus,omitempty"`
	// Counter is set on a counted run: how its work was counted. Its
	// benchmarks' Iterations are then the counted block size of each
	// process (one sample per process).
	Counter *Counter `json:"counter,omitempty"`
}

// Axes are a codec-by-dataset suite's codecs and datasets, each in the
// suite's order, all of them (not only those a filtered run measured), so
// that a codec keeps its place and colour whatever ran.
type Axes struct {
	Codecs   []string      `json:"codecs"`
	Datasets []DatasetAxis `json:"datasets"`
}

// DatasetAxis is one dataset of the suite: its name and, for the numeric
// family that shows how cost grows with payload size, its element count.
type DatasetAxis struct {
	Name     string `json:"name"`
	Elements int    `json:"elements,omitempty"`
}

// ShardRun records one shard of a merged run: which it was, where it ran
// and how long it took.
type ShardRun struct {
	Index      int           `json:"index"`
	Count      int           `json:"count"`
	Env        Env           `json:"env"`
	Benchmarks int           `json:"benchmarks"`
	Elapsed    time.Duration `json:"elapsed_ns,omitempty"`
}

// Benchmark is the samples of one benchmark. Name is the full Go benchmark
// name, e.g. "BenchmarkSerialize/codec=protobuf/dataset=small".
type Benchmark struct {
	// Pkg is the import path of the package the benchmark is in, for a
	// module's own go test benchmarks ("" for the embedded suite's): two
	// packages' BenchmarkMarshal are two benchmarks.
	Pkg     string `json:"pkg,omitempty"`
	Name    string `json:"name"`
	Codec   string `json:"codec,omitempty"`
	Dataset string `json:"dataset,omitempty"`
	Op      string `json:"op,omitempty"` // OpSerialize or OpDeserialize
	// Iterations is the batch size behind each sample, in sample order.
	Iterations []int64 `json:"iterations,omitempty"`
	// Seeds is, on a counted run, the seed of the process behind each
	// sample, in sample order: it chose the process's order of
	// benchmarks and, where the worker could take it, the program's
	// random state (docs/counted.md). Two builds' samples of one seed
	// met the same inputs, so a comparison pairs them. Empty when not
	// recorded.
	Seeds   []uint64 `json:"seeds,omitempty"`
	Metrics []Metric `json:"metrics"`
	// NativeNsPerOp is, on a counted run, how long one operation took
	// natively in the calibration before counting (one short warm-up on
	// this machine): too rough to gate on, but what a count must explain
	// (see Unseen). 0 when not measured.
	NativeNsPerOp float64 `json:"native_ns_per_op,omitempty"`
	// Parallel is set on a benchmark of a function that calls
	// RunParallel: counted, its goroutines ran one at a time (Valgrind
	// runs one thread at a time), so its count is its serial work.
	Parallel bool `json:"parallel,omitempty"`
	// Shard is the index of the shard that measured this benchmark, in
	// merged results; 0 otherwise.
	Shard int `json:"shard,omitempty"`
	// Profile is, on a counted run, where the benchmark's work went:
	// the self cost per operation of its functions, reduced across its
	// processes as its count is (a stored baseline's reference keeps a
	// compact one). Nil when not counted, or not read.
	Profile *Profile `json:"profile,omitempty"`
}

// ShardEnv returns the environment the benchmark was measured in: its
// shard's in merged results, r.Env otherwise.
func (r *Results) ShardEnv(b *Benchmark) Env {
	for _, s := range r.Shards {
		if s.Index == b.Shard {
			return s.Env
		}
	}
	return r.Env
}

// Metric is the samples of one unit. An exact metric (encoded size) may
// hold a single value.
type Metric struct {
	Unit   string    `json:"unit"`
	Values []float64 `json:"values"`
}

// Metric returns the samples for unit, or nil.
func (b *Benchmark) Metric(unit string) []float64 {
	for _, m := range b.Metrics {
		if m.Unit == unit {
			return m.Values
		}
	}
	return nil
}

// Add appends one sample value of unit, creating the metric if needed.
func (b *Benchmark) Add(unit string, v float64) {
	for i := range b.Metrics {
		if b.Metrics[i].Unit == unit {
			b.Metrics[i].Values = append(b.Metrics[i].Values, v)
			return
		}
	}
	b.Metrics = append(b.Metrics, Metric{Unit: unit, Values: []float64{v}})
}

// Key identifies a benchmark within a run: its name, after its package's
// import path and a space when it has one (neither contains spaces).
func (b *Benchmark) Key() string { return Key(b.Pkg, b.Name) }

// Key is the key of benchmark name of package pkg (see Benchmark.Key).
func Key(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + " " + name
}

// SplitKey is the inverse of Key.
func SplitKey(key string) (pkg, name string) {
	if p, n, ok := strings.Cut(key, " "); ok {
		return p, n
	}
	return "", key
}

// Lookup returns the benchmark whose Key is key, or nil.
func (r *Results) Lookup(key string) *Benchmark {
	for i := range r.Benchmarks {
		if r.Benchmarks[i].Key() == key {
			return &r.Benchmarks[i]
		}
	}
	return nil
}

// IsExact reports whether a unit is deterministic for a given code and
// dataset, so any change is real and no statistical test is needed. Encoded
// size always is; allocs/op is exact only when every sample agrees, which the
// caller checks on the values (see AllEqual).
func IsExact(unit string) bool {
	return unit == UnitBytesPerMsg
}

// HigherIsBetter reports whether larger values of unit are improvements.
func HigherIsBetter(unit string) bool {
	return strings.HasSuffix(unit, "/s")
}

// AllEqual reports whether every value is the same.
func AllEqual(v []float64) bool {
	if len(v) == 0 {
		return true
	}
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// Validate checks that r is well formed: a known format and version, unique
// names, finite non-negative values and non-negative counts. It names the
// first problem found.
func (r *Results) Validate() error {
	if err := r.validateCounts(); err != nil {
		return err
	}
	if k := r.Clock; k != nil {
		if k.Clock != nil || k.Settings.Counter != nil {
			return fmt.Errorf("clock: the wall-time check of a counted run is a timed run, not counted and with no clock of its own")
		}
		if err := k.Validate(); err != nil {
			return fmt.Errorf("clock: %w", err)
		}
	}
	if r.Format != Format {
		return fmt.Errorf("not a wirebench results file (format %q, want %q)", r.Format, Format)
	}
	if r.Version < 1 || r.Version > Version {
		return fmt.Errorf("results format version %d is not supported by this wirebench (it reads versions 1 to %d): upgrade wirebench or re-run the suite", r.Version, Version)
	}
	if err := r.validateTroubles(); err != nil {
		return err
	}
	if err := r.validateUnmeasured(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(r.Benchmarks))
	for _, b := range r.Benchmarks {
		if b.Name == "" {
			return fmt.Errorf("a benchmark has no name")
		}
		if err := checkLabels(b); err != nil {
			return err
		}
		if seen[b.Key()] {
			return fmt.Errorf("benchmark %s appears twice", b.Key())
		}
		seen[b.Key()] = true
		if err := b.Profile.validate(); err != nil {
			return fmt.Errorf("benchmark %s: %w", b.Name, err)
		}
		for _, m := range b.Metrics {
			if m.Unit == "" {
				return fmt.Errorf("benchmark %s: a metric has no unit", b.Name)
			}
			if len(m.Values) == 0 {
				return fmt.Errorf("benchmark %s: metric %s has no samples", b.Name, m.Unit)
			}
			for _, v := range m.Values {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					return fmt.Errorf("benchmark %s: metric %s has the invalid value %v", b.Name, m.Unit, v)
				}
			}
		}
	}
	return nil
}

// validateUnmeasured checks that every unmeasured package has a hash and
// no measured benchmark.
func (r *Results) validateUnmeasured() error {
	for _, pkg := range r.Unmeasured {
		if r.Hashes[pkg] == "" {
			return fmt.Errorf("package %s is listed as unmeasured but has no hash", pkg)
		}
		for _, b := range r.Benchmarks {
			if b.Pkg == pkg {
				return fmt.Errorf("package %s is listed as unmeasured but has the measured benchmark %s", pkg, b.Name)
			}
		}
	}
	return nil
}

// checkLabels checks that a benchmark's name, codec, dataset, operation
// and units hold no control characters: Go benchmark names never do, and
// reports and the job log show them on one line, where a line break or a
// carriage return from a file another job or a pull request wrote could
// start a line of its own.
func checkLabels(b Benchmark) error {
	labels := []struct{ what, s string }{{"name", b.Name}, {"codec", b.Codec}, {"dataset", b.Dataset}, {"op", b.Op}}
	for _, m := range b.Metrics {
		labels = append(labels, struct{ what, s string }{"unit", m.Unit})
	}
	for _, l := range labels {
		if strings.IndexFunc(l.s, unicode.IsControl) >= 0 {
			return fmt.Errorf("benchmark %q: its %s %q holds a control character", b.Name, l.what, l.s)
		}
	}
	return nil
}

// validateCounts checks the counts and durations a file records (samples,
// rounds, iterations, shards) are not negative: nothing wirebench writes
// is, and a negative one would turn into nonsense per-operation values.
func (r *Results) validateCounts() error {
	s := r.Settings
	for _, c := range []struct {
		field string
		v     int64
	}{
		{"settings.samples", int64(s.Samples)}, {"settings.rounds", int64(s.Rounds)},
		{"settings.suite_size", int64(s.SuiteSize)}, {"settings.budget_ns", int64(s.Budget)},
		{"settings.elapsed_ns", int64(s.Elapsed)}, {"env.gomaxprocs", int64(r.Env.GOMAXPROCS)},
		{"env.num_cpu", int64(r.Env.NumCPU)},
	} {
		if c.v < 0 {
			return fmt.Errorf("%s is %d, want a count ≥ 0", c.field, c.v)
		}
	}
	for i, sh := range r.Shards {
		if sh.Index < 0 || sh.Count < 0 || sh.Benchmarks < 0 || sh.Elapsed < 0 {
			return fmt.Errorf("shards[%d] has a negative count (index %d, count %d, benchmarks %d, elapsed %d)", i, sh.Index, sh.Count, sh.Benchmarks, sh.Elapsed)
		}
	}
	for _, b := range r.Benchmarks {
		if b.Shard < 0 {
			return fmt.Errorf("benchmark %s: shard is %d, want ≥ 0", b.Name, b.Shard)
		}
		for _, n := range b.Iterations {
			if n < 0 {
				return fmt.Errorf("benchmark %s: an iteration count is %d, want ≥ 0", b.Name, n)
			}
		}
	}
	return nil
}

// Clone returns a copy of r whose benchmarks, samples and counter can be
// changed without changing r's.
func (r *Results) Clone() *Results {
	c := *r
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		b := &c.Benchmarks[i]
		b.Iterations = slices.Clone(b.Iterations)
		b.Seeds = slices.Clone(b.Seeds)
		b.Metrics = slices.Clone(b.Metrics)
		for j := range b.Metrics {
			b.Metrics[j].Values = slices.Clone(b.Metrics[j].Values)
		}
		b.Profile = b.Profile.Clone()
	}
	c.Shards = slices.Clone(r.Shards)
	c.Hashes = maps.Clone(r.Hashes)
	c.Unmeasured = slices.Clone(r.Unmeasured)
	c.Troubles = slices.Clone(r.Troubles)
	if r.Settings.Counter != nil {
		counter := *r.Settings.Counter
		c.Settings.Counter = &counter
	}
	if r.Clock != nil {
		c.Clock = r.Clock.Clone()
	}
	return &c
}

// AddProcesses appends the samples of o's benchmarks to r's of the same
// key, iterations with them: a counted run's further processes (a
// confirmation's), so that r holds every process of both. Benchmarks only
// in o are added. r's settings stay its own (its counter names the
// processes of its own run; the samples say how many each benchmark has),
// and so do its benchmarks' profiles: where the work went is that of
// r's processes, whose profile a comparison has already used.
func (r *Results) AddProcesses(o *Results) {
	for _, ob := range o.Benchmarks {
		b := r.Lookup(ob.Key())
		if b == nil {
			r.Benchmarks = append(r.Benchmarks, ob)
			continue
		}
		b.Iterations = append(b.Iterations, ob.Iterations...)
		b.Seeds = append(b.Seeds, ob.Seeds...)
		for _, m := range ob.Metrics {
			for _, v := range m.Values {
				b.Add(m.Unit, v)
			}
		}
	}
	for _, t := range o.Troubles {
		r.AddTrouble(t)
	}
	r.Settings.Elapsed += o.Settings.Elapsed
}

// New returns empty results for suite, stamped with the current format.
func New(suite string, env Env) *Results {
	return &Results{Format: Format, Version: Version, Suite: suite, Env: env}
}

// Sort orders benchmarks by name, for stable output.
func (r *Results) Sort() {
	sort.SliceStable(r.Benchmarks, func(i, j int) bool { return r.Benchmarks[i].Name < r.Benchmarks[j].Name })
}

// Medians maps each benchmark of r, by key, to the median of each of its
// units: a run as a baseline's history records it.
func (r *Results) Medians() map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, b := range r.Benchmarks {
		m := map[string]float64{}
		for _, metric := range b.Metrics {
			if med, err := stats.Median(metric.Values); err == nil {
				m[metric.Unit] = med
			}
		}
		out[b.Key()] = m
	}
	return out
}
