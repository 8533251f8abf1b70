package bounded

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/wirebench/wirebench/internal/human"
)

// ErrTooLarge is wrapped by the errors of ReadFile and ReadAll for input
// over the bound.
var ErrTooLarge = errors.New("too large")

// ReadFile reads the file at path, which must hold at most limit bytes.
// It never reads more than limit+1 bytes, whatever the file's size (a
// device or a pipe has none).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadAll(f, limit)
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("%s is larger than %s, more than any file wirebench writes or reads: %w", path, human.Bytes(float64(limit)), err)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// ReadAll reads r to its end, which must come within limit bytes.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("more than %s: %w", human.Bytes(float64(limit)), ErrTooLarge)
	}
	return data, nil
}
