package ab

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/internal/program"
)

// Every generation of workers runs fresh copies of the binaries (see
// Spawner): a process's speed goes with the physical pages its code
// landed in, and a copy lands anew.

// copyProgram copies every part's executable into dir.
func copyProgram(p program.Program, dir string) (program.Program, error) {
	out := make(program.Program, len(p))
	for i, part := range p {
		dst := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(part.Command.Path)))
		if err := copyFile(part.Command.Path, dst); err != nil {
			return nil, err
		}
		part.Command.Path = dst
		out[i] = part
	}
	return out, nil
}

// copyFile copies an executable to dst, creating dst's directory.
func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
