package gotest

import (
	"fmt"
	"regexp"
	"strings"
)

// Select keeps the packages with a benchmark function that the go test
// -bench pattern can run: the pattern's first level (of each of its
// alternatives, split as the testing package splits it) must match the
// function's name, since a sub-benchmark runs only inside a function
// that does. Sub-benchmarks themselves are only known by running them, so
// a pattern that matches a function may still match no benchmark: the
// workers' listing says so then. A pattern that matches no function is
// an error naming it and the functions there are (in where, the package
// patterns), before anything is built.
func Select(pkgs []Package, pattern, where string) ([]Package, error) {
	var first []*regexp.Regexp
	for _, alt := range splitPattern(pattern) {
		re, err := regexp.Compile(alt[0])
		if err != nil {
			return nil, fmt.Errorf("-bench %q: %w", pattern, err)
		}
		first = append(first, re)
	}
	var out []Package
	var all []string
	for _, p := range pkgs {
		// A package that cannot be built, whose benchmarks are unknown
		// (a test file that does not parse), is kept: its row says so.
		matches := p.Broken != "" && len(p.Benchmarks()) == 0
		for _, name := range p.Benchmarks() {
			all = append(all, p.ImportPath+" "+name)
			for _, re := range first {
				matches = matches || re.MatchString(name)
			}
		}
		if matches {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--bench %q matches none of the %s in %s: %s (it is a regular expression on their names, level by level on /, as go test -bench reads it)", pattern, namesText(all), where, namesList(all))
	}
	return out, nil
}

// namesText is "3 benchmark functions".
func namesText(names []string) string {
	if len(names) == 1 {
		return "1 benchmark function"
	}
	return fmt.Sprintf("%d benchmark functions", len(names))
}

// namesList lists names, the first few of many.
func namesList(names []string) string {
	const show = 8
	if len(names) > show {
		return strings.Join(names[:show], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}

// splitPattern splits a -bench pattern as the testing package does: into
// alternatives at the top-level |, each into levels at the top-level /
// (neither inside brackets or parentheses, nor escaped).
func splitPattern(s string) [][]string {
	var alts [][]string
	var levels []string
	brackets, parens := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			brackets = max(brackets-1, 0)
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				levels = append(levels, s[:i])
				if s[i] == '|' {
					alts, levels = append(alts, levels), nil
				}
				s, i = s[i+1:], 0
				continue
			}
		}
		i++
	}
	return append(alts, append(levels, s))
}
