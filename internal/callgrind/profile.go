package callgrind

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Profile is where a dump's work went: the self cost of every function
// (its own instructions, not those of the functions it called), by the
// function's symbol as callgrind names it (for Go code the linker's
// symbol: "encoding/binary.AppendUvarint", "main.(*enc).put",
// "main.each[go.shape.int]"). Code the compiler inlined is its caller's:
// callgrind attributes an instruction to the symbol it lies in, and
// wirebench does not ask it to read inlining information. A recursion
// level callgrind tells apart ("f'2") is counted as the function.
type Profile map[string]Counts

// Add adds o's functions to p's.
func (p Profile) Add(o Profile) {
	for fn, c := range o {
		p[fn] = p[fn].Add(c)
	}
}

// Total is the sum of every function's self cost: the dump's totals.
func (p Profile) Total() Counts {
	var t Counts
	for _, c := range p {
		t = t.Add(c)
	}
	return t
}

// ReadProfile reads a callgrind dump's totals and the self cost of every
// function in it (see Profile). The self costs must add up to the
// totals, or the dump is not what this reader understands: an error.
func ReadProfile(r io.Reader) (Counts, Profile, error) {
	d, err := parseDump(r, byFunction)
	if err == nil {
		err = d.profileErr
	}
	if err != nil {
		return Counts{}, nil, err
	}
	return d.totals, d.profile, nil
}

// dump is what parseDump read of one dump file.
type dump struct {
	totals Counts
	// profile is nil unless asked for, or when its self costs do not add
	// up to the totals (profileErr says so).
	profile    Profile
	profileErr error
	// lines is nil unless asked for (ReadLines).
	lines Lines
	// sysmon is set when the dump is of the Go runtime's monitor thread
	// (it ran runtime.sysmon).
	sysmon bool
}

// reading says what parseDump reads beyond the totals: the self cost by
// function (a count's every block), or by source line as well (the few
// kept dumps a report opens).
type reading int

const (
	totalsOnly reading = iota
	byFunction
	byLine
)

// parseDump reads a dump in callgrind's format
// (valgrind.org/docs/manual/cl-format.html): its "events:" and
// "totals:" lines and, by function or line, every cost line, each added
// to the function of the last "fn=" line but the line after a "calls="
// line, which is the inclusive cost of a call and belongs to the callee.
// Names may be compressed: "(id) name" defines id, "(id)" refers to it;
// functions (fn=, cfn=) share one table, files (fl=, fi=, fe=, cfi=,
// cfl=) another. Positions may be compressed too: a cost line begins
// with as many positions as the "positions:" line names (an address, a
// line: "12", "+3" or "-2" relative to the cost line before, a call's
// included, "*" the same), then the events' values, trailing zeros left
// out. By line, a function's lines are in the file of its "fl=" line, or
// of the "fi="/"fe=" line of code inlined from another file; a call's
// target position ("calls=" line) does not move them.
func parseDump(r io.Reader, want reading) (dump, error) {
	sc := bufio.NewScanner(io.LimitReader(r, maxDump+1))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	ps := newDumpParser(want)
	read, n := 0, 0
	for sc.Scan() {
		line := sc.Bytes()
		read += len(line) + 1
		n++
		if err := ps.line(line); err != nil {
			return dump{}, fmt.Errorf("callgrind dump: line %d: %w", n, err)
		}
	}
	switch err := sc.Err(); {
	case err != nil:
		return dump{}, fmt.Errorf("callgrind dump: %w", err)
	case read > maxDump:
		return dump{}, fmt.Errorf("callgrind dump: larger than %d bytes", maxDump)
	}
	return ps.finish()
}

// dumpParser is what parseDump knows of a dump while it reads it, line
// by line: the lines that name the events, positions and totals, the
// current function and file, and the costs added up so far.
type dumpParser struct {
	want           reading
	d              dump
	events, totals []string
	index          []int             // the Counts field of each event (eventFields), -1 for none
	positions      []string          // the positions a cost line begins with ("line", "instr")
	names          map[string]string // compressed function names by id
	fn             string            // the current function
	self           Counts            // its cost since its "fn=" line
	callCost       bool              // the next cost line is a call's
	profile        Profile
	// By line: the compressed file names, the current function's file
	// and the file its costs lie in now, the last positions.
	files        map[string]string
	fnFile, file string
	last         []int64
}

