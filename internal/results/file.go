package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/internal/bounded"
)

// Read parses results from data, accepting either a wirebench results JSON
// document or Go benchmark text (the output of `go test -bench` or of
// `wirebench run --format bench`). name is used in error messages.
func Read(name string, data []byte) (*Results, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%s is empty: expected wirebench results JSON or Go benchmark output", name)
	}
	var r *Results
	var err error
	if trimmed[0] == '{' {
		r, err = readJSON(trimmed)
	} else {
		r, err = ReadBench(bytes.NewReader(data), name)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return r, nil
}

// MaxFileBytes bounds a results file (or Go benchmark text) that is read:
// the default suite's results are a few hundred KiB, and a file from
// elsewhere (a shard's artifact, a pull request's benchmark output) must
// not exhaust the runner's memory.
const MaxFileBytes = 64 << 20

// Load reads results from the file at path (see Read), which may hold at
// most MaxFileBytes.
func Load(path string) (*Results, error) {
	data, err := bounded.ReadFile(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return Read(path, data)
}

func readJSON(data []byte) (*Results, error) {
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not valid JSON (truncated or corrupt?): %w", err)
	}
	if head.Format != Format {
		return nil, fmt.Errorf("not a wirebench results file (format %q, want %q)", head.Format, Format)
	}
	if head.Version > Version {
		return nil, fmt.Errorf("results format version %d is newer than this wirebench understands (%d): upgrade wirebench", head.Version, Version)
	}
	var r Results
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("decode results: %w", err)
	}
	return &r, nil
}

// Encode writes r as indented JSON.
func (r *Results) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteFile writes r as JSON to path atomically: a temporary file in the
// same directory is written, synced and renamed over path, so a crash never
// leaves a half-written file.
func (r *Results) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := r.Encode(&buf); err != nil {
		return fmt.Errorf("encode results: %w", err)
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// WriteFileAtomic writes data to path through a temporary file and a rename.
func WriteFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ErrNoBenchmarks is returned when input parses but holds no benchmark lines.
var ErrNoBenchmarks = errors.New("no benchmark results found")
