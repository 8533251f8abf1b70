package ab

import (
	"context"
	"time"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/human"
)

// visit is the blocks of one step, by worker index.
type visit [3]bench.Sample

// The workers of a generation, as indexes into the run's workers.
const (
	wBase = iota
	wHead
	wBase2
)

// roundsUntil runs rounds of the run's tasks until the deadline (never
// fewer than least), until fixed rounds when fixed > 0, or until some
// task would pass MaxPairs, appending the visits to data (per task) and
// returning the rounds made. After the first round of a run that plans
// from the budget, the plan is redone from what the visits cost
// (replan). label names the phase and generation in progress lines.
func (r *run) roundsUntil(ctx context.Context, deadline time.Time, fixed, least int, data [][]visit, label string) (int, error) {
	var last time.Duration
	k := 0
	for ; ; k++ {
		if fixed > 0 {
			if k == fixed {
				break
			}
		} else if k >= least {
			if time.Now().Add(last).After(deadline) || r.full(data) {
				break
			}
		}
		t0 := time.Now()
		if err := r.round(ctx, k, data); err != nil {
			return k, err
		}
		last = time.Since(t0)
		if !r.replanUntil.IsZero() {
			last = r.replan(last)
		}
		r.chatterf(false, "%s: round %d, %s elapsed", label, k+1, time.Since(r.start).Round(time.Second))
	}
	r.chatterf(true, "%s: %s (%s elapsed)", label, human.Plural(k, "round", "rounds"), time.Since(r.start).Round(100*time.Millisecond))
	return k, nil
}

// round makes round k: every task's visits, in the order schedule gives,
// appended to data.
func (r *run) round(ctx context.Context, k int, data [][]visit) error {
	timed := !r.replanUntil.IsZero() // the visits' cost is what replan plans from
	for _, st := range schedule(r.tasks, k, len(r.ws), r.rng) {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		v, err := r.visit(ctx, r.tasks[st.task], st.order)
		if err != nil {
			return err
		}
		if timed {
			r.spent[st.task] += time.Since(t0)
			r.visited[st.task]++
		}
		data[st.task] = append(data[st.task], v)
	}
	return nil
}

// full reports whether another round would give some task more than
// MaxPairs visits.
func (r *run) full(data [][]visit) bool {
	for i, t := range r.tasks {
		if len(data[i])+t.reps > r.opts.MaxPairs {
			return true
		}
	}
	return false
}

// visit measures one block of a task in every worker, in order,
// collecting every worker first if one's garbage would pass the bound.
func (r *run) visit(ctx context.Context, t task, order []int) (visit, error) {
	predicted := int64(r.bytesOp[t.bench] * float64(t.n+t.pre))
	for _, w := range order {
		if r.garbage[w]+predicted > r.opts.GCBound {
			if err := r.collectAll(ctx); err != nil {
				return visit{}, err
			}
			break
		}
	}
	name := r.names[t.bench]
	var v visit
	for _, w := range order {
		s, err := r.ws[w].Run(ctx, name, t.n, t.pre)
		if err != nil {
			return visit{}, err
		}
		if s.Collected {
			r.garbage[w] = 0
		}
		r.garbage[w] += int64(float64(s.Bytes) * float64(t.n+t.pre) / float64(t.n))
		v[w] = s
	}
	return v, nil
}

// collectAll collects every worker at the same point of the interleaving,
// so the builds' heaps are treated alike.
func (r *run) collectAll(ctx context.Context) error {
	for i, w := range r.ws {
		if err := w.GC(ctx); err != nil {
			return err
		}
		r.garbage[i] = 0
	}
	r.gcs++
	return nil
}
