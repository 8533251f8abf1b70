package callgrind

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Line is a source line of a function: where a dump's self cost lies.
// Code inlined from another file lies in that file, in the function it
// was inlined into.
type Line struct {
	File, Fn string
	Line     int64
}

// Lines is the self cost of every source line of a dump (or of several
// summed: Add), what cg_annotate shows, and cg_diff compares, once
// written in cachegrind's format (WriteCachegrind).
type Lines map[Line]Counts

// Add adds o's costs to l's.
func (l Lines) Add(o Lines) {
	for k, c := range o {
		l[k] = l[k].Add(c)
	}
}

// ReadLines reads the self cost of every source line of a callgrind
// dump: as ReadProfile, by line as well as by function (parseDump says
// how files and positions are read; an address column, with
// --dump-instr=yes, is read and left out).
func ReadLines(r io.Reader) (Lines, error) {
	d, err := parseDump(r, byLine)
	if err != nil {
		return nil, err
	}
	return d.lines, nil
}

// readPositions reads the len(last) positions a cost line begins with
// into last (each absolute, "0x" hexadecimal or decimal, or relative to
// the one before: "+N", "-N", "*" the same) and returns the rest of the
// line.
func readPositions(line []byte, last []int64) ([]byte, error) {
	for i := range last {
		line = bytes.TrimLeft(line, " ")
		f := line
		if j := bytes.IndexByte(line, ' '); j >= 0 {
			f, line = line[:j], line[j:]
		} else {
			line = nil
		}
		if len(f) == 0 {
			return nil, fmt.Errorf("a cost line with %d of its %d positions", i, len(last))
		}
		var v int64
		var err error
		switch {
		case string(f) == "*":
			continue
		case f[0] == '+' || f[0] == '-':
			v, err = strconv.ParseInt(string(f), 0, 64)
			v += last[i]
		default:
			var u uint64
			u, err = strconv.ParseUint(string(f), 0, 63)
			v = int64(u)
		}
		if err != nil {
			return nil, fmt.Errorf("position %q: %v", abbreviated(string(f)), err)
		}
		last[i] = v
	}
	return bytes.TrimLeft(line, " "), nil
}

// WriteCachegrind writes the self cost of every line of plus less that
// of minus (a block of n operations less one of none: nil; a difference
// block of 2n less its block of n) in cachegrind's format, which
// cg_annotate shows, per function and annotated source line, and cg_diff
// compares (`cg_diff base head > diff; cg_annotate diff`): callgrind's
// own tools of Valgrind 3.19 compare no two dumps. cmd is the command
// line the file names. The events are instructions, and with the cache
// simulation the other eight Counts holds.
func WriteCachegrind(w io.Writer, cmd string, plus, minus Lines) error {
	cacheSim := false
	all := map[Line]bool{}
	for _, l := range []Lines{plus, minus} {
		for k, c := range l {
			all[k] = true
			cacheSim = cacheSim || c.CacheSim
		}
	}
	events := eventFields[:1]
	if cacheSim {
		events = eventFields
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "desc: self cost per line, written by wirebench from callgrind's dumps\ncmd: %s\nevents: %s\n", oneLine(cmd), strings.Join(events, " "))
	keys := slices.SortedFunc(maps.Keys(all), func(a, b Line) int {
		return cmp.Or(strings.Compare(a.File, b.File), strings.Compare(a.Fn, b.Fn), cmp.Compare(a.Line, b.Line))
	})
	sum := make([]int64, len(events))
	var file, fn string
	for i, k := range keys {
		if i == 0 || k.File != file {
			file, fn = k.File, ""
			fmt.Fprintf(bw, "fl=%s\n", oneLine(file))
		}
		if k.Fn != fn || i == 0 {
			fn = k.Fn
			fmt.Fprintf(bw, "fn=%s\n", oneLine(fn))
		}
		p, m := plus[k].values(), minus[k].values()
		bw.WriteString(strconv.FormatInt(k.Line, 10))
		for e := range events {
			v := int64(p[e]) - int64(m[e])
			sum[e] += v
			bw.WriteString(" " + strconv.FormatInt(v, 10))
		}
		bw.WriteString("\n")
	}
	bw.WriteString("summary:")
	for _, v := range sum {
		bw.WriteString(" " + strconv.FormatInt(v, 10))
	}
	bw.WriteString("\n")
	return bw.Flush()
}

// values are c's events in the order of eventFields.
func (c Counts) values() [9]uint64 {
	return [9]uint64{c.Ir, c.Dr, c.Dw, c.I1mr, c.D1mr, c.D1mw, c.ILmr, c.DLmr, c.DLmw}
}

// oneLine is s without line breaks, which would end a line of the file.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
