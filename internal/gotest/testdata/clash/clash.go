// Package clash declares, at package level, the names wirebench's worker
// files import and declare, and some builtins: nothing wirebench adds to
// the package may collide with them or be shadowed by them.
package clash

import (
	goos "os"
	gostrings "strings"
)

// The worker's imports, as identifiers of the package's own.
type bytes struct{ n int }

type json interface{ Encode() string }

var (
	fmt     = "not fmt"
	strings = []string{"not", "strings"}
	regexp  = func(s string) bool { return s != "" }
	time    int64
	unsafe  = true
	runtime = map[string]int{"not": 1}
	bufio   = 1
	flag    = 2
	io      = 3
	strconv = 4
	sync    = 5
	debug   = 6
	metrics = 7
	context = 8
	errors  = 9
	// os is read at initialization, before TestMain.
	os = len(goos.Args[0])
	// testing is legal here: no file of the package imports the
	// testing package under that name.
	testing = "not the testing package"
)

// The worker's own names, declared by the package.
const wirebench = "an identifier with the worker's prefix"

type wirebenchWorker struct{ n int }

type wirebenchRequest = bytes

var (
	WirebenchWorkerBenchmarks = []string{"not", "benchmarks"}
	wirebenchpkg              = 10
	wirebenchmetrics          = 11
	wirebenchTimerHooks       = 12
)

func wirebenchOnValgrind() bool { return unsafe }

// Builtins the package shadows.
func len(s string) int { return gostrings.Count(s, "") - 1 }

func close(n int) int { return n + 1 }

func append(s []string, v string) []string { return gostrings.Fields(gostrings.Join(s, " ") + " " + v) }

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int { return -min(-a, -b) }

// Encode stands for a codec: its cost grows with n.
func Encode(n int) int {
	s := close(os) + max(bufio, flag)
	for i := 0; i < n; i++ {
		s += i ^ (i >> 3)
	}
	return s
}
