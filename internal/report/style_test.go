package report

import (
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// TestSentenceStyles: each sentence the Markdown and the text report
// share quotes outside text as it is in textStyle and inert in mdStyle,
// and marks a warning only in Markdown.
func TestSentenceStyles(t *testing.T) {
	const odd = "a*b*_c_|<i>" // what a pull request may put in a name or a reason
	oddName := "Benchmark" + odd
	shift := &compare.Result{Shift: &compare.Shift{Estimate: 1.1, N: 4, Applied: true, Reason: odd}}
	aa := &compare.Result{Method: compare.MethodPaired, AA: &compare.AACheck{Benchmarks: 4, Flagged: []string{oddName}, Noisy: true}}
	tests := []struct {
		name    string
		write   func(style) string
		warning bool // the Markdown marks it as a warning
	}{
		{"shift", func(st style) string { return shiftSentence(shift, st) }, false},
		{"other", func(st style) string {
			return otherSentence([]results.Difference{{Field: "module", Old: "v1", New: odd}}, st)
		}, false},
		{"method", func(st style) string {
			return methodSentence(&compare.Result{Method: compare.MethodPaired, Why: odd}, st)
		}, false},
		{"aa", func(st style) string { return aaSentence(aa, st) }, true},
		{"unseen", func(st style) string {
			return unseenSentence([]results.Unseen{{Name: oddName, InstructionsPerOp: 10, NativeNsPerOp: 100}}, nil, st)
		}, false},
		{"serial", func(st style) string { return serialSentence([]string{oddName}, nil, st) }, false},
		{"gate", func(st style) string {
			// A filter is a setting the pull request's workflow can set.
			r := &compare.Result{Gate: &compare.TimingGate{SettingsDiffer: []results.Difference{{Field: "filter", Old: "", New: odd}}},
				Comparisons: []compare.Comparison{{Name: "BenchmarkA", Unit: results.UnitNsPerOp, Kind: compare.Noisy, Verdict: compare.Unchanged, Ratio: 1}}}
			return gateSentence(r, st)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, md := tt.write(textStyle), tt.write(mdStyle)
			if !strings.Contains(text, odd) {
				t.Errorf("text %q does not quote %q as it is", text, odd)
			}
			if strings.Contains(md, odd) || !strings.Contains(md, EscapeCell(odd)) {
				t.Errorf("Markdown %q does not quote %q escaped", md, odd)
			}
			if strings.HasPrefix(text, "> ") || strings.HasPrefix(md, "> ⚠️ ") != tt.warning {
				t.Errorf("warning: text %q, Markdown %q; want the Markdown's marked %v", text, md, tt.warning)
			}
		})
	}
}
