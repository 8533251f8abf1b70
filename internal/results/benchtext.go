package results

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
)

// ReadBench parses the standard Go benchmark format with
// golang.org/x/perf/benchfmt. Each result line is one sample; lines of the
// same benchmark (package, from the pkg: line, and name without the
// -GOMAXPROCS suffix) are gathered. Units
// are kept as written (ns/op, not benchfmt's tidied sec/op). File
// configuration (goos, goarch, cpu) fills Env. A syntax error is an error
// naming the line, not a skipped line.
func ReadBench(r io.Reader, name string) (*Results, error) {
	res := New("", Env{})
	res.Settings.Source = "go test -bench"
	index := make(map[string]int)
	br := benchfmt.NewReader(r, name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("%s: %s (expected a line like \"BenchmarkX-8  1000  123 ns/op\")", posOf(rec.FileName, rec.Line), rec.Msg)
		case *benchfmt.Result:
			if err := addResult(res, index, rec); err != nil {
				return nil, err
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if len(res.Benchmarks) == 0 {
		return nil, fmt.Errorf("%w: no line starts with \"Benchmark\" (is this `go test -bench` output?)", ErrNoBenchmarks)
	}
	return res, nil
}

// ReadBenchProcesses reads Go benchmark text as ReadBench does, split by
// the go test process each result line came from, for a comparison that
// takes processes as its replicates. A test binary begins its output with
// its header (the goos:, goarch:, pkg: and cpu: lines), so header lines
// after result lines begin another process. The k-th Results holds every
// package's k-th process: the k-th go test of a loop such as
//
//	for i in 1 2 3 4 5; do go test -run '^$' -bench . -count 2 ./...; done
//
// Text whose header comes once (one go test, or wirebench's own) is one
// process.
func ReadBenchProcesses(data []byte, name string) ([]*Results, error) {
	process := processOfLines(data)
	n := 0
	for _, p := range process {
		n = max(n, p+1)
	}
	out := make([]*Results, n)
	index := make([]map[string]int, n)
	for i := range out {
		out[i] = New("", Env{})
		out[i].Settings.Source = "go test -bench"
		index[i] = map[string]int{}
	}
	br := benchfmt.NewReader(bytes.NewReader(data), name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("%s: %s (expected a line like \"BenchmarkX-8  1000  123 ns/op\")", posOf(rec.FileName, rec.Line), rec.Msg)
		case *benchfmt.Result:
			_, line := rec.Pos()
			p, ok := process[line]
			if !ok {
				return nil, fmt.Errorf("%s: a result line not seen as one (report this with the file)", posOf(name, line))
			}
			if err := addResult(out[p], index[p], rec); err != nil {
				return nil, err
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: no line starts with \"Benchmark\" (is this `go test -bench` output?)", ErrNoBenchmarks)
	}
	return out, nil
}

// processOfLines maps the line number (from 1) of every result line of
// Go benchmark text to the ordinal, from 0, of its package's process (see
// ReadBenchProcesses).
func processOfLines(data []byte) map[int]int {
	process := map[int]int{}
	seen := map[string]int{} // processes begun, by package
	pkg, header, results := "", true, false
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if key, value, ok := configLine(line); ok {
			if results {
				header, results = true, false
			}
			if key == "pkg" {
				pkg = value
			}
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		if header {
			seen[pkg]++
			header = false
		}
		results = true
		process[i+1] = seen[pkg] - 1
	}
	return process
}

// configLine splits a line of file configuration ("key: value", the key
// starting with a lower-case letter and holding no space or upper-case
// letter, as benchfmt reads it).
func configLine(line string) (key, value string, ok bool) {
	key, value, ok = strings.Cut(line, ":")
	if !ok || key == "" || !unicode.IsLower(rune(key[0])) || strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsUpper(r) }) >= 0 {
		return "", "", false
	}
	return key, strings.TrimSpace(value), true
}

// legacyPkg is the pkg: line wirebench wrote over every run, whatever
// its benchmarks' packages, before it wrote theirs.
const legacyPkg = "github.com/wirebench/wirebench"

