package human

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Count formats an integer with thousands separators: 1234 is "1,234".
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Plural is n with the noun for one or for many: "1 run", "2 runs".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}

// Percent formats a fraction as a percentage to at most two decimals,
// without trailing zeros: 0.01 is "1%", 0.0125 "1.25%", 0 "0%".
func Percent(x float64) string {
	s := fmt.Sprintf("%.2f", 100*x)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "" || s == "-" {
		s = "0"
	}
	return s + "%"
}

// Change formats a relative change (0.123) as a signed percentage with
// the given decimals ("+12.3%"); a change that rounds to zero is unsigned
// ("0.0%"), and infinite or unknown changes are "+∞", "-∞" and "?".
func Change(x float64, decimals int) string {
	switch {
	case math.IsNaN(x):
		return "?"
	case math.IsInf(x, 1):
		return "+∞"
	case math.IsInf(x, -1):
		return "-∞"
	}
	p := 100 * x
	if math.Abs(p) < 0.5*math.Pow(10, -float64(decimals)) {
		return fmt.Sprintf("%.*f%%", decimals, 0.0)
	}
	return fmt.Sprintf("%+.*f%%", decimals, p)
}

// Bytes formats a byte count in binary units with at most three
// significant digits and no trailing zeros: "26 B", "8 KiB", "2.5 MiB".
func Bytes(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return Number(v) + " " + units[i]
}

// Number formats v with about three significant digits and no trailing
// zeros: 512, 12.5, 1.25, 0.125.
func Number(v float64) string {
	switch {
	case v >= 100 || v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return trimZeros(fmt.Sprintf("%.1f", v))
	case v >= 1:
		return trimZeros(fmt.Sprintf("%.2f", v))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func trimZeros(s string) string {
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Wrap breaks s into lines of at most width columns (runes) at spaces,
// its white space collapsed; a word longer than width has a line of its
// own. Help, usage and the terminal's prose all wrap with it.
func Wrap(s string, width int) []string {
	var lines []string
	line, cols := "", 0
	for _, w := range strings.Fields(s) {
		n := utf8.RuneCountInString(w)
		if line != "" && cols+1+n > width {
			lines = append(lines, line)
			line, cols = "", 0
		}
		if line != "" {
			line += " "
			cols++
		}
		line += w
		cols += n
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
