package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// Format names the JSON document kind.
const Format = "wirebench.baseline"

// Version is the baseline format version this build writes and the newest
// it reads.
const Version = 1

// DefaultHistory is the default bound on History.
const DefaultHistory = 50

// DefaultPath is where a repository keeps its baseline.
const DefaultPath = "baseline/default.json"

// Baseline is a repository's stored reference.
type Baseline struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Suite   string `json:"suite"`
	// Reference is the full results of the run that is the current
	// reference.
	Reference *results.Results `json:"reference"`
	// History is one summary per stored run, oldest first, at most the
	// bound given when it was last written.
	History []Entry `json:"history"`
}

// Entry summarises one run: when, what, where, and the median of every
// metric of every benchmark.
type Entry struct {
	Time    time.Time `json:"time"`
	Commit  string    `json:"commit,omitempty"`
	Ref     string    `json:"ref,omitempty"`
	RunID   string    `json:"run_id,omitempty"`
	Machine string    `json:"machine,omitempty"`
	CPU     string    `json:"cpu,omitempty"`
	Go      string    `json:"go,omitempty"`
	// Harness is the harness settings the run was measured with, which
	// decide whether its timings are comparable with another run's; nil
	// in entries written before they were recorded.
	Harness *results.Harness `json:"harness,omitempty"`
	// Medians maps benchmark name to unit to median value.
	Medians map[string]map[string]float64 `json:"medians"`
}

// key identifies an entry for merging: two writers that both recorded a
// run agree on its key.
func (e Entry) key() string {
	return e.Time.UTC().Format(time.RFC3339Nano) + "\x00" + e.Commit + "\x00" + e.RunID
}

// Summarize makes a history entry from a run. runID identifies the CI run
// (GITHUB_RUN_ID and attempt) when known.
func Summarize(r *results.Results, runID string) Entry {
	harness := r.Harness()
	e := Entry{
		Time: r.Env.Time, Commit: r.Env.Commit, Ref: r.Env.Ref, RunID: runID,
		Machine: r.Env.Machine, CPU: r.Env.CPU, Go: r.Env.GoVersion, Harness: &harness,
		Medians: map[string]map[string]float64{},
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC().Truncate(time.Second)
	}
	for _, b := range r.Benchmarks {
		m := map[string]float64{}
		for _, metric := range b.Metrics {
			if med, err := stats.Median(metric.Values); err == nil {
				m[metric.Unit] = med
			}
		}
		e.Medians[b.Name] = m
	}
	return e
}

// New returns a baseline whose reference and only history entry is r.
func New(r *results.Results, runID string) *Baseline {
	return &Baseline{Format: Format, Version: Version, Suite: r.Suite, Reference: r, History: []Entry{Summarize(r, runID)}}
}

// Add makes r the reference and appends its summary to the history,
// keeping at most limit entries (the newest).
func (b *Baseline) Add(r *results.Results, runID string, limit int) {
	b.Reference = r
	b.Suite = r.Suite
	b.History = append(b.History, Summarize(r, runID))
	b.trim(limit)
}

func (b *Baseline) trim(limit int) {
	if limit <= 0 {
		limit = DefaultHistory
	}
	sort.SliceStable(b.History, func(i, j int) bool { return b.History[i].Time.Before(b.History[j].Time) })
	if len(b.History) > limit {
		b.History = slices.Clone(b.History[len(b.History)-limit:])
	}
}

// Merge combines two versions of a baseline written concurrently (ours,
// built on an older copy, and theirs, now stored): the history is the union
// of both, without duplicates, oldest first, bounded by limit; the
// reference is the more recently measured of the two. Nothing another
// writer added is lost.
func Merge(ours, theirs *Baseline, limit int) *Baseline {
	out := &Baseline{Format: Format, Version: Version, Suite: ours.Suite, Reference: ours.Reference}
	if theirs.Reference != nil && (ours.Reference == nil || theirs.Reference.Env.Time.After(ours.Reference.Env.Time)) {
		out.Reference = theirs.Reference
	}
	seen := map[string]bool{}
	for _, h := range [][]Entry{theirs.History, ours.History} {
		for _, e := range h {
			if !seen[e.key()] {
				seen[e.key()] = true
				out.History = append(out.History, e)
			}
		}
	}
	out.trim(limit)
	return out
}

