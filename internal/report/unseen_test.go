package report

import (
	"bytes"
	"encoding/json"
	"github.com/wirebench/wirebench/internal/outcome"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// countedRun is a counted run of two module benchmarks in 5 processes:
// an encoder that calls RunParallel, whose count explains its time (11
// instructions an ns), and one that sleeps (0.005), whose name a pull
// request chose.
func countedRun(t *testing.T, sleep float64) *results.Results {
	t.Helper()
	base, _ := fixtureEnvs(true)
	r := results.New("go test", base)
	r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountTimer, Processes: 5, Blocks: 3, Heap: "dirty", Threads: "all",
		CPU: "sse2 avx2", Lacks: "avx512f sha_ni"}
	for _, b := range []struct {
		name         string
		instructions float64
		nativeNs     float64
	}{
		{"BenchmarkEncode", 2360, 207},
		{"BenchmarkSleep_<b>@octocat</b>", 5390 * sleep, 1.1e6},
	} {
		rb := results.Benchmark{Pkg: "example.com/m", Name: b.name, NativeNsPerOp: b.nativeNs, Parallel: b.name == "BenchmarkEncode"}
		for k := range 5 {
			rb.Iterations = append(rb.Iterations, 64)
			rb.Add(results.UnitInstructionsPerOp, b.instructions*(1+0.0001*float64(k)))
			rb.Add(results.UnitAllocsPerOp, 0)
		}
		r.Benchmarks = append(r.Benchmarks, rb)
	}
	return r
}

// TestUnseenInEveryReport: a counted benchmark whose count explains
// little of its native time is named, with its numbers, in the text and
// Markdown comparisons, the JSON report, the run table and a first run's
// report; a benchmark whose count explains its time is not, and the name
// stays inert in Markdown. Each also says which CPU features Valgrind's
// CPU lacked, and that the parallel benchmark was counted serially.
func TestUnseenInEveryReport(t *testing.T) {
	base, cand := countedRun(t, 1), countedRun(t, 1.001)
	res, err := compare.Compare(base, cand, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	const want = "Counting saw little of the time of 1 benchmark: "
	numbers := "counted 5.40k instructions/op in 1.10 ms/op natively (0.0049 an ns)"

	var text bytes.Buffer
	if err := Text(&text, res); err != nil {
		t.Fatal(err)
	}
	md := Markdown(outcome.Report{Result: res, Candidate: cand}, Options{})
	var table bytes.Buffer
	if err := RunTable(&table, cand); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "Medians of 5 processes, each counted under callgrind 3.19.0.") {
		t.Errorf("the run table does not say its medians are of counted processes:\n%s", table.String())
	}
	first := Markdown(outcome.Report{Candidate: cand}, Options{})
	for name, out := range map[string]string{"text": text.String(), "markdown": md, "run table": table.String(), "first run": first} {
		if name == "text" || name == "run table" {
			for _, line := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(line); n > TextWidth && !strings.Contains(line, "  ") { // a table's rows may be wider
					t.Errorf("%s: a line of prose of %d columns: %q", name, n, line)
				}
			}
			out = strings.Join(strings.Fields(out), " ") // prose is wrapped for a terminal
		}
		if !strings.Contains(out, want) || !strings.Contains(out, numbers) {
			t.Errorf("%s: no %q with %q:\n%s", name, want, numbers, out)
		}
		if !strings.Contains(out, "Valgrind's virtual CPU lacks avx512f, sha_ni, which this machine's has") {
			t.Errorf("%s does not say which CPU features the count lacked:\n%s", name, out)
		}
		if !strings.Contains(out, "Counted one goroutine at a time: Encode calls b.RunParallel") {
			t.Errorf("%s does not say the parallel benchmark was counted serially:\n%s", name, out)
		}
		if strings.Contains(out, "Encode counted") {
			t.Errorf("%s names the encoder, whose count explains its time", name)
		}
	}
	for name, out := range map[string]string{"markdown": md, "first run": first} {
		if strings.Contains(out, "<b>@octocat") {
			t.Errorf("%s: the benchmark's name is not escaped:\n%s", name, out)
		}
	}

	var doc struct {
		Unseen []struct {
			Name              string  `json:"name"`
			InstructionsPerOp float64 `json:"instructions_per_op"`
			NativeNsPerOp     float64 `json:"native_ns_per_op"`
			PerNs             float64 `json:"instructions_per_ns"`
		} `json:"unseen"`
	}
	var js bytes.Buffer
	if err := JSON(&js, res, compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Unseen) != 1 || doc.Unseen[0].Name != "example.com/m BenchmarkSleep_<b>@octocat</b>" ||
		doc.Unseen[0].NativeNsPerOp != 1.1e6 || doc.Unseen[0].PerNs > 0.005 {
		t.Errorf("JSON unseen = %+v", doc.Unseen)
	}
}

