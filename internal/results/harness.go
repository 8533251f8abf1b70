package results

import (
	"fmt"
	"strings"
	"time"
)

// Harness is what decides the batch sizes of a run, and with them what its
// timings measure (fixed costs amortised over more or fewer iterations):
// the samples, the budget, the warm-up, the batch memory bound, the filter
// and the sharding (which split the budget among more or fewer
// benchmarks), and the source of the results. On a loaded two-core
// machine a 60 s run measured ×0.74 of a 20 s run of the same code, so
// timings of runs that differ in these are not comparable run to run.
// A zero field (or empty Source) is not recorded.
type Harness struct {
	Source        string        `json:"source,omitempty"`
	Samples       int           `json:"samples,omitempty"`
	Budget        time.Duration `json:"budget_ns,omitempty"`
	Warmup        time.Duration `json:"warmup_ns,omitempty"`
	MaxBatchBytes int64         `json:"max_batch_bytes,omitempty"`
	Filter        string        `json:"filter,omitempty"`
	Shards        int           `json:"shards,omitempty"`
}

// Harness returns the harness settings r was measured with.
func (r *Results) Harness() Harness {
	s := r.Settings
	return Harness{Source: s.Source, Samples: s.Samples, Budget: s.Budget, Warmup: s.Warmup,
		MaxBatchBytes: s.MaxBatchBytes, Filter: s.Filter, Shards: r.ShardCount()}
}

// Diff lists the settings in which h and o differ, old (h) to new (o). A
// setting either does not record is not compared, except the filter,
// where empty means none.
func (h Harness) Diff(o Harness) []Difference {
	var d []Difference
	add := func(field, a, b string) {
		if a != b {
			d = append(d, Difference{Field: field, Old: a, New: b})
		}
	}
	known := func(a, b int64) bool { return a > 0 && b > 0 }
	if h.Source != "" && o.Source != "" {
		add("source", h.Source, o.Source)
	}
	if known(int64(h.Samples), int64(o.Samples)) {
		add("samples", fmt.Sprint(h.Samples), fmt.Sprint(o.Samples))
	}
	if known(int64(h.Budget), int64(o.Budget)) {
		add("budget", h.Budget.String(), o.Budget.String())
	}
	if known(int64(h.Warmup), int64(o.Warmup)) {
		add("warm-up", h.Warmup.String(), o.Warmup.String())
	}
	if known(h.MaxBatchBytes, o.MaxBatchBytes) {
		add("batch memory bound", fmt.Sprintf("%d B", h.MaxBatchBytes), fmt.Sprintf("%d B", o.MaxBatchBytes))
	}
	add("filter", orNone(h.Filter), orNone(o.Filter))
	if known(int64(h.Shards), int64(o.Shards)) {
		add("shards", fmt.Sprint(h.Shards), fmt.Sprint(o.Shards))
	}
	return d
}

// ShardCount is how many shards the run was split into: the count of a
// merged run's shards, N of a run of shard I/N, 1 for a whole run.
func (r *Results) ShardCount() int {
	if len(r.Shards) > 0 {
		return max(r.Shards[0].Count, 1)
	}
	if _, n, ok := strings.Cut(r.Settings.Shard, "/"); ok {
		var k int
		if _, err := fmt.Sscanf(n, "%d", &k); err == nil && k > 0 {
			return k
		}
	}
	return 1
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
