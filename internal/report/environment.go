package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// envField is one line of the side-by-side environment table.
type envField struct {
	name string
	get  func(results.Env) string
	// mark says whether a difference is worth pointing out: the machine,
	// Go and versions are; commits, refs and times always differ.
	mark bool
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func itoaOrEmpty(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func platform(e results.Env) string {
	if e.GOOS == "" && e.GOARCH == "" {
		return ""
	}
	return e.GOOS + "/" + e.GOARCH
}

// keyFields are shown in the report body.
var keyFields = []envField{
	{"Commit", func(e results.Env) string { return ShortSHA(e.Commit) }, false},
	{"Ref", func(e results.Env) string { return e.Ref }, false},
	{"Go", func(e results.Env) string { return e.GoVersion }, true},
	{"GOOS/GOARCH", platform, true},
	{"CPU", func(e results.Env) string { return e.CPU }, true},
	{"GOMAXPROCS", func(e results.Env) string { return itoaOrEmpty(e.GOMAXPROCS) }, true},
	{"Machine", func(e results.Env) string { return e.Machine }, true},
}

// fullFields are shown in the collapsed full environment, followed by the
// codec libraries' versions.
var fullFields = []envField{
	{"Commit", func(e results.Env) string { return e.Commit }, false},
	{"Ref", func(e results.Env) string { return e.Ref }, false},
	{"Measured at", func(e results.Env) string {
		if e.Time.IsZero() {
			return ""
		}
		return e.Time.UTC().Format(time.RFC3339)
	}, false},
	{"Go", func(e results.Env) string { return e.GoVersion }, true},
	{"GOOS/GOARCH", platform, true},
	{"CPU", func(e results.Env) string { return e.CPU }, true},
	{"CPUs", func(e results.Env) string { return itoaOrEmpty(e.NumCPU) }, true},
	{"GOMAXPROCS", func(e results.Env) string { return itoaOrEmpty(e.GOMAXPROCS) }, true},
	{"Machine", func(e results.Env) string { return e.Machine }, true},
	{"Runner", func(e results.Env) string { return e.Runner }, false},
	{"wirebench", func(e results.Env) string { return e.Wirebench }, true},
}

// envTable renders two environments side by side as a Markdown table,
// the candidate's value in bold where a difference matters. With modules
// it adds a line per codec library.
func envTable(base, cand results.Env, fields []envField, modules bool) string {
	var b strings.Builder
	b.WriteString("| | Baseline | Candidate |\n|:--|:--|:--|\n")
	row := func(name, x, y string, mark bool) {
		if x == "" && y == "" {
			return
		}
		cy := EscapeCell(orDash(y))
		if mark && x != y {
			cy = "**" + cy + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", EscapeCell(name), EscapeCell(orDash(x)), cy)
	}
	for _, f := range fields {
		row(f.name, f.get(base), f.get(cand), f.mark)
	}
	if modules {
		var names []string
		for m := range base.Modules {
			names = append(names, m)
		}
		for m := range cand.Modules {
			if _, ok := base.Modules[m]; !ok {
				names = append(names, m)
			}
		}
		slices.Sort(names)
		for _, m := range names {
			row(m, base.Modules[m], cand.Modules[m], true)
		}
	}
	return b.String()
}

// shiftSentence says what was done about the machine's speed shift, in
// running text in the style st.
func shiftSentence(r *compare.Result, st style) string {
	s := r.Shift
	switch {
	case s == nil && (paired(r) || clockPaired(r)):
		return "Both builds were timed on this machine at the same time, so no speed shift between machines applies."
	case s == nil:
		return "No timings were compared, so no machine speed shift was estimated."
	}
	est := factor(s.Estimate)
	if !math.IsNaN(s.Lo) && !math.IsNaN(s.Hi) {
		est += fmt.Sprintf(" [%.2f, %.2f]", s.Lo, s.Hi)
	}
	of := fmt.Sprintf("geometric mean of %s", human.Plural(s.N, "timing", "timings"))
	if s.Median {
		of = fmt.Sprintf("median of %s", human.Plural(s.N, "timing", "timings"))
	}
	if s.Applied {
		return fmt.Sprintf("Timings were judged relative to the machine's speed shift of %s (%s), because %s: "+
			"a change that slows every benchmark alike cannot be told apart from a slower machine.",
			est, of, st.text(lowerFirst(s.Reason)))
	}
	return fmt.Sprintf("Timings were compared as measured, not relative to the machine's speed shift: %s. "+
		"For reference, the shift is %s (%s).", st.text(lowerFirst(s.Reason)), est, of)
}

// otherSentence lists the non-machine differences (Go and library
// versions), which are code changes and are never normalised away, in
// the style st.
func otherSentence(d []results.Difference, st style) string {
	if len(d) == 0 {
		return ""
	}
	parts := make([]string, len(d))
	for i, x := range d {
		parts[i] = st.text(x.String())
	}
	return "Also different, and judged as part of the change (a pull request may change them on purpose): " + strings.Join(parts, "; ") + "."
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// envLine describes an environment on one line, for the text format.
func envLine(e results.Env) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(e.GoVersion)
	add(platform(e))
	add(e.CPU)
	if e.GOMAXPROCS > 0 {
		add("GOMAXPROCS=" + strconv.Itoa(e.GOMAXPROCS))
	}
	if e.Machine != "" {
		add("machine " + e.Machine)
	}
	if e.Commit != "" {
		add("commit " + ShortSHA(e.Commit))
	}
	if e.Ref != "" {
		add(e.Ref)
	}
	if len(parts) == 0 {
		return "(environment not recorded)"
	}
	return strings.Join(parts, ", ")
}
