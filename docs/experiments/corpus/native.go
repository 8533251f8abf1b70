package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Native is the summary of one native go test run of a tree.
type Native struct {
	// Results has one entry per result line, in order: the package's
	// import path, a space and the benchmark's name without go test's
	// -N suffix of GOMAXPROCS.
	Results []string `json:"results"`
	// Skipped and Failed are the benchmarks of the --- SKIP and --- FAIL
	// lines.
	Skipped []string `json:"skipped"`
	Failed  []string `json:"failed"`
	// Packages counts the packages whose test binary ran.
	Packages int `json:"packages"`
	// Problems are the packages whose test binary did not build (Build)
	// or whose run failed, and why; a package "" is the go command's own
	// failure before any package ran.
	Problems []Problem `json:"problems"`
}

// Problem is a package that did not build or whose run failed.
type Problem struct {
	Package string `json:"package"`
	Build   bool   `json:"build"`
	Why     string `json:"why"`
}

// Builds reports whether every package's test binary built.
func (n *Native) Builds() bool {
	for _, p := range n.Problems {
		if p.Build {
			return false
		}
	}
	return true
}

type event struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

var (
	// resultLine is a benchmark's result: its name (with -N), the
	// iterations, and a first value and unit.
	resultLine = regexp.MustCompile(`^(Benchmark\S*)\s+(\d+)\s+[-+0-9.eE]+ \S+`)
	// resultRest is a result whose name the benchmark's own output
	// separated from it (go test -v prints the name first).
	resultRest = regexp.MustCompile(`^\s+(\d+)\t\s*[-+0-9.eE]+ \S+`)
	nameLine   = regexp.MustCompile(`^(Benchmark\S*)`)
	skipLine   = regexp.MustCompile(`^\s*--- SKIP: (Benchmark\S*)`)
	failLine   = regexp.MustCompile(`^\s*--- FAIL: (Benchmark\S*)`)
)

func nativeCmd(args []string) error {
	fs := flag.NewFlagSet("native", flag.ContinueOnError)
	procs := fs.Int("procs", 1, "the -cpu value go test ran with (the -N suffix of its names)")
	stderr := fs.String("stderr", "", "the go command's stderr, for a failure the stream does not explain")
	if err := fs.Parse(args); err != nil {
		return err
	}
	n, err := readNative(os.Stdin, *procs)
	if err != nil {
		return err
	}
	if *stderr != "" && n.Packages == 0 && len(n.Problems) == 0 {
		if b, err := os.ReadFile(*stderr); err == nil {
			if why := lastLines(string(b), 3); why != "" {
				n.Problems = append(n.Problems, Problem{Build: true, Why: why})
			}
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(n)
}

// readNative sums up a go test -json stream.
func readNative(r io.Reader, procs int) (*Native, error) {
	n := &Native{Results: []string{}, Skipped: []string{}, Failed: []string{}, Problems: []Problem{}}
	type pkgState struct {
		partial string
		last    string // the last benchmark name printed
		panic   string // the first panic line, with the benchmark it came in
		exit    string // the last line saying how the binary ended (signal: killed)
		failed  []string
		done    bool // its pass, fail or skip came
	}
	var order []string // packages in the order they started
	pkgs := map[string]*pkgState{}
	build := map[string][]string{} // build output by import path
	state := func(p string) *pkgState {
		if pkgs[p] == nil {
			pkgs[p] = &pkgState{}
		}
		return pkgs[p]
	}
	strip := func(name string) string {
		if procs != 1 {
			name = strings.TrimSuffix(name, "-"+strconv.Itoa(procs))
		}
		return name
	}
	line := func(pkg string, s *pkgState, l string) {
		if m := resultLine.FindStringSubmatch(l); m != nil {
			s.last = strip(m[1])
			n.Results = append(n.Results, pkg+" "+s.last)
			return
		}
		if m := resultRest.FindStringSubmatch(l); m != nil && s.last != "" {
			n.Results = append(n.Results, pkg+" "+s.last)
			return
		}
		if m := skipLine.FindStringSubmatch(l); m != nil {
			n.Skipped = append(n.Skipped, pkg+" "+strip(m[1]))
			return
		}
		if m := failLine.FindStringSubmatch(l); m != nil {
			n.Failed = append(n.Failed, pkg+" "+strip(m[1]))
			s.failed = append(s.failed, strip(m[1]))
			return
		}
		if m := nameLine.FindStringSubmatch(l); m != nil {
			s.last = strip(strings.TrimSpace(m[1]))
			return
		}
		if strings.HasPrefix(l, "panic: ") && s.panic == "" {
			s.panic = l
			if s.last != "" {
				s.panic = s.last + ": " + l
			}
		}
		if strings.HasPrefix(l, "signal: ") || strings.HasPrefix(l, "exit status ") || strings.HasPrefix(l, "*** Test killed") {
			s.exit = l
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			continue // a line that is not an event (the go command's own)
		}
		switch e.Action {
		case "start":
			if e.Package != "" && pkgs[e.Package] == nil {
				order = append(order, e.Package)
				state(e.Package)
			}
		case "build-output":
			build[e.ImportPath] = append(build[e.ImportPath], strings.TrimRight(e.Output, "\n"))
		case "output":
			if e.Package == "" {
				continue
			}
			s := state(e.Package)
			text := s.partial + e.Output
			lines := strings.Split(text, "\n")
			s.partial = lines[len(lines)-1]
			for _, l := range lines[:len(lines)-1] {
				line(e.Package, s, l)
			}
		case "pass", "fail", "skip":
			if e.Test != "" || e.Package == "" {
				continue
			}
			s := state(e.Package)
			s.done = true
			if s.partial != "" {
				line(e.Package, s, s.partial)
				s.partial = ""
			}
			switch {
			case e.FailedBuild != "":
				n.Problems = append(n.Problems, Problem{Package: e.Package, Build: true, Why: buildWhy(build[e.FailedBuild])})
			case e.Action == "fail":
				n.Packages++
				why := s.panic
				if why == "" && len(s.failed) > 0 {
					why = "--- FAIL: " + strings.Join(s.failed, ", ")
				}
				if why == "" && s.exit != "" {
					why = s.exit
					if s.last != "" {
						why = s.last + ": " + s.exit
					}
				}
				if why == "" {
					why = "FAIL"
				}
				n.Problems = append(n.Problems, Problem{Package: e.Package, Why: why})
			case e.Action == "pass":
				n.Packages++
			}
		}
	}
	// A package that started and never ended: the run was stopped (the
	// script's time limit).
	for _, p := range order {
		if s := pkgs[p]; !s.done {
			if s.partial != "" {
				line(p, s, s.partial)
			}
			why := "did not finish (the run was stopped)"
			if s.last != "" {
				why += " in " + s.last
			}
			n.Problems = append(n.Problems, Problem{Package: p, Why: why})
		}
	}
	return n, sc.Err()
}

// buildWhy is the first compiler error of a package's build output.
func buildWhy(out []string) string {
	for _, l := range out {
		if strings.Contains(l, ".go:") || strings.Contains(l, "cannot") || strings.Contains(l, "error") {
			return strings.TrimSpace(l)
		}
	}
	return lastLines(strings.Join(out, "\n"), 2)
}

// lastLines is the last k non-empty lines of s, joined by " / ".
func lastLines(s string, k int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > k {
		out = out[len(out)-k:]
	}
	return strings.Join(out, " / ")
}