func posOf(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

func addResult(res *Results, index map[string]int, rec *benchfmt.Result) error {
	base, parts := rec.Name.Parts() // base lacks the "Benchmark" prefix
	name := "Benchmark" + string(base)
	for _, p := range parts {
		s := string(p)
		if strings.HasPrefix(s, "-") { // the -GOMAXPROCS suffix
			if _, err := strconv.Atoi(s[1:]); err == nil {
				continue
			}
		}
		name += s
	}
	if res.Suite == "" {
		res.Suite = rec.GetConfig("wirebench-suite")
	}
	if res.Settings.Counter == nil {
		if c := rec.GetConfig("wirebench-counter"); c != "" {
			counter, err := ParseCounter(c)
			if err != nil {
				file, line := rec.Pos()
				return fmt.Errorf("%s: %v", posOf(file, line), err)
			}
			res.Settings.Counter = counter
		}
	}
	if res.Env.GOOS == "" {
		res.Env.GOOS = rec.GetConfig("goos")
		res.Env.GOARCH = rec.GetConfig("goarch")
		res.Env.CPU = rec.GetConfig("cpu")
		res.Env.Machine = rec.GetConfig("wirebench-machine")
		res.Env.GoVersion = rec.GetConfig("go")
		if p, err := strconv.Atoi(rec.GetConfig("gomaxprocs")); err == nil {
			res.Env.GOMAXPROCS = p
		}
	}
	// The package a line is in (its file's pkg: line) is part of its
	// identity: two packages' BenchmarkMarshal are two benchmarks.
	// Versions of wirebench before it wrote each benchmark's package wrote
	// legacyPkg over every run (its wirebench-suite: line says which):
	// that names no package.
	pkg := rec.GetConfig("pkg")
	if pkg == legacyPkg && rec.GetConfig("wirebench-suite") != "" {
		pkg = ""
	}
	key := Key(pkg, name)
	i, ok := index[key]
	if !ok {
		i = len(res.Benchmarks)
		index[key] = i
		codec, dataset, op := NameParts(name)
		res.Benchmarks = append(res.Benchmarks, Benchmark{Pkg: pkg, Name: name, Codec: codec, Dataset: dataset, Op: op})
	}
	b := &res.Benchmarks[i]
	b.Iterations = append(b.Iterations, int64(rec.Iters))
	for _, v := range rec.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		if math.IsNaN(val) || math.IsInf(val, 0) || val < 0 {
			file, line := rec.Pos()
			return fmt.Errorf("%s: %s has the invalid value %v %s", posOf(file, line), name, val, unit)
		}
		b.Add(unit, val)
	}
	return nil
}

// NameParts returns the codec, the dataset and the operation a benchmark
// name such as "BenchmarkSerialize/codec=protobuf/dataset=small" (the
// embedded suite) or "BenchmarkWire/codec=protobuf/dataset=order/op=serialize"
// (the matrix package) names, "" for each it does not.
func NameParts(name string) (codec, dataset, op string) {
	base, parts := benchfmt.Name(name).Parts()
	switch strings.TrimPrefix(string(base), "Benchmark") {
	case "Serialize":
		op = OpSerialize
	case "Deserialize":
		op = OpDeserialize
	}
	for _, p := range parts {
		if k, v, ok := strings.Cut(strings.TrimPrefix(string(p), "/"), "="); ok {
			switch k {
			case "codec":
				codec = v
			case "dataset":
				dataset = v
			case "op":
				if v == OpSerialize || v == OpDeserialize {
					op = v
				}
			}
		}
	}
	return codec, dataset, op
}

// WriteBench writes r in the Go benchmark format, one line per sample, with
// the environment as file configuration and B/msg declared exact, so
// benchstat reads it and treats encoded size as deterministic. A
// benchmark of a package (a module's own go test benchmarks) is written
// under a pkg: line naming it, as go test writes it, so two packages'
// BenchmarkMarshal stay two benchmarks for benchstat and for ReadBench;
// the embedded suite's, which are of no package, under none.
func (r *Results) WriteBench(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cfg := []struct{ k, v string }{
		{"goos", r.Env.GOOS}, {"goarch", r.Env.GOARCH},
		{"cpu", r.Env.CPU}, {"go", r.Env.GoVersion}, {"gomaxprocs", itoa(r.Env.GOMAXPROCS)},
		{"wirebench-suite", r.Suite}, {"wirebench-machine", r.Env.Machine}, {"commit", r.Env.Commit},
	}
	if r.Settings.Counter != nil {
		// Counts are comparable only with counts made the same way.
		cfg = append(cfg, struct{ k, v string }{"wirebench-counter", r.Settings.Counter.String()})
	}
	for _, c := range cfg {
		if c.v != "" {
			fmt.Fprintf(bw, "%s: %s\n", c.k, c.v)
		}
	}
	fmt.Fprintf(bw, "Unit %s assume=exact better=lower\n", UnitBytesPerMsg)
	pkg := ""
	for _, b := range r.Benchmarks {
		if b.Pkg != pkg {
			// An empty value ends the previous package's (benchfmt).
			fmt.Fprintln(bw, strings.TrimSpace("pkg: "+b.Pkg))
			pkg = b.Pkg
		}
		n := b.samples()
		for i := range n {
			iters := int64(1)
			if i < len(b.Iterations) {
				iters = b.Iterations[i]
			}
			var line bytes.Buffer
			fmt.Fprintf(&line, "%s\t%d", b.Name, iters)
			for _, m := range b.Metrics {
				v := m.Values[0]
				if len(m.Values) == n {
					v = m.Values[i]
				} else if len(m.Values) != 1 {
					continue // ragged metric: only written where it has a sample
				}
				fmt.Fprintf(&line, "\t%s %s", formatValue(v), m.Unit)
			}
			line.WriteByte('\n')
			bw.Write(line.Bytes())
		}
	}
	return bw.Flush()
}

// samples is the number of sample lines b needs: the longest metric.
func (b *Benchmark) samples() int {
	n := len(b.Iterations)
	for _, m := range b.Metrics {
		n = max(n, len(m.Values))
	}
	return n
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// formatValue prints integers without a fraction and others with enough
// digits to round-trip the sample.
func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
