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
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
