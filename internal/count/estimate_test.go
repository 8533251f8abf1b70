package count

import (
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/callgrind"
)

// estimatePlan is a plan of four benchmarks whose blocks cost 2 ms
// natively each (1000 iterations of 2 µs).
func estimatePlan(r *run) *plan {
	p := &plan{names: []string{"a", "b", "c", "d"}, iterations: map[string]int{}, nsPerOp: map[string]float64{}, processes: map[string]int{}}
	for _, n := range p.names {
		p.iterations[n], p.nsPerOp[n], p.processes[n] = 1000, 2000, r.o.Processes
	}
	return p
}

// TestEstimate: processes run Jobs at a time, each its start plus its
// native cost times the slowdown.
func TestEstimate(t *testing.T) {
	for _, tt := range []struct {
		processes, blocks, jobs int
		cacheSim                bool
	}{{5, 3, 1, false}, {4, 3, 2, false}, {4, 1, 2, false}, {4, 3, 2, true}} {
		r := &run{o: Options{Settings: Settings{Processes: tt.processes, Blocks: tt.blocks, Jobs: tt.jobs, Callgrind: callgrind.Options{CacheSim: tt.cacheSim}}}}
		jobs := r.oneJobs(Build{}, estimatePlan(r))
		// A process counts 4 benchmarks, each blocks+1 blocks of 2 ms.
		f := slowdown
		if tt.cacheSim {
			f = slowdownCacheSim
		}
		perProcess := processStart + time.Duration(f*4*(tt.blocks+1))*2*time.Millisecond
		rounds := (tt.processes + tt.jobs - 1) / tt.jobs
		want := time.Duration(rounds) * perProcess
		if got := r.estimate(jobs); got != want {
			t.Errorf("%d processes of %d blocks, %d at a time, cache simulation %v: estimate %v, want %v", tt.processes, tt.blocks, tt.jobs, tt.cacheSim, got, want)
		}
	}
}

// TestEstimateGoTest: a go test benchmark's worker adds testRequest for
// every counted request: a block each with the timer hooks, two (n and
// 2n) with the difference method, one for a benchmark whose operation
// fills a block.
func TestEstimateGoTest(t *testing.T) {
	for _, tt := range []struct {
		name               string
		difference, warmed bool
		requests           int
	}{{"embedded", false, false, 0}, {"timer", false, true, 3*3 + 1}, {"difference", true, false, 3*3*2 + 2}} {
		r := &run{o: Options{Settings: Settings{Processes: 1, Blocks: 3, Jobs: 1}}}
		p := estimatePlan(r)
		p.difference, p.warmed = tt.difference, tt.warmed
		p.iterations["d"] = 1 // one operation fills its block
		jobs := r.oneJobs(Build{}, p)
		want := processStart + time.Duration(slowdown*p.cost(3)) + time.Duration(tt.requests)*testRequest
		if got := r.estimate(jobs); got != want {
			t.Errorf("%s: estimate %v, want %v (%d requests)", tt.name, got, want, tt.requests)
		}
	}
}

