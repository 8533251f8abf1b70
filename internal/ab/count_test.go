package ab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestBlockSize: the largest power of two of iterations that fits the
// block's time and memory, at least one.
func TestBlockSize(t *testing.T) {
	c := Counting{Block: 2 * time.Millisecond, MaxBlockBytes: 1 << 20}
	tests := []struct {
		ns, bytes float64
		want      int
	}{
		{1000, 0, 1024},    // 2000 fit
		{100, 0, 16384},    // 20000 fit
		{3e6, 0, 1},        // one operation is more than a block
		{100, 1024, 1024},  // memory: 1 MiB / 1 KiB
		{1, 0, 1 << 20},    // 2e6 fit
		{1000, 1 << 30, 1}, // one operation allocates more than the bound
		{0, 0, 1 << 20},    // no cost measured: as if 1 ns
	}
	for _, tt := range tests {
		got := c.blockSize(tt.ns, tt.bytes)
		if got != tt.want {
			t.Errorf("blockSize(%v, %v) = %d, want %d", tt.ns, tt.bytes, got, tt.want)
		}
		if got&(got-1) != 0 || got < 1 {
			t.Errorf("blockSize(%v, %v) = %d, not a power of two", tt.ns, tt.bytes, got)
		}
		fit := float64(c.Block) / max(tt.ns, 1)
		if tt.bytes > 0 {
			fit = min(fit, float64(c.MaxBlockBytes)/tt.bytes)
		}
		if float64(got) > max(fit, 1) || float64(2*got) <= fit {
			t.Errorf("blockSize(%v, %v) = %d, want the largest power of two at most %.0f", tt.ns, tt.bytes, got, fit)
		}
	}
}

// TestForProcess: a costly benchmark is counted in the first
// CostlyProcesses processes only.
func TestForProcess(t *testing.T) {
	p := &countPlan{names: []string{"cheap", "costly"}, processes: map[string]int{"cheap": 5, "costly": 3}}
	for k, want := range [][]string{{"cheap", "costly"}, {"cheap", "costly"}, {"cheap", "costly"}, {"cheap"}, {"cheap"}, nil} {
		if got := p.forProcess(k).names; !slices.Equal(got, want) {
			t.Errorf("process %d counts %q, want %q", k, got, want)
		}
	}
}

// TestFirstError: the head's error is the pull request's and wins; a
// cancellation that another error caused does not hide it, on either side.
func TestFirstError(t *testing.T) {
	base := &SideError{Side: "base", Err: errors.New("base broke")}
	head := &SideError{Side: "head", Err: errors.New("head broke")}
	headStopped := &SideError{Side: "head", Err: fmt.Errorf("count: %w", context.Canceled)}
	tests := []struct {
		errs []error
		want error
	}{
		{[]error{nil, nil}, nil},
		{[]error{context.Canceled, base}, base},
		{[]error{base, head, context.Canceled}, head},
		{[]error{context.Canceled, nil}, context.Canceled},
		// The base failed and stopped the head: the base's failure.
		{[]error{headStopped, base}, base},
	}
	for _, tt := range tests {
		if got := firstError(tt.errs); got != tt.want {
			t.Errorf("firstError(%v) = %v, want %v", tt.errs, got, tt.want)
		}
	}
}
