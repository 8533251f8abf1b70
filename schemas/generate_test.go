package schemas

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedCodeIsCurrent regenerates the Go code into a temporary
// directory and compares it byte for byte with the committed code. It
// needs protoc and flatc; without them it is skipped, unless
// WIREBENCH_REQUIRE_TOOLS=1 (as in CI), where it fails.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	for _, tool := range []string{"protoc", "flatc"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("WIREBENCH_REQUIRE_TOOLS") == "1" {
				t.Fatalf("%s not found: install protobuf-compiler and flatbuffers-compiler (see .ci/run)", tool)
			}
			t.Skipf("%s not found; install protobuf-compiler and flatbuffers-compiler to check the generated code", tool)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "generate.sh")
	cmd.Env = append(os.Environ(), "OUT="+out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, msg)
	}
	for _, dir := range []string{"pb", "fb"} {
		fresh, _ := filepath.Glob(filepath.Join(out, dir, "*.go"))
		committed, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(fresh) != len(committed) {
			t.Errorf("%s: generator writes %d files, %d are committed: run `go generate ./schemas`", dir, len(fresh), len(committed))
		}
		for _, f := range fresh {
			want, _ := os.ReadFile(f)
			got, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s is stale: run `go generate ./schemas` and commit the result", dir, filepath.Base(f))
			}
		}
	}
}
