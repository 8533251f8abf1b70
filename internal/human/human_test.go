package human

import (
	"math"
	"slices"
	"testing"
)

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{Count(0), "0"}, {Count(999), "999"}, {Count(1234), "1,234"}, {Count(-1234567), "-1,234,567"},
		{Plural(1, "run", "runs"), "1 run"}, {Plural(0, "run", "runs"), "0 runs"}, {Plural(2000, "run", "runs"), "2,000 runs"},
		{Percent(0.01), "1%"}, {Percent(0.0125), "1.25%"}, {Percent(0), "0%"}, {Percent(0.05), "5%"}, {Percent(0.5), "50%"}, {Percent(0.001), "0.1%"}, {Percent(0.1), "10%"}, {Percent(0.00001), "0%"},
		{Change(0.123, 1), "+12.3%"}, {Change(-0.05, 1), "-5.0%"}, {Change(0.0004, 1), "0.0%"}, {Change(0.0123, 2), "+1.23%"},
		{Change(math.NaN(), 1), "?"}, {Change(math.Inf(1), 1), "+∞"}, {Change(math.Inf(-1), 2), "-∞"},
		{Bytes(26), "26 B"}, {Bytes(8192), "8 KiB"}, {Bytes(2.5 * (1 << 20)), "2.5 MiB"}, {Bytes(1 << 30), "1 GiB"},
		{Number(0.125), "0.125"}, {Number(12.5), "12.5"}, {Number(512.4), "512"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  []string
	}{
		{"", 10, nil},
		{"one two three", 7, []string{"one two", "three"}},
		{"one  two\nthree", 100, []string{"one two three"}},
		{"a verylongword b", 5, []string{"a", "verylongword", "b"}},
		{"1.10 µs/op × 2", 10, []string{"1.10 µs/op", "× 2"}}, // columns are runes, not bytes
	}
	for _, tt := range tests {
		if got := Wrap(tt.s, tt.width); !slices.Equal(got, tt.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
	}
}
