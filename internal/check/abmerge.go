package check

import (
	"context"
	"fmt"
	"slices"

	"github.com/wirebench/wirebench/internal/ab"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
	"github.com/wirebench/wirebench/internal/shard"
)

// ABShard returns the shard file's content of o, the outcome of a
// same-runner A/B comparison that counted shard spec's part of the
// benchmarks (AB.Shard): the samples, before and after confirmation,
// without a verdict (the merge judges; MergeAB).
func ABShard(o *ab.Outcome, r AB) *shard.ABPart {
	base, head := o.Base, o.Head
	if o.JudgedBase != nil {
		base, head = o.JudgedBase, o.JudgedHead
	}
	base, head = base.Clone(), head.Clone()
	// finishAB filled Base's and Head's environment and troubles, not
	// the copies judged before a confirmation.
	base.Env, head.Env = o.Base.Env, o.Head.Env
	base.Troubles, head.Troubles = o.Base.Troubles, o.Head.Troubles
	if r.Filter != "" {
		base.Settings.Filter, head.Settings.Filter = r.Filter, r.Filter
	}
	spec := r.Shard
	p := &shard.ABPart{
		Shard: spec.String(), ListedBase: o.ListedBase, ListedHead: o.ListedHead,
		Partition:  shard.PartitionID(shard.ABAssign(o.ListedBase, o.ListedHead, spec.Count), spec.Count),
		BaseCommit: r.BaseCommit, HeadCommit: r.HeadCommit,
		Base: base, Head: head, AgainBase: o.AgainBase, AgainHead: o.AgainHead,
		Missing: o.Result.Missing, New: o.Result.New, Identical: o.Result.Identical, Elapsed: o.Elapsed,
	}
	base.Settings.Shard, head.Settings.Shard = p.Shard, p.Shard
	return p
}

// MergeAB judges the joined shards of a same-runner A/B comparison
// counted over a job matrix as one run would have judged them
// (judgeCounts): every benchmark's processes compared with opts, the
// multiplicity correction over the union (a shard alone corrects over
// its part only, a smaller family), then what that flags settled on all
// of its processes, the confirmation's included. Every shard confirmed
// what its own part flagged, and under Holm a benchmark of a part is
// flagged there whenever it is in the whole (its adjusted p-value can
// only grow with the family), so the confirmation's processes are there
// for whatever the union flags (under Benjamini–Hochberg, which is not
// monotone so, a flagged benchmark whose shard did not count it again is
// judged on the processes it has). why says how both builds were
// counted, for the report.
func MergeAB(j *shard.JoinedAB, opts compare.Options, why string) (*ab.Outcome, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	out := &ab.Outcome{Base: j.Base.Clone(), Head: j.Head.Clone(), Elapsed: j.Elapsed}
	var res *compare.Result
	if len(out.Base.Benchmarks)+len(out.Head.Benchmarks)+len(out.Base.Troubles)+len(out.Head.Troubles) == 0 {
		// Every package identical in both builds (or nothing listed):
		// nothing was counted, as an unsharded run would have found.
		res = &compare.Result{Options: opts}
	} else {
		var err error
		if res, err = compare.Compare(out.Base, out.Head, opts); err != nil {
			return nil, fmt.Errorf("merge: judging the joined shards: %w", err)
		}
	}
	if j.AgainBase != nil {
		if names := confirmables(res); len(names) > 0 {
			again := func(_ context.Context, names []string) (_, _ *results.Results, _ error) {
				return only(j.AgainBase, names), only(j.AgainHead, names), nil
			}
			all, err := recount(context.Background(), out, again, names, opts)
			if err != nil {
				return nil, fmt.Errorf("merge: judging the joined shards' confirmations: %w", err)
			}
			if all != nil {
				_, _, used := settle(res, all)
				out.Confirmations = append(out.Confirmations, used...)
				out.ConfirmRounds = j.Base.Settings.Counter.Processes
			}
		}
	}
	res.Missing, res.New, res.Identical = j.Missing, j.New, j.Identical
	res.NoteTroubles(out.Base, out.Head)
	res.Method = compare.MethodCounted
	res.Why = why
	res.CandidateEnv, res.BaselineEnv = out.Head.Env, out.Base.Env
	out.Result = res
	out.Rounds = j.Head.Settings.Counter.Processes
	out.Generations = out.Rounds
	return out, nil
}

// only is r with only the benchmarks names (by key), nil when it has
// none of them.
func only(r *results.Results, names []string) *results.Results {
	o := r.Clone()
	o.Benchmarks = slices.DeleteFunc(o.Benchmarks, func(b results.Benchmark) bool { return !slices.Contains(names, b.Key()) })
	o.Troubles = nil
	if len(o.Benchmarks) == 0 {
		return nil
	}
	return o
}
