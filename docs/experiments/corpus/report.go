package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

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
