package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/githubapi"
)

// Store is where a baseline lives.
type Store interface {
	// Where describes the location, for reports.
	Where() string
	// Load reads the baseline: nil and no error when there is none yet;
	// an unreadable or corrupt one is an error naming the fix.
	Load(ctx context.Context) (*baseline.Baseline, error)
	// Update stores apply(the baseline stored now, or nil), and says where
	// it went. A corrupt stored baseline is an error and is left as it is.
	Update(ctx context.Context, apply func(old *baseline.Baseline) *baseline.Baseline) (string, error)
}

// File is a baseline file on disk.
type File struct {
	Path string
	// Suite is the suite the baseline must be of ("" any).
	Suite string
	// Describe, when set, replaces the description of Where.
	Describe string
}

// Where is the path, with what kind of place it is.
func (f File) Where() string {
	if f.Describe != "" {
		return f.Describe
	}
	return f.Path + " (local file)"
}

// Load reads the file.
func (f File) Load(ctx context.Context) (*baseline.Baseline, error) {
	b, err := baseline.Load(f.Path, f.Suite)
	if errors.Is(err, baseline.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// Update writes the file atomically (a temporary file and a rename).
func (f File) Update(ctx context.Context, apply func(old *baseline.Baseline) *baseline.Baseline) (string, error) {
	old, err := f.Load(ctx)
	if err != nil {
		return "", err
	}
	b := apply(old)
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return "", fmt.Errorf("update baseline: %w", err)
	}
	if err := b.Save(f.Path); err != nil {
		return "", fmt.Errorf("update baseline: %w", err)
	}
	return f.Path, nil
}

// GitHub is a baseline file on a branch of a repository, read and written
// through the Contents API with optimistic concurrency: a write that finds
// the file changed since it was read reads it again and merges again.
type GitHub struct {
	API                       *githubapi.Client
	Owner, Repo, Path, Branch string
	Suite                     string
	// Message is the commit message of a write.
	Message string
}

// Where names the file, the branch and the API.
func (g GitHub) Where() string {
	return fmt.Sprintf("%s on branch %s (GitHub API)", g.Path, g.Branch)
}

func (g GitHub) name() string { return fmt.Sprintf("%s@%s", g.Path, g.Branch) }

// Load reads the file from the branch.
func (g GitHub) Load(ctx context.Context) (*baseline.Baseline, error) {
	b, _, err := g.load(ctx)
	return b, err
}

// LoadBlob reads the file and also returns its blob's short SHA, which
// reports cite.
func (g GitHub) LoadBlob(ctx context.Context) (*baseline.Baseline, string, error) {
	return g.load(ctx)
}

func (g GitHub) load(ctx context.Context) (*baseline.Baseline, string, error) {
	data, sha, err := g.API.GetFile(ctx, g.Owner, g.Repo, g.Path, g.Branch)
	if errors.Is(err, githubapi.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read the baseline %s from branch %s: %w", g.Path, g.Branch, err)
	}
	b, err := baseline.Decode(g.name(), data, g.Suite)
	if err != nil {
		return nil, "", err
	}
	return b, ShortSHA(sha), nil
}

// Update writes the file on the branch as a commit with Message, merging
// into what another writer stored meanwhile.
func (g GitHub) Update(ctx context.Context, apply func(old *baseline.Baseline) *baseline.Baseline) (string, error) {
	merge := func(old []byte, exists bool) ([]byte, error) {
		var prev *baseline.Baseline
		if exists {
			var err error
			if prev, err = baseline.Decode(g.name(), old, g.Suite); err != nil {
				return nil, err
			}
		}
		return apply(prev).Encode()
	}
	commit, err := g.API.UpdateFile(ctx, g.Owner, g.Repo, g.Path, g.Branch, g.Message, merge)
	if err != nil {
		return "", fmt.Errorf("update the baseline %s on branch %s: %w", g.Path, g.Branch, err)
	}
	return fmt.Sprintf("%s on branch %s (commit %s)", g.Path, g.Branch, ShortSHA(commit)), nil
}

// ShortSHA is the first 7 characters of a commit or blob SHA.
func ShortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}