// newDumpParser is a parser of a dump that has said nothing yet: one
// position, the line, until a "positions:" line says otherwise.
func newDumpParser(want reading) *dumpParser {
	ps := &dumpParser{want: want, positions: []string{"line"}, names: map[string]string{}, profile: Profile{},
		files: map[string]string{}, last: make([]int64, 1)}
	if want == byLine {
		ps.d.lines = Lines{}
	}
	return ps
}

// line reads one line of the dump: a cost line (it begins with a
// position) or one that names something; blank lines and those it does
// not know are nothing. The error does not say the line's number.
func (ps *dumpParser) line(line []byte) error {
	if len(line) == 0 {
		return nil
	}
	if c := line[0]; c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*' {
		if ps.want == totalsOnly {
			return nil
		}
		return ps.cost(line)
	}
	key, value, _ := bytes.Cut(line, []byte("="))
	switch {
	case string(key) == "fn":
		return ps.function(string(value))
	case string(key) == "cfn":
		_, err := decompress(ps.names, string(value))
		return err
	case ps.want == byLine && isFileKey(key):
		return ps.fileName(string(key), string(value))
	case string(key) == "calls":
		ps.callCost = true
	case bytes.HasPrefix(line, []byte("events:")):
		ps.events = strings.Fields(string(line[len("events:"):]))
		ps.index = eventIndex(ps.events)
	case bytes.HasPrefix(line, []byte("positions:")):
		ps.positions = strings.Fields(string(line[len("positions:"):]))
		ps.last = make([]int64, len(ps.positions))
	case bytes.HasPrefix(line, []byte("totals:")):
		ps.totals = strings.Fields(string(line[len("totals:"):]))
	}
	return nil
}

// isFileKey reports whether a line's key names a file: fl=, fi=, fe=,
// cfi= or cfl=.
func isFileKey(key []byte) bool {
	switch string(key) {
	case "fl", "fi", "fe", "cfi", "cfl":
		return true
	}
	return false
}

// cost reads a cost line: its positions (by line, where it lies), then
// its values, added to the current function (and line), but for the
// line after a "calls=" line, the callee's inclusive cost.
func (ps *dumpParser) cost(line []byte) error {
	if ps.index == nil || ps.fn == "" {
		return errors.New("a cost before the events line or the first function")
	}
	rest, skip := line, len(ps.positions)
	if ps.want == byLine {
		var err error
		if rest, err = readPositions(line, ps.last); err != nil {
			return err
		}
		skip = 0
	}
	if ps.callCost {
		ps.callCost = false
		return nil
	}
	var cost Counts
	if err := addCost(&cost, rest, skip, ps.index); err != nil {
		return err
	}
	ps.self = ps.self.Add(cost)
	if ps.want == byLine && cost != (Counts{}) {
		at := Line{File: ps.file, Fn: ps.fn}
		if i := slices.Index(ps.positions, "line"); i >= 0 {
			at.Line = ps.last[i]
		}
		ps.d.lines[at] = ps.d.lines[at].Add(cost)
	}
	return nil
}

// function reads an "fn=" line: the function before it is done, the
// named one current, its costs in its own file again.
func (ps *dumpParser) function(value string) error {
	name, err := decompress(ps.names, value)
	if err != nil {
		return err
	}
	ps.profile.add(ps.fn, ps.self)
	ps.fn, ps.self, ps.file = recursionless(name), Counts{}, ps.fnFile
	ps.d.sysmon = ps.d.sysmon || ps.fn == "runtime.sysmon"
	return nil
}

// fileName reads a line that names a file (by line only): "fl=" is the
// file of the functions that follow, "fi=" and "fe=" the file of the
// costs that follow (code inlined from it), a call's files ("cfi=",
// "cfl=") only define their compressed names.
func (ps *dumpParser) fileName(key, value string) error {
	name, err := decompress(ps.files, value)
	if err != nil {
		return err
	}
	switch key {
	case "fl":
		ps.fnFile, ps.file = name, name
	case "fi", "fe":
		ps.file = name
	}
	return nil
}

