package results

import (
	"strings"
	"testing"
	"time"
)

// TestHarnessDiff: the settings that decide batch sizes are compared, a
// setting either run does not record is not, and the sharding counts.
func TestHarnessDiff(t *testing.T) {
	base := Harness{Source: "wirebench", Samples: 15, Budget: time.Minute, Warmup: 30 * time.Millisecond, MaxBatchBytes: 32 << 20, Shards: 1}
	tests := []struct {
		name string
		edit func(h *Harness)
		want string
	}{
		{"same", func(h *Harness) {}, ""},
		{"budget", func(h *Harness) { h.Budget = 20 * time.Second }, "budget: 1m0s → 20s"},
		{"samples and filter", func(h *Harness) { h.Samples, h.Filter = 9, "protobuf" }, "samples: 15 → 9; filter: none → protobuf"},
		{"not recorded", func(h *Harness) {
			h.Samples, h.Budget, h.Warmup, h.MaxBatchBytes, h.Source, h.Shards = 0, 0, 0, 0, "", 0
		}, ""},
		{"warm-up and memory bound", func(h *Harness) { h.Warmup, h.MaxBatchBytes = time.Millisecond, 1<<20 }, "warm-up: 30ms → 1ms; batch memory bound: 33554432 B → 1048576 B"},
		{"source", func(h *Harness) { h.Source = "go test -bench" }, "source: wirebench → go test -bench"},
		{"shards", func(h *Harness) { h.Shards = 4 }, "shards: 1 → 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := base
			tt.edit(&o)
			var got []string
			for _, d := range base.Diff(o) {
				got = append(got, d.String())
			}
			if s := strings.Join(got, "; "); s != tt.want {
				t.Errorf("diff %q, want %q", s, tt.want)
			}
		})
	}
}

func TestShardCount(t *testing.T) {
	tests := []struct {
		r    Results
		want int
	}{
		{Results{}, 1},
		{Results{Settings: Settings{Shard: "2/3"}}, 3},
		{Results{Settings: Settings{Shard: "bogus"}}, 1},
		{Results{Shards: []ShardRun{{Index: 1, Count: 4}, {Index: 2, Count: 4}}}, 4},
	}
	for _, tt := range tests {
		if got := tt.r.ShardCount(); got != tt.want {
			t.Errorf("%+v: %d shards, want %d", tt.r.Settings, got, tt.want)
		}
	}
	r := Results{Settings: Settings{Samples: 15, Budget: time.Minute, Filter: "x", Source: "wirebench", Warmup: time.Millisecond, MaxBatchBytes: 7, Seed: 3, Rounds: 15}}
	if h := r.Harness(); h != (Harness{Source: "wirebench", Samples: 15, Budget: time.Minute, Warmup: time.Millisecond, MaxBatchBytes: 7, Filter: "x", Shards: 1}) {
		t.Errorf("harness %+v", h)
	}
}
