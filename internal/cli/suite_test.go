package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUserModule: a module of a user's with a benchmark function in a
// test file is named (its subdirectories count, testdata, vendor and
// nested modules do not); wirebench's own module, one without
// benchmarks and a directory outside any module are not.
func TestUserModule(t *testing.T) {
	bench := "package p\n\nimport \"testing\"\n\nfunc BenchmarkMarshal(b *testing.B) {}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"benchmarks in a package", map[string]string{"go.mod": "module example.com/orders\n\ngo 1.26\n", "wire/wire_test.go": bench}, "example.com/orders"},
		{"a benchmark on the first line", map[string]string{"go.mod": "module example.com/first\n", "a_test.go": "func BenchmarkX(b *testing.B) {}\n"}, "example.com/first"},
		{"no benchmarks", map[string]string{"go.mod": "module example.com/none\n", "a_test.go": "package p\n\nfunc TestX(t *testing.T) {}\n"}, ""},
		{"only in testdata, vendor and a nested module", map[string]string{"go.mod": "module example.com/hidden\n",
			"testdata/x_test.go": bench, "vendor/v/v_test.go": bench, "sub/go.mod": "module example.com/sub\n", "sub/s_test.go": bench}, ""},
		{"wirebench itself", map[string]string{"go.mod": "module " + wirebenchModule + "\n", "a_test.go": bench}, ""},
		{"not a module", map[string]string{"a_test.go": bench}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := userModule(dir); got != tt.want {
				t.Errorf("userModule = %q, want %q", got, tt.want)
			}
		})
	}
}
