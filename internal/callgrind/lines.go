package callgrind

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
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
// dump: as ReadProfile, by line as well as by function. Files are named
// as the dump names them, "fl=" for a function's and "fi=" or "fe=" for
// code inlined from another; positions are read whole (an address
// column, with --dump-instr=yes, is read and left out), compressed
// relative to the cost line before, a call's included; a call's target
// position does not move it.
func ReadLines(r io.Reader) (Lines, error) {
	sc := bufio.NewScanner(io.LimitReader(r, maxDump+1))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	out := Lines{}
	var index []int
	cacheSim := false
	var positions []string
	var last []int64
	fns, files := map[string]string{}, map[string]string{}
	var fn, fnFile, file string
	callCost, read, n := false, 0, 0
	def := func(table map[string]string, s []byte) (string, error) {
		name, err := decompress(table, string(s))
		if err != nil {
			return "", fmt.Errorf("callgrind dump: line %d: %w", n, err)
		}
		return name, nil
	}
	for sc.Scan() {
		line := sc.Bytes()
		read += len(line) + 1
		n++
		if len(line) == 0 {
			continue
		}
		key, value, _ := bytes.Cut(line, []byte("="))
		var err error
		switch c := line[0]; {
		case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*':
			if index == nil || fn == "" {
				return nil, fmt.Errorf("callgrind dump: line %d: a cost before the events line or the first function", n)
			}
			if positions == nil {
				positions, last = []string{"line"}, make([]int64, 1)
			}
			rest, err := readPositions(line, last)
			if err != nil {
				return nil, fmt.Errorf("callgrind dump: line %d: %w", n, err)
			}
			if callCost {
				callCost = false
				continue
			}
			cost := Counts{CacheSim: cacheSim}
			if err := addCost(&cost, rest, 0, index); err != nil {
				return nil, fmt.Errorf("callgrind dump: line %d: %w", n, err)
			}
			at := Line{File: file, Fn: fn}
			if i := slices.Index(positions, "line"); i >= 0 {
				at.Line = last[i]
			}
			if cost != (Counts{CacheSim: cacheSim}) {
				out[at] = out[at].Add(cost)
			}
		case string(key) == "fn":
			if fn, err = def(fns, value); err != nil {
				return nil, err
			}
			fn, file = recursionless(fn), fnFile
		case string(key) == "cfn":
			if _, err = def(fns, value); err != nil {
				return nil, err
			}
		case string(key) == "fl":
			if fnFile, err = def(files, value); err != nil {
				return nil, err
			}
			file = fnFile
		case string(key) == "fi" || string(key) == "fe":
			if file, err = def(files, value); err != nil {
				return nil, err
			}
		case string(key) == "cfi" || string(key) == "cfl":
			if _, err = def(files, value); err != nil {
				return nil, err
			}
		case string(key) == "calls":
			callCost = true
		case bytes.HasPrefix(line, []byte("events:")):
			index = eventIndex(strings.Fields(string(line[len("events:"):])))
			cacheSim = allEvents(index)
		case bytes.HasPrefix(line, []byte("positions:")):
			positions = strings.Fields(string(line[len("positions:"):]))
			last = make([]int64, len(positions))
		}
	}
	switch err := sc.Err(); {
	case err != nil:
		return nil, fmt.Errorf("callgrind dump: %w", err)
	case read > maxDump:
		return nil, fmt.Errorf("callgrind dump: larger than %d bytes", maxDump)
	case index == nil:
		return nil, errors.New("callgrind dump: no events line")
	}
	return out, nil
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

// allEvents reports whether an events line whose eventIndex is index
// names every event Counts holds: the cache simulation's.
func allEvents(index []int) bool {
	seen := map[int]bool{}
	for _, i := range index {
		if i >= 0 {
			seen[i] = true
		}
	}
	return len(seen) == len(eventFields)
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