// TestCountedFirstRunTable: a counted run of the suite shows counts in a
// first run's table, not times.
func TestCountedFirstRunTable(t *testing.T) {
	env, _ := fixtureEnvs(true)
	r := results.New("default", env)
	r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 5, Blocks: 3}
	for _, op := range []string{results.OpSerialize, results.OpDeserialize} {
		b := results.Benchmark{Name: "Benchmark" + op + "/codec=protobuf/dataset=small", Codec: "protobuf", Dataset: "small", Op: op}
		for range 5 {
			b.Add(results.UnitInstructionsPerOp, 2360)
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	md := Markdown(outcome.Report{Candidate: r}, Options{})
	if !strings.Contains(md, "| small | protobuf | - | 2.36k | 2.36k |") {
		t.Errorf("the first run's table does not show the counts:\n%s", md)
	}
}

// TestClockInReports: a counted comparison with the wall-time check
// beside it says in the text and Markdown reports that both builds were
// timed, with the clock's floor beside the count's, that the benchmarks
// counting saw little of were timed, and no longer that wall time was
// not compared.
func TestClockInReports(t *testing.T) {
	base, cand := countedRun(t, 1), countedRun(t, 1.001)
	res, err := compare.Compare(base, cand, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	res.Method = compare.MethodCounted
	res.Clock = &compare.Clock{Threshold: 0.15, Budget: 20e9, Elapsed: 31e9, Rounds: 12, Generations: 3}
	res.Comparisons = append(res.Comparisons, compare.Comparison{Name: "example.com/m BenchmarkSleep_<b>@octocat</b>", Unit: results.UnitNsPerOp, Kind: compare.Noisy,
		Verdict: compare.Regression, Ratio: 5, Lo: 4.8, Hi: 5.2, P: 1e-9, PAdjusted: 1e-8, Paired: true,
		Note: "instructions/op +0.10%, unchanged: a change counting cannot see"})
	var text bytes.Buffer
	if err := Text(&text, res); err != nil {
		t.Fatal(err)
	}
	md := Markdown(outcome.Report{Result: res, Candidate: cand, FailOn: compare.FailOnRegression}, Options{})
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for name, out := range map[string]string{"text": flat(text.String()), "markdown": flat(md)} {
		for _, want := range []string{
			"counted and timed",
			"a wall time beyond ±15% fails the run even when the count did not move",
			"the wall-time check timed them, so a change of their time beyond ±15% fails the run",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s report does not say %q", name, want)
			}
		}
		for _, never := range []string{"Wall time was not compared", "Time them with", "No timings were compared"} {
			if strings.Contains(out, never) {
				t.Errorf("%s report says %q beside a wall-time check", name, never)
			}
		}
	}
	if !strings.Contains(flat(text.String()), "a change counting cannot see") {
		t.Error("the text report does not say why the count did not see the wall-time change")
	}
	if !strings.Contains(md, "the clock only (instructions/op +0.1%, unchanged)") {
		t.Errorf("the Markdown report does not say the clock alone saw the change:\n%s", md)
	}
	if out := flat(text.String()); !strings.Contains(out, "wall time: Holm–Bonferroni-adjusted p < 0.01 and beyond ±15%") {
		t.Errorf("the text report's rule line does not give the clock's floor:\n%s", out)
	}
	if !res.Failed(compare.FailOnRegression) {
		t.Error("a confirmed wall-time regression must fail the run")
	}
	var js bytes.Buffer
	if err := JSON(&js, res, compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Clock *struct {
			Threshold float64 `json:"threshold"`
			Budget    float64 `json:"budget_seconds"`
			Elapsed   float64 `json:"elapsed_seconds"`
			Rounds    int     `json:"rounds"`
		} `json:"clock"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if c := doc.Clock; c == nil || c.Threshold != 0.15 || c.Budget != 20 || c.Elapsed != 31 || c.Rounds != 12 {
		t.Errorf("the JSON report's clock is %+v, want threshold 0.15, budget 20 s, elapsed 31 s, 12 rounds", doc.Clock)
	}
}

// TestStoredClockInReports: a counted check against a stored baseline
// with its wall-time check says the wall times were judged against the
// baseline's history, not paired with a base build's.
func TestStoredClockInReports(t *testing.T) {
	base, cand := countedRun(t, 1), countedRun(t, 1.001)
	res, err := compare.Compare(base, cand, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	res.Clock = &compare.Clock{History: true, Threshold: 0.15, Budget: 20e9, Elapsed: 21e9, Rounds: 10}
	res.Comparisons = append(res.Comparisons, compare.Comparison{Name: "example.com/m BenchmarkEncode", Unit: results.UnitNsPerOp, Kind: compare.Noisy,
		Verdict: compare.Regression, Ratio: 5, Lo: 4.8, Hi: 5.2, P: 1e-9, PAdjusted: 1e-8, Test: compare.TestNewRun,
		Note: "instructions/op +0.00%, unchanged: " + compare.CountBlind})
	var text bytes.Buffer
	if err := Text(&text, res); err != nil {
		t.Fatal(err)
	}
	md := Markdown(outcome.Report{Result: res, Candidate: cand, FailOn: compare.FailOnRegression}, Options{})
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for name, out := range map[string]string{"text": flat(text.String()), "markdown": flat(md)} {
		for _, want := range []string{"this run was also timed natively", "judged against the baseline's history of wall times", "a wall time beyond ±15% fails the run"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s report does not say %q:\n%s", name, want, out)
			}
		}
		for _, never := range []string{"both builds were also timed", "Wilcoxon", "Both builds were timed on this machine at the same time"} {
			if strings.Contains(out, never) {
				t.Errorf("%s report of a stored check says %q", name, never)
			}
		}
	}
	if !strings.Contains(md, "the clock only (instructions/op") {
		t.Errorf("the Markdown report does not say the clock alone saw the change:\n%s", md)
	}
}

// TestBudgetInReports: a count whose plan was cut for a budget says so,
// with its estimate and what it counted, in a run's table and in a
// first run's report; one that was not cut says nothing of a budget.
func TestBudgetInReports(t *testing.T) {
	for _, tt := range []struct {
		name   string
		budget time.Duration
		want   string
	}{
		{"cut", 20 * time.Second, "The count was cut for the budget (20s), expected to take about 18s: 1 block a benchmark in each of 3 processes"},
		{"not cut", 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env, _ := fixtureEnvs(true)
			r := results.New("default", env)
			r.Settings.Counter = &results.Counter{Tool: "callgrind", Version: "3.19.0", Method: results.CountBlock, Processes: 3, Blocks: 1,
				Budget: tt.budget, Estimate: 18 * time.Second}
			b := results.Benchmark{Name: "BenchmarkSerialize/codec=protobuf/dataset=small", Codec: "protobuf", Dataset: "small", Op: results.OpSerialize}
			for range 3 {
				b.Add(results.UnitInstructionsPerOp, 2360)
			}
			r.Benchmarks = append(r.Benchmarks, b)
			var text strings.Builder
			if err := RunTable(&text, r); err != nil {
				t.Fatal(err)
			}
			md := Markdown(outcome.Report{Candidate: r}, Options{})
			for what, out := range map[string]string{"run table": strings.Join(strings.Fields(text.String()), " "), "first run's report": md} {
				if has := strings.Contains(out, "cut for the budget"); has != (tt.want != "") || !strings.Contains(out, tt.want) {
					t.Errorf("%s: want %q in:\n%s", what, tt.want, out)
				}
			}
		})
	}
}
