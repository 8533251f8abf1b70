package accept

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wirebench/wirebench/internal/results"
)

// DefaultLabel is the label that accepts every flagged change of a pull
// request, unless the accept-label setting names another.
const DefaultLabel = "wirebench:accept"

// Key is the key of an acceptance line, matched without regard to case
// as git matches trailer keys.
const Key = "Wirebench-Accept"

// Acceptance is one intended change a pull request declared: every
// flagged benchmark (a label: Pattern empty) or the benchmarks Pattern
// matches, with who declared it and why. It is stored in the baseline's
// history with the run of the merge, so its fields are JSON.
type Acceptance struct {
	// Pattern is a Go regular expression (the syntax of the filter and
	// bench settings), matched against a benchmark's name and against
	// its key (package and name) anywhere in them; empty accepts every
	// benchmark.
	Pattern string `json:"pattern,omitempty"`
	// Reason is the rest of the line after the pattern, as written: text
	// of the pull request, to be escaped wherever it is shown.
	Reason string `json:"reason,omitempty"`
	// By is the login that declared it when known: the author of the
	// commit or of the pull request, or whoever added the label when the
	// run was triggered by adding it.
	By string `json:"by,omitempty"`
	// Source says where it was declared: "label wirebench:accept", "the
	// pull request's description", "commit 1a2b3c4".
	Source string `json:"source"`
	// PR is the pull request's number, when known.
	PR int `json:"pr,omitempty"`
}

// All reports whether a accepts every benchmark.
func (a Acceptance) All() bool { return a.Pattern == "" }

// Matches reports whether a accepts the benchmark of key (a comparison's
// or a history entry's name: results.Key of its package and name). A
// pattern that does not compile matches nothing (Parse refuses such
// lines, so only an edited baseline holds one).
func (a Acceptance) Matches(key string) bool {
	if a.All() {
		return true
	}
	re, err := regexp.Compile(a.Pattern)
	if err != nil {
		return false
	}
	_, name := results.SplitKey(key)
	return re.MatchString(key) || re.MatchString(name)
}

// String describes a in plain text for logs and notes: where, by whom,
// what and why (the pull request's text as written: escape it for
// Markdown).
func (a Acceptance) String() string {
	var b strings.Builder
	b.WriteString(a.Source)
	if a.PR > 0 {
		fmt.Fprintf(&b, " of #%d", a.PR)
	}
	if a.By != "" {
		b.WriteString(" by @" + a.By)
	}
	if a.All() {
		b.WriteString(": every flagged change")
	} else {
		b.WriteString(": " + a.Pattern)
	}
	if a.Reason != "" {
		b.WriteString(" (" + a.Reason + ")")
	}
	return b.String()
}

// Set is what a pull request accepts.
type Set []Acceptance

// Match returns the first acceptance of s that accepts key.
func (s Set) Match(key string) (Acceptance, bool) {
	for _, a := range s {
		if a.Matches(key) {
			return a, true
		}
	}
	return Acceptance{}, false
}

// Problem is a Wirebench-Accept line that accepts nothing, and why.
type Problem struct {
	Source string // where the line is, as Acceptance.Source
	Line   string // the line as written (pull request text)
	Why    string
}

func (p Problem) Error() string {
	return fmt.Sprintf("%s: %q accepts nothing: %s", p.Source, p.Line, p.Why)
}

// maxLine bounds the part of a line kept in a Problem or a reason: the
// text is the pull request's, and may be anything.
const maxLine = 200

// parseLine reads the value of one Wirebench-Accept line: a pattern, then
// an optional reason.
func parseLine(value, line string, src Acceptance) (Acceptance, *Problem) {
	fields := strings.Fields(value)
	if len(fields) == 0 {
		return Acceptance{}, &Problem{Source: src.Source, Line: clip(line), Why: "it names no benchmark; write `" + Key + ": <benchmark pattern> [reason]`"}
	}
	pattern := fields[0]
	if _, err := regexp.Compile(pattern); err != nil {
		return Acceptance{}, &Problem{Source: src.Source, Line: clip(line), Why: fmt.Sprintf("%s is not a valid regular expression (%v); the pattern is the first word, with the syntax of the bench and filter settings", pattern, err)}
	}
	a := src
	a.Pattern = pattern
	a.Reason = clip(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), pattern)))
	return a, nil
}

// value returns the value of line if it is a Wirebench-Accept line.
func value(line string) (string, bool) {
	k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
	if !ok || !strings.EqualFold(strings.TrimSpace(k), Key) {
		return "", false
	}
	return v, true
}

func clip(s string) string {
	if len(s) <= maxLine {
		return s
	}
	for n := maxLine; n > 0; n-- {
		if s[n]&0xC0 != 0x80 {
			return s[:n] + "…"
		}
	}
	return ""
}

// FromDescription reads the Wirebench-Accept lines of a pull request's
// description, each the start of a line (indentation aside), outside
// fenced code blocks and HTML comments: an example in a code block or in
// the commented-out part of a pull request template accepts nothing. src
// gives the Source, By and PR of every acceptance found.
func FromDescription(body string, src Acceptance) (Set, []Problem) {
	var set Set
	var problems []Problem
	fence, comment := "", false
	for line := range strings.Lines(body) {
		line = strings.TrimRight(line, "\r\n")
		t := strings.TrimSpace(line)
		switch {
		case comment:
			comment = !strings.Contains(t, "-->")
			continue
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			continue
		case strings.HasPrefix(t, "<!--"):
			comment = !strings.Contains(t, "-->")
			continue
		}
		if v, ok := value(line); ok {
			if a, p := parseLine(v, t, src); p != nil {
				problems = append(problems, *p)
			} else {
				set = append(set, a)
			}
		}
	}
	return set, problems
}

// FromCommit reads the Wirebench-Accept trailers of a commit message:
// lines of its last paragraph, as git reads trailers (git
// interpret-trailers), so that a line quoted in the body of the message
// accepts nothing. src gives the Source, By and PR.
func FromCommit(message string, src Acceptance) (Set, []Problem) {
	paragraphs := strings.Split(strings.ReplaceAll(strings.TrimSpace(message), "\r\n", "\n"), "\n\n")
	if len(paragraphs) < 2 {
		return nil, nil // a subject line alone has no trailers
	}
	var set Set
	var problems []Problem
	for line := range strings.Lines(paragraphs[len(paragraphs)-1]) {
		line = strings.TrimRight(line, "\n")
		if v, ok := value(line); ok {
			if a, p := parseLine(v, strings.TrimSpace(line), src); p != nil {
				problems = append(problems, *p)
			} else {
				set = append(set, a)
			}
		}
	}
	return set, problems
}
