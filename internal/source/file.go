package source

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
)

// File is results another step wrote: wirebench results JSON or Go
// benchmark text (a user's `go test -bench -count=10` output).
type File struct {
	Path string
	// Commit and Ref, when set, are recorded as what was measured (the
	// file itself rarely says).
	Commit, Ref string
}

// Suite is "": a file's benchmarks belong to no suite of wirebench's.
func (File) Suite() string { return "" }

// Title is the file's path.
func (f File) Title() string { return f.Path }

// Results reads the file; the plan does not apply.
func (f File) Results(ctx context.Context, p Plan) (*results.Results, []string, error) {
	r, err := results.Load(f.Path)
	if err != nil {
		return nil, nil, err
	}
	if f.Commit != "" {
		r.Env.Commit = f.Commit
	}
	if f.Ref != "" {
		r.Env.Ref = f.Ref
	}
	if r.Env.Time.IsZero() {
		r.Env.Time = time.Now().UTC().Truncate(time.Second)
	}
	return r, nil, nil
}

// Shards is the results of a job matrix's shards (files, or directories
// searched for *.json, as actions/download-artifact lays them out), merged
// into one run of the suite.
type Shards struct {
	Paths []string
	// Partial allows missing shards; the note says which.
	Partial bool
}

// Suite is the embedded suite's: shards are of it.
func (Shards) Suite() string { return Embedded{}.Suite() }

// Title names the merged suite.
func (Shards) Title() string { return Embedded{}.Title() + " (merged shards)" }

// Results merges the shards; the note describes the merge.
func (s Shards) Results(ctx context.Context, p Plan) (*results.Results, []string, error) {
	files, err := s.Files()
	if err != nil {
		return nil, nil, err
	}
	parts := make([]*results.Results, 0, len(files))
	for _, f := range files {
		r, err := results.Load(f)
		if err != nil {
			return nil, nil, err
		}
		parts = append(parts, r)
	}
	m, err := shard.Merge(parts, files, shard.MergeOptions{AllowPartial: s.Partial})
	if err != nil {
		return nil, nil, err
	}
	var note strings.Builder
	fmt.Fprintf(&note, "Merged from %d shards of a job matrix (slowest shard %s):", len(m.Results.Shards), m.Results.Settings.Elapsed.Round(1e8))
	for _, sh := range m.Results.Shards {
		fmt.Fprintf(&note, " shard %d/%d measured %d benchmarks on machine %s (%s);", sh.Index, sh.Count, sh.Benchmarks, orDash(sh.Env.Machine), orDash(sh.Env.CPU))
	}
	if len(m.MissingShards) > 0 {
		fmt.Fprintf(&note, " %s %v missing: their benchmarks are not in this report.", pick(len(m.MissingShards) == 1, "shard", "shards"), m.MissingShards)
	}
	return m.Results, []string{strings.TrimSuffix(note.String(), ";") + "."}, nil
}

// Files lists the results files of the shards, sorted, and checks that
// together they are no more than a merge may read (boundShards).
func (s Shards) Files() ([]string, error) {
	var files []string
	for _, p := range s.Paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("merge: no results files in %s: download the shards' artifacts first", strings.Join(s.Paths, ", "))
	}
	if err := boundShards(files); err != nil {
		return nil, err
	}
	return files, nil
}

// boundShards checks that the shards' files, artifacts another job
// uploaded, are no more than a matrix can have (shard.MaxCount) and
// together no larger than one results file may be (the merge holds them
// all), before any is read.
func boundShards(files []string) error {
	if len(files) > shard.MaxCount {
		return fmt.Errorf("merge: %d results files, more than the %d shards a matrix can have: point merge-path at the downloaded shard artifacts only", len(files), shard.MaxCount)
	}
	var total int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		total += st.Size()
	}
	if total > results.MaxFileBytes {
		return fmt.Errorf("merge: the %d results files hold %s, more than the %s a merged results file may: point merge-path at the downloaded shard artifacts only", len(files), human.Bytes(float64(total)), human.Bytes(results.MaxFileBytes))
	}
	return nil
}

// pick is one if cond, else many.
func pick(cond bool, one, many string) string {
	if cond {
		return one
	}
	return many
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
