package cpus_test

import (
	"fmt"

	"github.com/wirebench/wirebench/internal/cpus"
)

// The counted instrument's processes run as many at a time as Job says.
func ExampleJob() {
	n, why := cpus.Job()
	fmt.Println(n > 0, why != "")
	// Output: true true
}