// finish is the dump read to its end: its totals, and its lines and
// profile with the totals' CacheSim, the profile dropped (profileErr)
// when its self costs do not add up to the totals.
func (ps *dumpParser) finish() (dump, error) {
	switch {
	case ps.events == nil:
		return dump{}, errors.New("callgrind dump: no events line")
	case ps.totals == nil:
		return dump{}, errors.New("callgrind dump: no totals line (cut short?)")
	}
	d := ps.d
	var err error
	if d.totals, err = parseSummary(ps.events, ps.totals); err != nil {
		return dump{}, err
	}
	for at, c := range d.lines {
		c.CacheSim = d.totals.CacheSim
		d.lines[at] = c
	}
	if ps.want != totalsOnly {
		p := ps.profile
		p.add(ps.fn, ps.self)
		for name, c := range p {
			c.CacheSim = d.totals.CacheSim
			p[name] = c
		}
		d.profile = p
		if got := p.Total(); got.Ir != d.totals.Ir {
			d.profile, d.profileErr = nil, fmt.Errorf("callgrind dump: its functions' self costs add up to %d instructions, its totals to %d", got.Ir, d.totals.Ir)
		}
	}
	return d, nil
}

// add adds c to fn's cost; nothing for a cost that is all zeros.
func (p Profile) add(fn string, c Counts) {
	if c != (Counts{}) {
		p[fn] = p[fn].Add(c)
	}
}

// recursionless is a function's name without the recursion level
// callgrind appends to a function that calls itself ("f'2"): every level
// is the function's own work.
func recursionless(name string) string {
	i := strings.LastIndexByte(name, '\'')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// decompress reads a name that may be compressed: "(id) name" defines id
// in names and is name, "(id)" is the name id was defined as, anything
// else is itself.
func decompress(names map[string]string, s string) (string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return s, nil
	}
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return "", fmt.Errorf("unterminated compressed name %q", abbreviated(s))
	}
	id, name := s[1:end], strings.TrimSpace(s[end+1:])
	if name != "" {
		names[id] = name
		return name, nil
	}
	name, ok := names[id]
	if !ok {
		return "", fmt.Errorf("compressed name (%s) used before it is defined", abbreviated(id))
	}
	return name, nil
}

// abbreviated is at most 40 bytes of s, for an error.
func abbreviated(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// eventFields are the events Counts holds, in the order of its fields
// (Counts.addEvent).
var eventFields = []string{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"}

// eventIndex is, for each event of an "events:" line, its field of
// Counts (an index of eventFields), -1 for an event Counts does not
// hold.
func eventIndex(events []string) []int {
	idx := make([]int, len(events))
	for i, e := range events {
		idx[i] = slices.Index(eventFields, e)
	}
	return idx
}

// fields are c's fields of the events, in the order of eventFields.
func (c *Counts) fields() [9]*uint64 {
	return [...]*uint64{&c.Ir, &c.Dr, &c.Dw, &c.I1mr, &c.D1mr, &c.D1mw, &c.ILmr, &c.DLmr, &c.DLmw}
}

// addEvent adds x to the field of Counts at index i of eventFields;
// nothing for an index out of it (-1: an event Counts does not hold).
func (c *Counts) addEvent(i int, x uint64) {
	if f := c.fields(); i >= 0 && i < len(f) {
		*f[i] += x
	}
}

// addCost adds the values of a cost line, after its positions, to c:
// the line's fields are separated by spaces, the values decimal.
func addCost(c *Counts, line []byte, positions int, index []int) error {
	field := 0
	for len(line) > 0 {
		i := bytes.IndexByte(line, ' ')
		if i == 0 {
			line = line[1:]
			continue
		}
		var f []byte
		if i < 0 {
			f, line = line, nil
		} else {
			f, line = line[:i], line[i+1:]
		}
		k := field - positions
		field++
		if k < 0 {
			continue
		}
		if k >= len(index) {
			return fmt.Errorf("more values than the %d events", len(index))
		}
		x, ok := decimal(f)
		if !ok {
			return fmt.Errorf("value %q is not a count", abbreviated(string(f)))
		}
		c.addEvent(index[k], x)
	}
	if field < positions {
		return fmt.Errorf("a cost line with %d of its %d positions", field, positions)
	}
	return nil
}

// decimal parses an unsigned decimal number without allocating.
func decimal(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var x uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if x > (math.MaxUint64-d)/10 {
			return 0, false
		}
		x = x*10 + d
	}
	return x, true
}
