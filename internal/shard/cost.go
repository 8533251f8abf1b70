package shard

import (
	"time"

	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/stats"
)

// ReferenceCost estimates each benchmark's measuring cost from a reference
// run (the baseline): a warm-up plus samples batches, each taking the
// per-sample target or one operation, whichever is longer — the way the
// harness plans a run.
func ReferenceCost(ref *results.Results, samples int, target, warmup time.Duration) Costs {
	if ref == nil {
		return nil
	}
	costs := Costs{}
	for _, b := range ref.Benchmarks {
		if v := b.Metric(results.UnitNsPerOp); len(v) > 0 {
			if op, err := stats.Median(v); err == nil {
				costs[b.Name] = warmup.Seconds() + float64(samples)*max(op/1e9, target.Seconds())
			}
		}
	}
	return costs
}
