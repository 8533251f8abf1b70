package plot

import (
	"math"

	gplot "gonum.org/v1/plot"

	"github.com/wirebench/wirebench/internal/human"
)

// gonum's LogTicks labels powers of ten as bare numbers ("1e+06"); these
// tickers label log axes in the units people read: bytes in binary units,
// times in ns/µs/ms/s, array lengths as the dataset names spell them.

// maxLabels bounds the labelled ticks on a log axis, so labels never crowd
// each other at the chart sizes used here.
const maxLabels = 9

// bytesTicks labels powers of two (1 KiB, 32 KiB, 1 MiB, ...) on a log
// axis of byte counts, with unlabelled minor ticks at the powers between.
var bytesTicks = gplot.TickerFunc(func(lo, hi float64) []gplot.Tick {
	return pow2Ticks(lo, hi, human.Bytes)
})

// countTicks labels powers of two as array lengths ("1k", "64k", "1M"),
// the way the numeric datasets are named (k = 1024).
var countTicks = gplot.TickerFunc(func(lo, hi float64) []gplot.Tick {
	return pow2Ticks(lo, hi, formatCount)
})

// pow2Ticks returns ticks at every power of two in [lo, hi], labelling
// those whose exponent is a multiple of the smallest step (1, 2, 5 or 10)
// that keeps the labels at most maxLabels. Steps dividing 10 keep the
// labels on round binary units (1 KiB, 1 MiB).
func pow2Ticks(lo, hi float64, format func(float64) string) []gplot.Tick {
	e0, e1 := int(math.Ceil(math.Log2(lo)-1e-9)), int(math.Floor(math.Log2(hi)+1e-9))
	step := 10
	for _, s := range []int{1, 2, 5, 10} {
		if multiples(e0, e1, s) <= maxLabels {
			step = s
			break
		}
	}
	var ticks []gplot.Tick
	for e := e0; e <= e1; e++ {
		v := math.Ldexp(1, e)
		t := gplot.Tick{Value: v}
		if mod(e, step) == 0 {
			t.Label = format(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// timeTicks labels powers of ten of nanoseconds (10 ns, 1 µs, 100 ms) on
// a log axis, every decade when they fit and every other one otherwise,
// with minor ticks at 2–9 times each decade.
var timeTicks = gplot.TickerFunc(func(lo, hi float64) []gplot.Tick {
	e0, e1 := int(math.Floor(math.Log10(lo)+1e-9)), int(math.Ceil(math.Log10(hi)-1e-9))
	step := 1
	for multiples(e0, e1, step) > maxLabels {
		step++
	}
	var ticks []gplot.Tick
	for e := e0; e <= e1; e++ {
		d := math.Pow10(e)
		for i := 1; i < 10; i++ {
			v := d * float64(i)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := gplot.Tick{Value: v}
			if i == 1 && mod(e, step) == 0 {
				t.Label = formatTime(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
})

// multiples counts the multiples of step in [e0, e1].
func multiples(e0, e1, step int) int {
	n := 0
	for e := e0; e <= e1; e++ {
		if mod(e, step) == 0 {
			n++
		}
	}
	return n
}

func mod(a, b int) int { return ((a % b) + b) % b }

// formatCount formats an element count with binary suffixes, as the
// numeric datasets are named: 1024 → "1k", 1<<20 → "1M".
func formatCount(v float64) string {
	units := []string{"", "k", "M", "G"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return human.Number(v) + units[i]
}

// formatTime formats nanoseconds in the largest unit that keeps the
// number at least 1: "250 ns", "1.5 µs", "12 ms", "3 s".
func formatTime(ns float64) string {
	switch {
	case ns >= 1e9:
		return human.Number(ns/1e9) + " s"
	case ns >= 1e6:
		return human.Number(ns/1e6) + " ms"
	case ns >= 1e3:
		return human.Number(ns/1e3) + " µs"
	default:
		return human.Number(ns) + " ns"
	}
}

// logBounds returns an axis range in (0, ∞) covering [lo, hi] with a
// margin of pad (a factor, e.g. 1.3) either side, widened to the next
// tick: a power of two for base 2, or 1, 2 or 5 times a power of ten for
// base 10 (finer than whole decades, so a run whose data spans a little
// over a decade does not waste most of its axis).
func logBounds(lo, hi, pad, base float64) (float64, float64) {
	lo, hi = lo/pad, hi*pad
	if base == 2 {
		return math.Ldexp(1, int(math.Floor(math.Log2(lo)+1e-9))), math.Ldexp(1, int(math.Ceil(math.Log2(hi)-1e-9)))
	}
	d := math.Pow10(int(math.Floor(math.Log10(lo) + 1e-9)))
	a := d
	for _, m := range []float64{2, 5} {
		if m*d <= lo*(1+1e-9) {
			a = m * d
		}
	}
	d = math.Pow10(int(math.Floor(math.Log10(hi) - 1e-9)))
	b := 10 * d
	for _, m := range []float64{5, 2, 1} {
		if m*d >= hi*(1-1e-9) {
			b = m * d
		}
	}
	return a, b
}
