// Package results defines what one benchmark run produces: the environment
// it ran in and, per benchmark, the samples of every metric. Results are
// stored as versioned JSON and can also be written and read as the standard
// Go benchmark text format, so benchstat works on them and `go test -bench`
// output can be compared like a wirebench run.
package results
