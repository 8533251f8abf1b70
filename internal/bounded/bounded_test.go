package bounded

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		size    int
		limit   int64
		wantErr bool
	}{
		{"empty", 0, 10, false},
		{"under", 9, 10, false},
		{"at the limit", 10, 10, false},
		{"one over", 11, 10, true},
		{"far over", 1 << 20, 1 << 10, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			want := bytes.Repeat([]byte("x"), tt.size)
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(path, tt.limit)
			if tt.wantErr {
				if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want ErrTooLarge naming the file", err)
				}
				return
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("got %d bytes, %v; want %d", len(got), err, tt.size)
			}
		})
	}
	if _, err := ReadFile(filepath.Join(dir, "absent"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want os.ErrNotExist", err)
	}
}

// endless is a reader that never ends, like /dev/zero.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	e.read += int64(len(p))
	return len(p), nil
}

func TestReadAllStopsAtTheBound(t *testing.T) {
	r := &endless{}
	if _, err := ReadAll(r, 1<<16); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if r.read > 1<<17 {
		t.Errorf("read %d bytes of an endless input for a bound of %d", r.read, 1<<16)
	}
}
