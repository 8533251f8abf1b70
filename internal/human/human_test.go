package human

import (
	"math"
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