// Refresh returns the baseline after run r: old (nil when there is none
// yet) merged with a baseline of r alone, so that r becomes the reference
// unless old holds a more recent run, and its summary joins the history,
// bounded by limit. It is the one way a baseline is refreshed, on disk and
// through the API alike, and it is idempotent: a write retried after a
// lost answer does not add r twice.
func Refresh(old *Baseline, r *results.Results, runID string, limit int) *Baseline {
	if old == nil {
		old = &Baseline{}
	}
	return Merge(New(r, runID), old, limit)
}

// ErrNotExist is returned (wrapped) by Load when there is no baseline yet.
var ErrNotExist = errors.New("no baseline yet")

// Decode parses a baseline. name is used in error messages. suite, when
// not empty, is the suite the caller expects.
func Decode(name string, data []byte, suite string) (*Baseline, error) {
	fix := fmt.Sprintf("restore %s from version control or delete it and run `update` to start a new baseline", name)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("baseline %s is empty: %s", name, fix)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
		Suite   string `json:"suite"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("baseline %s is not valid JSON (truncated or corrupt: %v): %s", name, err, fix)
	}
	switch {
	case head.Format != Format:
		return nil, fmt.Errorf("%s is not a wirebench baseline (format %q, want %q): point --baseline at a file written by `update`", name, head.Format, Format)
	case head.Version > Version:
		return nil, fmt.Errorf("baseline %s has format version %d, newer than this wirebench reads (%d): upgrade wirebench", name, head.Version, Version)
	case head.Version < 1:
		return nil, fmt.Errorf("baseline %s has no valid format version: %s", name, fix)
	case suite != "" && head.Suite != suite:
		return nil, fmt.Errorf("baseline %s is for suite %q, not %q: point --baseline at this suite's file", name, head.Suite, suite)
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("baseline %s does not decode (%v): %s", name, err, fix)
	}
	if b.Reference == nil {
		return nil, fmt.Errorf("baseline %s has no reference run: %s", name, fix)
	}
	if err := b.Reference.Validate(); err != nil {
		return nil, fmt.Errorf("baseline %s: reference run: %v: %s", name, err, fix)
	}
	return &b, nil
}

// Encode returns b as indented JSON.
func (b *Baseline) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(b); err != nil {
		return nil, fmt.Errorf("encode baseline: %w", err)
	}
	return buf.Bytes(), nil
}

// Load reads the baseline at path. A missing file is ErrNotExist.
func Load(path, suite string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNotExist, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	return Decode(path, data, suite)
}

// Save writes b to path atomically (temporary file and rename), so a crash
// or a full disk never leaves a half-written baseline.
func (b *Baseline) Save(path string) error {
	data, err := b.Encode()
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(path, data)
}

// ReferenceEntry is the index of the history entry that summarises the
// reference run, -1 when there is none: the newest entry of the
// reference's time and commit, or else one whose medians are the
// reference's (two runs never agree on every median).
func (b *Baseline) ReferenceEntry() int {
	if b.Reference == nil {
		return -1
	}
	ref := Summarize(b.Reference, "")
	for i := len(b.History) - 1; i >= 0; i-- {
		e := b.History[i]
		if e.Commit == ref.Commit && e.Time.Equal(ref.Time) && !b.Reference.Env.Time.IsZero() {
			return i
		}
	}
	for i := len(b.History) - 1; i >= 0; i-- {
		if reflect.DeepEqual(b.History[i].Medians, ref.Medians) {
			return i
		}
	}
	return -1
}
