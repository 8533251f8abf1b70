package reporttest

import (
	"strings"
	"testing"
)

// TestCheckXYChart makes sure the checker rejects what it should.
func TestCheckXYChart(t *testing.T) {
	good := "xychart-beta\n    title \"t\"\n    x-axis [\"a\", \"b\"]\n    y-axis \"u\" 0 --> 10\n    line [1, 2]\n"
	if err := CheckXYChart(good); err != nil {
		t.Fatalf("good chart rejected: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, "xychart-beta", "xychart", 1),
		strings.Replace(good, "line [1, 2]", "line [1, 2, 3]", 1),
		strings.Replace(good, `["a", "b"]`, `["a", "a"]`, 1),
		strings.Replace(good, "0 --> 10", "10 --> 0", 1),
		strings.Replace(good, "line [1, 2]", "line [1, 20]", 1),
		strings.Replace(good, `"b"`, `"b<i>"`, 1),
		strings.Replace(good, "    line [1, 2]\n", "", 1),
		good + "    legend yes\n",
	} {
		if CheckXYChart(bad) == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}
