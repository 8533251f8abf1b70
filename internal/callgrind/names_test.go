package callgrind

import (
	"fmt"
	"testing"
)

// TestFuncName: symbols as the Go linker writes them (read from real
// dumps: testdata) read as Go: no ABI suffix, type arguments without
// their shapes, a struct's shape elided; what is not a type argument
// list stays as it is.
func TestFuncName(t *testing.T) {
	tests := []struct{ sym, want string }{
		{"runtime.mallocgc", "runtime.mallocgc"},
		{"main.(*encoder).encode.func1", "main.(*encoder).encode.func1"},
		{"github.com/wirebench/wirebench/internal/callgrind.clientRequest.abi0", "github.com/wirebench/wirebench/internal/callgrind.clientRequest"},
		{"main.each[go.shape.float64]", "main.each[float64]"},
		{"example.com/m.Map[go.shape.int,go.shape.*uint8]", "example.com/m.Map[int,*uint8]"},
		{"example.com/m.(*List[go.shape.string]).Push", "example.com/m.(*List[string]).Push"},
		{`github.com/wirebench/wirebench/internal/bench.raw[go.shape.struct { IntVal int32 "msgpack:\"int_val\" json:\"int_val\""; StrVal string "msgpack:\"]\"" }].Bind.func1`,
			"github.com/wirebench/wirebench/internal/bench.raw[struct{…}].Bind.func1"},
		{"example.com/m.F[go.shape.interface { M() }]", "example.com/m.F[interface{…}]"},
		{"example.com/m.F[go.shape.struct {}]", "example.com/m.F[struct{}]"},
		{"example.com/m.G[go.shape.[]go.shape.int,go.shape.map[string]int]", "example.com/m.G[[]int,map[string]int]"},
		{"type:.eq.[2]interface {}", "type:.eq.[2]interface {}"},
		{"broken[go.shape.int", "broken[go.shape.int"},
		{"0x0000000000401234", "0x0000000000401234"},
	}
	for _, tt := range tests {
		if got := FuncName(tt.sym); got != tt.want {
			t.Errorf("FuncName(%q) = %q, want %q", tt.sym, got, tt.want)
		}
	}
}

// ExampleFuncName: the symbol of a method of an instantiation of a
// generic type, and of an assembly function, as a report names them.
func ExampleFuncName() {
	fmt.Println(FuncName("example.com/m.(*List[go.shape.string]).Push"))
	fmt.Println(FuncName(`example.com/m.Map[go.shape.int,go.shape.struct { K string "json:\"k\"" }]`))
	fmt.Println(FuncName("github.com/wirebench/wirebench/internal/callgrind.clientRequest.abi0"))
	// Output:
	// example.com/m.(*List[string]).Push
	// example.com/m.Map[int,struct{…}]
	// github.com/wirebench/wirebench/internal/callgrind.clientRequest
}
