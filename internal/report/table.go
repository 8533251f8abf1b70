package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/results"
)

// cell is one codec on one dataset: medians of its metrics.
type cell struct {
	codec, dataset            string
	size                      float64
	ser, deser                float64 // ns/op
	serAllocs, deserAllocs    float64
	serBytes, deserBytes      float64
	hasSer, hasDeser, hasSize bool
}

// speedUnit is the unit a run's serialize and deserialize columns show:
// ns/op, or for a counted run the counted unit it gates on (est-cycles/op
// when it simulated the caches, else instructions/op).
func speedUnit(r *results.Results) string {
	switch c := r.Settings.Counter; {
	case c == nil:
		return results.UnitNsPerOp
	case c.CacheSim:
		return results.UnitEstCyclesPerOp
	}
	return results.UnitInstructionsPerOp
}

// cells gathers a run's benchmarks by codec and dataset, in the order they
// first appear.
func cells(r *results.Results) (datasets []string, byDataset map[string][]*cell) {
	speed := speedUnit(r)
	byDataset = map[string][]*cell{}
	index := map[[2]string]*cell{}
	for _, b := range r.Benchmarks {
		if b.Codec == "" || b.Dataset == "" {
			continue
		}
		key := [2]string{b.Dataset, b.Codec}
		c := index[key]
		if c == nil {
			c = &cell{codec: b.Codec, dataset: b.Dataset}
			index[key] = c
			if _, ok := byDataset[b.Dataset]; !ok {
				datasets = append(datasets, b.Dataset)
			}
			byDataset[b.Dataset] = append(byDataset[b.Dataset], c)
		}
		if v := b.Metric(results.UnitBytesPerMsg); v != nil {
			c.size, c.hasSize = v[0], true
		}
		switch b.Op {
		case results.OpSerialize:
			c.ser, c.hasSer = median(b.Metric(speed)), true
			c.serAllocs = median(b.Metric(results.UnitAllocsPerOp))
			c.serBytes = median(b.Metric(results.UnitBytesPerOp))
		case results.OpDeserialize:
			c.deser, c.hasDeser = median(b.Metric(speed)), true
			c.deserAllocs = median(b.Metric(results.UnitAllocsPerOp))
			c.deserBytes = median(b.Metric(results.UnitBytesPerOp))
		}
	}
	return datasets, byDataset
}

// median is the median of v, NaN when v is empty.
func median(v []float64) float64 { return compare.Summarize(v).Median }

