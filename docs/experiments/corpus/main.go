// Command corpus reads what docs/experiments/corpus.sh records about a
// corpus of released Go libraries and makes its tables (stdlib only, run
// by the script with go run).
//
//	corpus native -procs N < go-test.jsonl > summary.json
//	    sums up one `go test -json -run '^$' -bench ... -cpu N` stream:
//	    every result line's benchmark ("import/path BenchmarkName/sub"),
//	    the benchmarks that skipped (--- SKIP) and failed (--- FAIL), the
//	    packages whose test binary did not build or whose run failed, and
//	    why (-stderr FILE, the go command's own stderr, says why when the
//	    stream has nothing: a go.mod the toolchain refuses, say).
//	corpus table -work DIR -mode native|ab|aa LIB...
//	    one Markdown table of the records under DIR/LIB/: per library and
//	    side the native counts (native), or per library what a wirebench
//	    run made of its benchmarks (ab, aa: classify reads the JSON report).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: corpus native|table ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "native":
		err = nativeCmd(os.Args[2:])
	case "table":
		err = tableCmd(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(2)
	}
}

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

func tableCmd(args []string) error {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	work := fs.String("work", "", "the corpus' work directory")
	mode := fs.String("mode", "", "native, ab or aa")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *work == "" || fs.NArg() == 0 {
		return errors.New("table needs -work and the libraries")
	}
	switch *mode {
	case "native":
		return nativeTable(os.Stdout, *work, fs.Args())
	}
	if strings.HasPrefix(*mode, "ab") || strings.HasPrefix(*mode, "aa") {
		return runTable(os.Stdout, *work, *mode, fs.Args())
	}
	return fmt.Errorf("-mode is native, ab or aa, not %q", *mode)
}

// keyValues reads a file of KEY<TAB>VALUE lines (the script's records).
func keyValues(path string) map[string]string {
	m := map[string]string{}
	b, err := os.ReadFile(path)
	if err != nil {
		return m
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "\t"); ok {
			m[k] = v
		}
	}
	return m
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	return s
}

// short cuts a reason to n characters.
func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// orDash is s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func nativeTable(w io.Writer, work string, libs []string) error {
	fmt.Fprintln(w, "| library | module | side | version | go.mod `go` | toolchain | selection | builds | benchmarks | skipped | failed | exit | time (s) | load before → after | problems |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	total := map[string]int{}
	for _, lib := range libs {
		meta := keyValues(filepath.Join(work, lib, "meta.tsv"))
		for _, side := range []string{"base", "head"} {
			rec := keyValues(filepath.Join(work, lib, "native-"+side+".tsv"))
			var n Native
			if err := readJSON(filepath.Join(work, lib, "native-"+side+".summary.json"), &n); err != nil {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | | not run | | | | | | | |\n", lib, meta["module"], side, meta[side], orDash(meta[side+"_go"]), orDash(meta[side+"_goversion"]))
				continue
			}
			total[side] += len(n.Results)
			var probs []string
			for _, p := range n.Problems {
				what := p.Package
				if p.Build {
					what = strings.TrimSpace(what + " (build)")
				}
				probs = append(probs, what+": "+short(p.Why, 160))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d | %s | %s | %s → %s | %s |\n",
				lib, meta["module"], side, meta[side], orDash(meta[side+"_go"]), orDash(meta[side+"_goversion"]),
				cell(selection(rec)), pick(n.Builds(), "yes", "no"), len(n.Results), len(n.Skipped), len(n.Failed),
				rec["exit"], rec["seconds"], rec["load_before"], rec["load_after"], cell(orDash(strings.Join(probs, "; "))))
		}
	}
	fmt.Fprintf(w, "| **total** | | base | | | | | | %d | | | | | | |\n", total["base"])
	fmt.Fprintf(w, "| **total** | | head | | | | | | %d | | | | | | |\n", total["head"])
	return nil
}

