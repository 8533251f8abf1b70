package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"slices"
	"time"

	"github.com/wirebench/wirebench/internal/results"
)

// ErrNotExist is returned (wrapped) by Load when there is no baseline yet.
var ErrNotExist = errors.New("no baseline yet")

// Decode parses a baseline. name is used in error messages. suite, when
// not empty, is the suite the caller expects.
func Decode(name string, data []byte, suite string) (*Baseline, error) {
	fix := fmt.Sprintf("restore %s from version control or delete it and run `wirebench update` (in the action: a push to the default branch) to start a new baseline", name)
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
		return nil, fmt.Errorf("%s is not a wirebench baseline (format %q, want %q): point --baseline at a file written by `wirebench update`", name, head.Format, Format)
	case head.Version > Version:
		return nil, fmt.Errorf("baseline %s has format version %d, newer than this wirebench reads (%d): upgrade wirebench", name, head.Version, Version)
	case head.Version < 1:
		return nil, fmt.Errorf("baseline %s has no valid format version: %s", name, fix)
	case suite != "" && head.Suite != suite:
		return nil, fmt.Errorf("baseline %s is for suite %q, not %q: point --baseline at this suite's file", name, head.Suite, suite)
	}
	if err := checkTimes(data); err != nil {
		return nil, fmt.Errorf("baseline %s: %v: %s", name, err, fix)
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
	for i, e := range b.History {
		if err := e.validate(); err != nil {
			return nil, fmt.Errorf("baseline %s: history[%d]%s: %v: %s", name, i, e.describe(), err, fix)
		}
	}
	b.numberArrivals()
	return &b, nil
}

// checkTimes parses every time a baseline holds (the reference's and each
// history entry's), so that a bad one is an error naming its field rather
// than the decoder's message without a place.
func checkTimes(data []byte) error {
	var raw struct {
		Reference *struct {
			Env struct {
				Time json.RawMessage `json:"time"`
			} `json:"env"`
		} `json:"reference"`
		History []struct {
			Time json.RawMessage `json:"time"`
		} `json:"history"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil // not this check's business: the full decode says what is wrong
	}
	check := func(field string, v json.RawMessage) error {
		var t time.Time
		if len(v) == 0 || string(v) == "null" {
			return nil
		}
		if err := t.UnmarshalJSON(v); err != nil {
			return fmt.Errorf("%s is %s, not a time like \"2026-11-30T12:00:00Z\"", field, abbreviate(v))
		}
		return nil
	}
	if raw.Reference != nil {
		if err := check("reference.env.time", raw.Reference.Env.Time); err != nil {
			return err
		}
	}
	for i, h := range raw.History {
		if err := check(fmt.Sprintf("history[%d].time", i), h.Time); err != nil {
			return err
		}
	}
	return nil
}

// abbreviate quotes at most 40 bytes of a stored value for an error.
func abbreviate(v []byte) string {
	if len(v) > 40 {
		return string(v[:40]) + "…"
	}
	return string(v)
}

// validate checks an entry's numbers: a non-negative arrival number and a
// finite, non-negative median for every metric.
func (e Entry) validate() error {
	if e.Seq < 0 {
		return fmt.Errorf("seq is %d, want a count ≥ 0", e.Seq)
	}
	if err := validMedians(e.Medians, "median"); err != nil {
		return err
	}
	if err := validMedians(e.Spread, "spread"); err != nil {
		return err
	}
	if e.Clock != nil {
		if err := validMedians(e.Clock.Medians, "median"); err != nil {
			return fmt.Errorf("clock: %w", err)
		}
	}
	return nil
}

// validMedians checks that every value of m (medians, spreads: what) is
// a finite number ≥ 0.
func validMedians(m map[string]map[string]float64, what string) error {
	for _, name := range slices.Sorted(maps.Keys(m)) {
		for _, unit := range slices.Sorted(maps.Keys(m[name])) {
			if v := m[name][unit]; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("the %s %s of %s is %v, want a finite number ≥ 0", what, unit, name, v)
			}
		}
	}
	return nil
}

// describe names an entry for errors by its commit, when it has one.
func (e Entry) describe() string {
	if e.Commit == "" {
		return ""
	}
	c := e.Commit
	if len(c) > 7 {
		c = c[:7]
	}
	return " (commit " + c + ")"
}

// numberArrivals makes the arrival numbers increase along the history, the
// order of the file being the order of arrival: entries written before
// Seq existed (0) and any out of order (an edited file) are numbered after
// the entry before them.
func (b *Baseline) numberArrivals() {
	var prev int64
	for i := range b.History {
		if b.History[i].Seq <= prev {
			b.History[i].Seq = prev + 1
		}
		prev = b.History[i].Seq
	}
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