// RunTable writes a run as a table a person can read: per dataset and
// codec the encoded size, the median serialize and deserialize times, their
// throughput and allocations; then, per dataset, a relative-rate table of
// round trips (serialize + deserialize), each codec against each other.
func RunTable(w io.Writer, r *results.Results) error {
	datasets, byDataset := cells(r)
	if len(datasets) == 0 {
		return writeGeneric(w, r)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if counter := r.Settings.Counter; counter != nil {
		// A count has no throughput: the columns say what was counted.
		unit := speedUnit(r)
		fmt.Fprintf(tw, "dataset\tcodec\tsize\tserialize %s\tdeserialize %s\tser allocs\tdeser allocs\tser B/op\tdeser B/op\t\n", unit, unit)
		for _, d := range datasets {
			for _, c := range byDataset[d] {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.dataset, c.codec,
					ifHas(c.hasSize, FormatBytes(c.size)),
					ifHas(c.hasSer, FormatCount(c.ser)), ifHas(c.hasDeser, FormatCount(c.deser)),
					ifHas(c.hasSer, formatCount(c.serAllocs)), ifHas(c.hasDeser, formatCount(c.deserAllocs)),
					ifHas(c.hasSer, FormatBytes(c.serBytes)), ifHas(c.hasDeser, FormatBytes(c.deserBytes)))
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nMedians of %s, each counted under %s %s. Deserialize decodes and reads every field. Wall time was not compared.\n",
			human.Plural(counter.Processes, "process", "processes"), counter.Tool, counter.Version)
		for _, s := range countNotes(counter, r.Unseen(), r.Serial(), nil, textStyle) {
			fmt.Fprintln(w)
			writeProse(w, s)
		}
		return nil
	}
	fmt.Fprintln(tw, "dataset\tcodec\tsize\tserialize\tdeserialize\tser MB/s\tdeser MB/s\tser allocs\tdeser allocs\tser B/op\tdeser B/op\t")
	for _, d := range datasets {
		for _, c := range byDataset[d] {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.dataset, c.codec,
				ifHas(c.hasSize, FormatBytes(c.size)),
				ifHas(c.hasSer, FormatNs(c.ser)), ifHas(c.hasDeser, FormatNs(c.deser)),
				ifHas(c.hasSer && c.hasSize, mbps(c.size, c.ser)), ifHas(c.hasDeser && c.hasSize, mbps(c.size, c.deser)),
				ifHas(c.hasSer, formatCount(c.serAllocs)), ifHas(c.hasDeser, formatCount(c.deserAllocs)),
				ifHas(c.hasSer, FormatBytes(c.serBytes)), ifHas(c.hasDeser, FormatBytes(c.deserBytes)))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nMedians of %d samples. Deserialize decodes and reads every field. MB/s counts encoded bytes.\n", r.Settings.Rounds)
	for _, d := range datasets {
		if err := rateTable(w, d, byDataset[d]); err != nil {
			return err
		}
	}
	return nil
}

func ifHas(ok bool, s string) string {
	if !ok {
		return "-"
	}
	return s
}

// rateTable writes one dataset's relative round-trip rates, slowest first,
// in the style of Perl's Benchmark::cmpthese: the cell in row A, column B
// is how much faster (+) or slower (-) A is than B.
func rateTable(w io.Writer, dataset string, cs []*cell) error {
	type rate struct {
		codec string
		ops   float64
	}
	var rates []rate
	for _, c := range cs {
		if c.hasSer && c.hasDeser && c.ser+c.deser > 0 {
			rates = append(rates, rate{c.codec, 1e9 / (c.ser + c.deser)})
		}
	}
	if len(rates) < 2 {
		return nil
	}
	sort.SliceStable(rates, func(i, j int) bool { return rates[i].ops < rates[j].ops })
	fmt.Fprintf(w, "\n%s: round trips per second (serialize + deserialize)\n", dataset)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"", "Rate"}
	for _, r := range rates {
		head = append(head, r.codec)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range rates {
		row := []string{r.codec, formatRate(r.ops)}
		for _, c := range rates {
			if c.codec == r.codec {
				row = append(row, "--")
			} else {
				row = append(row, fmt.Sprintf("%+.0f%%", (r.ops/c.ops-1)*100))
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

// writeGeneric prints benchmarks that are not the suite's (a module's own
// go test benchmarks, go test -bench output) under a header naming the
// columns: each benchmark's package, when any has one (two packages'
// BenchmarkMarshal are two rows, told apart by it), its name, and the
// median of every unit the run measured, in the order they first appear,
// "-" where a benchmark has none.
func writeGeneric(w io.Writer, r *results.Results) error {
	var units []string
	pkgs := false
	for _, b := range r.Benchmarks {
		pkgs = pkgs || b.Pkg != ""
		for _, m := range b.Metrics {
			if !slices.Contains(units, m.Unit) {
				units = append(units, m.Unit)
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := append([]string{"benchmark"}, units...)
	if pkgs {
		head = append([]string{"package"}, head...)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, b := range r.Benchmarks {
		row := []string{b.Name}
		if pkgs {
			row = append([]string{b.Pkg}, row...)
		}
		for _, u := range units {
			cell := "-"
			if v := b.Metric(u); len(v) > 0 {
				cell = FormatValue(median(v), u)
			}
			row = append(row, cell)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch c := r.Settings.Counter; {
	case c != nil:
		fmt.Fprintf(w, "\nMedians of %s, each counted under %s %s. Wall time was not compared.\n",
			human.Plural(c.Processes, "process", "processes"), c.Tool, c.Version)
	case r.Settings.Rounds > 0:
		fmt.Fprintf(w, "\nMedians of %s.\n", human.Plural(r.Settings.Rounds, "sample", "samples"))
	}
	for _, s := range countNotes(r.Settings.Counter, r.Unseen(), r.Serial(), nil, textStyle) {
		fmt.Fprintln(w)
		writeProse(w, s)
	}
	return nil
}

// FormatNs formats a duration in nanoseconds with 3 significant digits.
func FormatNs(ns float64) string { return prefixed(ns, " s", " ms", " µs", " ns") }

// FormatBytes formats a byte count: exact below 100 kB, else 3 significant
// digits with binary prefixes.
func FormatBytes(b float64) string {
	switch {
	case math.IsNaN(b):
		return "-"
	case b >= 1<<30:
		return sig3(b/(1<<30)) + " GiB"
	case b >= 1<<20:
		return sig3(b/(1<<20)) + " MiB"
	case b >= 100_000:
		return sig3(b/(1<<10)) + " KiB"
	}
	return formatCount(b) + " B"
}

// FormatValue formats v in unit for display.
func FormatValue(v float64, unit string) string {
	switch unit {
	case results.UnitNsPerOp:
		return FormatNs(v)
	case results.UnitBytesPerOp, results.UnitBytesPerMsg:
		return FormatBytes(v)
	case results.UnitAllocsPerOp:
		return formatCount(v)
	case results.UnitInstructionsPerOp, results.UnitEstCyclesPerOp, results.UnitGCInstructionsPerOp:
		return FormatCount(v)
	}
	return sig3(v) + " " + unit
}

// FormatCount formats a count of work (instructions, cycles) with three
// significant digits and an SI prefix: 1.49k, 2.89G.
func FormatCount(v float64) string { return prefixed(v, "G", "M", "k", "") }

// prefixed formats v with three significant digits, scaled by 1e9, 1e6
// or 1e3 to the first of giga, mega and kilo that |v| reaches and given
// that suffix, else unscaled with one; NaN is "-".
func prefixed(v float64, giga, mega, kilo, one string) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "-"
	case a >= 1e9:
		return sig3(v/1e9) + giga
	case a >= 1e6:
		return sig3(v/1e6) + mega
	case a >= 1e3:
		return sig3(v/1e3) + kilo
	}
	return sig3(v) + one
}

func formatCount(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return sig3(v)
}

func formatRate(ops float64) string {
	switch {
	case ops >= 1e6:
		return sig3(ops/1e6) + "M/s"
	case ops >= 1e3:
		return sig3(ops/1e3) + "k/s"
	}
	return sig3(ops) + "/s"
}

func mbps(size, ns float64) string {
	if ns <= 0 {
		return "-"
	}
	return sig3(size / ns * 1e3)
}

// sig3 prints x with three significant digits and no exponent.
func sig3(x float64) string {
	ax := math.Abs(x)
	switch {
	case ax == 0:
		return "0"
	case ax >= 100:
		return fmt.Sprintf("%.0f", x)
	case ax >= 10:
		return fmt.Sprintf("%.1f", x)
	case ax >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.*f", 2-int(math.Floor(math.Log10(ax))), x), "0"), ".")
}

// TextWidth is the widest line of prose the terminal's reports print;
// tables are as wide as their names make them.
const TextWidth = 100

// writeProse writes a paragraph for a terminal, wrapped at TextWidth.
func writeProse(w io.Writer, s string) {
	for _, line := range human.Wrap(s, TextWidth) {
		fmt.Fprintln(w, line)
	}
}