// selection is what a native run selected: "all", or its package
// patterns and -bench expression.
func selection(rec map[string]string) string {
	p, b := rec["packages"], rec["bench"]
	if (p == "" || p == "./...") && (b == "" || b == ".") {
		return "all"
	}
	return "`" + p + "` `" + b + "`"
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// Report is what the table reads of wirebench's JSON report
// (internal/report/json.md); unknown fields are ignored.
type Report struct {
	Verdict     string       `json:"verdict"`
	Why         string       `json:"why"`
	Comparisons []Comparison `json:"comparisons"`
	Missing     []string     `json:"missing"`
	New         []string     `json:"new"`
	Identical   []struct {
		Package    string `json:"package"`
		Reason     string `json:"reason"`
		Benchmarks []struct {
			Name string `json:"name"`
		} `json:"benchmarks"`
	} `json:"identical"`
	Broken *Broken `json:"broken"`
	// Troubles are the report's benchmarks (or packages) a side could
	// not measure as it measured the others, each side's kind and why
	// (absent from reports written before wirebench had them).
	Troubles []struct {
		Name string   `json:"name"`
		Base *Trouble `json:"base"`
		Head *Trouble `json:"head"`
	} `json:"troubles"`
}

// Trouble is one side's trouble of a benchmark or package: skipped,
// failed, not counted or not built, and why.
type Trouble struct {
	Kind string `json:"kind"`
	Why  string `json:"why"`
}

// Broken is the report's broken: what could not be measured, and the
// error.
type Broken struct {
	What  string `json:"what"`
	Error string `json:"error"`
}

// Comparison is one comparison of the report.
type Comparison struct {
	Name        string   `json:"name"`
	Unit        string   `json:"unit"`
	Verdict     string   `json:"verdict"`
	Change      *float64 `json:"change"`
	Note        string   `json:"note"`
	Enforced    bool     `json:"enforced"`
	Unconfirmed bool     `json:"unconfirmed"`
	Accepted    any      `json:"accepted"`
}

// Failing reports whether c is a regression that fails the run.
func (c Comparison) Failing() bool {
	return c.Verdict == "regression" && c.Enforced && !c.Unconfirmed && c.Accepted == nil
}

// The classes of a benchmark in a wirebench run.
const (
	Counted    = "counted"
	TimedOnly  = "timed only"
	Identical  = "identical, not measured"
	OneSide    = "one side only"
	Failed     = "failed"
	NotCounted = "not counted"
)

// Class is what became of one benchmark in a run, and why.
type Class struct {
	Kind string
	Why  string
}

// classify is what became of each benchmark of a run, by name
// ("import/path BenchmarkName/sub"): those of the report and those the
// head ran natively (native). It is the one place that reads the
// report's per-benchmark account:
//
//   - counted: a comparison of a counted unit (instructions/op,
//     est-cycles/op);
//   - timed only: comparisons, none counted, one a timing (ns/op); why:
//     a comparison's note, else the report's why;
//   - identical, not measured: a benchmark of a package listed identical;
//   - one side only: the report's new (only in the head) and missing (only
//     in the base);
//   - failed: nothing was compared because a side could not be measured
//     (the report's broken: what, and the error's first line);
//   - not counted: anything else, e.g. a benchmark the head runs natively
//     that the report does not name, or one compared in other units only.
//
// The report has no per-benchmark field yet saying why a benchmark was
// not counted or was only timed; when it has one, read it here (it then
// takes precedence over the guesses above).
func classify(r *Report, native []string) map[string]Class {
	out := map[string]Class{}
	units := map[string][]Comparison{}
	for _, c := range r.Comparisons {
		units[c.Name] = append(units[c.Name], c)
	}
	for name, cs := range units {
		counted, timed, note := false, false, ""
		for _, c := range cs {
			switch {
			case c.Unit == "instructions/op" || c.Unit == "est-cycles/op":
				counted = true
			case c.Unit == "ns/op":
				timed = true
			}
			if note == "" && c.Note != "" {
				note = c.Note
			}
		}
		switch {
		case counted:
			out[name] = Class{Kind: Counted}
		case timed:
			out[name] = Class{Kind: TimedOnly, Why: firstNonEmpty(note, r.Why, "no count in the report")}
		default:
			out[name] = Class{Kind: NotCounted, Why: "compared in other units only"}
		}
	}
	for _, id := range r.Identical {
		for _, b := range id.Benchmarks {
			out[b.Name] = Class{Kind: Identical, Why: id.Reason}
		}
	}
	troubles(r, native, out)
	for _, name := range r.New {
		if _, ok := out[name]; !ok {
			out[name] = Class{Kind: OneSide, Why: "only in the head (new)"}
		}
	}
	for _, name := range r.Missing {
		if _, ok := out[name]; !ok {
			out[name] = Class{Kind: OneSide, Why: "only in the base (missing)"}
		}
	}
	for _, name := range native {
		if _, ok := out[name]; ok {
			continue
		}
		if r.Broken != nil {
			out[name] = Class{Kind: Failed, Why: r.Broken.What + ": " + errorWhy(r.Broken.Error)}
			continue
		}
		out[name] = Class{Kind: NotCounted, Why: "ran natively, not in the report"}
	}
	return out
}

// troubles classifies the benchmarks of the report's troubles by the
// head's trouble (the base's where the head had none): one not counted
// under Valgrind is timed only where the clock compared it, not counted
// otherwise, with why; one that failed natively, or whose package did
// not build (every native benchmark of it), failed, with why. A
// benchmark skipped natively gave no result line, so it is in no column.
func troubles(r *Report, native []string, out map[string]Class) {
	for _, t := range r.Troubles {
		tr := t.Head
		side := "head"
		if tr == nil {
			tr, side = t.Base, "base"
		}
		why := side + " " + tr.Kind + ": " + tr.Why
		switch tr.Kind {
		case "not counted":
			if c, ok := out[t.Name]; ok && c.Kind == TimedOnly {
				out[t.Name] = Class{Kind: TimedOnly, Why: why}
			} else {
				out[t.Name] = Class{Kind: NotCounted, Why: why}
			}
		case "failed":
			out[t.Name] = Class{Kind: Failed, Why: why}
		case "not built":
			for _, name := range native {
				if strings.HasPrefix(name, t.Name+" ") {
					out[name] = Class{Kind: Failed, Why: why}
				}
			}
		}
	}
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// compilerError is a compiler's error line: file:line:column: message.
var compilerError = regexp.MustCompile(`\.go:\d+:\d+: `)

// errorWhy is the gist of an error's text: its first line and, when a
// later line is a compiler's error, that line too.
func errorWhy(s string) string {
	why := firstLine(s)
	for _, l := range strings.Split(s, "\n")[1:] {
		if compilerError.MatchString(l) {
			return why + ": " + strings.TrimSpace(l)
		}
	}
	return why
}

// stderrWhy is why a run that wrote no report ended, from its stderr:
// wirebench's last line that says it could not do something (or its last
// line), and the first compiler error.
func stderrWhy(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var last, failed, compiler string
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "wirebench: "):
			last = l
			if strings.Contains(l, "cannot") || strings.Contains(l, "error") || strings.Contains(l, "fail") {
				failed = l
			}
		case compiler == "" && compilerError.MatchString(l):
			compiler = strings.TrimSpace(l)
		}
	}
	why := firstNonEmpty(failed, last, lastLines(string(b), 1))
	if compiler != "" {
		why += ": " + compiler
	}
	return why
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// tally is "N" or "N (why: k; why: k)" of the benchmarks of one class.
func tally(classes map[string]Class, kind string, withWhy bool) string {
	n := 0
	why := map[string]int{}
	for _, c := range classes {
		if c.Kind == kind {
			n++
			why[short(c.Why, 200)]++
		}
	}
	if n == 0 || !withWhy {
		return strconv.Itoa(n)
	}
	var parts []string
	for w, k := range why {
		if w == "" {
			w = "no reason given"
		}
		parts = append(parts, fmt.Sprintf("%s: %d", w, k))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d (%s)", n, strings.Join(parts, "; "))
}

// verdict is the run's verdict and the regressions that failed it.
func verdict(r *Report) string {
	if r.Broken != nil {
		return "fail: " + short(r.Broken.What+": "+errorWhy(r.Broken.Error), 300)
	}
	var failing []string
	unconfirmed := 0
	for _, c := range r.Comparisons {
		switch {
		case c.Failing():
			ch := "?"
			if c.Change != nil {
				ch = fmt.Sprintf("%+.2f%%", 100**c.Change)
			}
			failing = append(failing, fmt.Sprintf("%s %s %s", c.Name, c.Unit, ch))
		case c.Verdict == "regression" && c.Unconfirmed:
			unconfirmed++
		}
	}
	s := r.Verdict
	if len(failing) > 0 {
		shown := failing
		if len(shown) > 5 {
			shown = shown[:5]
		}
		s += fmt.Sprintf(": %d regression(s): %s", len(failing), strings.Join(shown, ", "))
		if len(failing) > len(shown) {
			s += fmt.Sprintf(", and %d more", len(failing)-len(shown))
		}
	}
	if unconfirmed > 0 {
		s += fmt.Sprintf(" (%d regression(s) not confirmed)", unconfirmed)
	}
	return s
}

func runTable(w io.Writer, work, mode string, libs []string) error {
	fmt.Fprintln(w, "| library | versions | natively (head) | counted | timed only (why) | identical, not measured | one side only | failed (why) | not counted (why) | exit | time (s) | load before → after | verdict (flagged) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, lib := range libs {
		meta := keyValues(filepath.Join(work, lib, "meta.tsv"))
		versions := meta["base"] + " → " + meta["head"]
		if strings.HasPrefix(mode, "aa") {
			versions = meta["head"] + " → " + meta["head"]
		}
		var n Native
		nativeCount := "?"
		if err := readJSON(filepath.Join(work, lib, "native-head.summary.json"), &n); err == nil {
			nativeCount = strconv.Itoa(len(n.Results))
		}
		rec := keyValues(filepath.Join(work, lib, mode, "run.tsv"))
		var r Report
		if err := readJSON(filepath.Join(work, lib, mode, "report.json"), &r); err != nil {
			if rec["exit"] == "" {
				fmt.Fprintf(w, "| %s | %s | %s | | | | | | | | | | not run |\n", lib, versions, nativeCount)
				continue
			}
			// No report: wirebench stopped before comparing (a base that
			// does not build is exit 2). Every benchmark failed, and why.
			r = Report{Verdict: "no report", Broken: &Broken{What: "no JSON report", Error: stderrWhy(filepath.Join(work, lib, mode, "stderr.log"))}}
		}
		classes := classify(&r, n.Results)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s → %s | %s |\n",
			lib, versions, nativeCount,
			tally(classes, Counted, false), cell(tally(classes, TimedOnly, true)), tally(classes, Identical, false),
			cell(tally(classes, OneSide, true)), cell(tally(classes, Failed, true)), cell(tally(classes, NotCounted, true)),
			rec["exit"], rec["seconds"], rec["load_before"], rec["load_after"], cell(verdict(&r)))
	}
	return nil
}