// TestFit: a budget cuts blocks first, then processes down to
// MinProcesses (or none, when the processes were chosen), and says so;
// what cannot fit is counted at its least and said; no budget, or one
// that fits, changes nothing.
func TestFit(t *testing.T) {
	// One process of the plan: 4 benchmarks × (blocks+1) × 2 ms × 60,
	// plus 1 s to start: 3 blocks 2.92 s, 2 blocks 2.44 s, 1 block 1.96 s;
	// five processes one at a time 14.6 s, 12.2 s, 9.8 s; four of 1
	// block 7.84 s, three 5.88 s.
	tests := []struct {
		name             string
		budget           time.Duration
		fixed            bool
		processes, block int
		says             string
	}{
		{"no budget", 0, false, 5, 3, ""},
		{"fits", 20 * time.Second, false, 5, 3, ""},
		{"two blocks fit", 13 * time.Second, false, 5, 2, "counting 5 processes of 2 blocks each (instead of 5 of 3) to fit the budget (13s)"},
		{"one block, four processes", 9 * time.Second, false, 4, 1, "counting 4 processes of 1 block each (instead of 5 of 3)"},
		{"at least three processes", time.Second, false, MinProcesses, 1, "even at its least (3 processes of 1 block each, instead of 5 of 3), more than the budget (1s)"},
		{"processes chosen", 9 * time.Second, true, 5, 1, "even at its least (5 processes of 1 block each, instead of 5 of 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{o: Options{Settings: Settings{Processes: 5, Blocks: 3, Jobs: 1, Budget: tt.budget, FixedProcesses: tt.fixed}}}
			var p *plan
			jobs, est, says := r.fit(func() []*job {
				p = estimatePlan(r)
				return r.oneJobs(Build{}, p)
			})
			if r.o.Processes != tt.processes || r.o.Blocks != tt.block || len(jobs) != tt.processes {
				t.Errorf("%d processes (%d jobs) of %d blocks, want %d of %d", r.o.Processes, len(jobs), r.o.Blocks, tt.processes, tt.block)
			}
			if est != r.estimate(jobs) {
				t.Errorf("estimate %v is not the plan's, %v", est, r.estimate(jobs))
			}
			if tt.says == "" && says != "" || !strings.Contains(says, tt.says) {
				t.Errorf("says %q, want %q", says, tt.says)
			}
			if tt.budget > 0 && !strings.Contains(tt.says, "even") && est > tt.budget {
				t.Errorf("estimate %v over the budget %v", est, tt.budget)
			}
		})
	}
}

// TestLeft: what is left is the estimate scaled by how the finished
// processes compared with theirs, less the time run.
func TestLeft(t *testing.T) {
	tests := []struct {
		expected, took, predicted, ran time.Duration
		want                           string
	}{
		{0, 0, 0, 0, ""},
		{time.Minute, 0, 0, 10 * time.Second, ", about 50s left"},
		{time.Minute, 20 * time.Second, 10 * time.Second, 30 * time.Second, ", about 1m30s left"}, // twice as slow
		{time.Minute, 5 * time.Second, 10 * time.Second, 29500 * time.Millisecond, ", finishing"},
		{5 * time.Minute, 0, 0, 0, ", about 5m0s left"},
	}
	for _, tt := range tests {
		r := &run{expected: tt.expected, took: tt.took, predicted: tt.predicted, jobsStart: time.Now().Add(-tt.ran)}
		if got := r.leftLocked(); got != tt.want {
			t.Errorf("expected %v, finished %v of %v estimated, %v run: %q, want %q", tt.expected, tt.took, tt.predicted, tt.ran, got, tt.want)
		}
	}
}

// TestStage: a same-runner A/B count is counted in stages only when the
// count in full is expected to take Settings.StageFrom or longer (or
// StageFrom is negative); a cheaper one counts every benchmark in every
// process.
func TestStage(t *testing.T) {
	// Ten processes (5 of each build) of the plan, 2 at a time, each
	// 2.92 s (TestFit): 14.6 s in full.
	const full = 5 * 2920 * time.Millisecond
	for _, tt := range []struct {
		name      string
		first     int
		stageFrom time.Duration
		want      int
	}{
		{"costly enough", 3, 10 * time.Second, 3},
		{"exactly the threshold", 3, full, 3},
		{"cheap: in full", 3, 20 * time.Second, 5},
		{"always staged", 3, -1, 3},
		{"first is all", 5, 10 * time.Second, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{o: Options{Settings: Settings{Processes: 5, First: tt.first, Blocks: 3, Jobs: 2, StageFrom: tt.stageFrom}}}
			p := &Pair{r: r}
			p.planB, p.planH = estimatePlan(r), estimatePlan(r)
			if got := p.First(); got != tt.first {
				t.Errorf("before Count, First() = %d, want Settings.First (%d)", got, tt.first)
			}
			if est := p.stage(); est != full {
				t.Errorf("the count in full is estimated at %v, want %v", est, full)
			}
			if got := p.First(); got != tt.want {
				t.Errorf("First() = %d, want %d", got, tt.want)
			}
		})
	}
}
