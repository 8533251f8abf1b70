package report

import (
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/outcome"
	"html"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

// reports are the Markdown reports every validity test runs on.
func reports() map[string]string {
	odd := mixedResult()
	odd.Comparisons[0].Name = "Benchmark_x*y*_[a](b)|<script>`c`\n$1$ ~z~ # h"
	odd.Comparisons[1].Name = odd.Comparisons[0].Name
	return map[string]string{
		"typical":   Markdown(typicalInput(), Options{}),
		"first-run": Markdown(firstRunInput(), Options{}),
		"unchanged": Markdown(unchangedInput(), Options{}),
		"mixed":     Markdown(outcome.Report{Result: mixedResult()}, Options{}),
		"odd names": Markdown(outcome.Report{Result: odd, Notes: []string{"two\nlines"}}, Options{}),
		"2000":      Markdown(bigInput(2000), Options{}),
		"tight":     Markdown(bigInput(300), Options{MaxChars: 9000}),
		"where":     Markdown(outcome.Report{Result: whereResult()}, Options{}),
	}
}

// TestMarkdownValid checks every report renders as GitHub would render
// it: tables, collapsed blocks and charts intact, no name's markup.
func TestMarkdownValid(t *testing.T) {
	for name, md := range reports() {
		t.Run(name, func(t *testing.T) { reporttest.CheckMarkdown(t, md) })
	}
}

// TestMarkdownNamesSurvive checks that an odd benchmark name reads the
// same after rendering as it was written.
func TestMarkdownNamesSurvive(t *testing.T) {
	for _, name := range []string{"BenchmarkA|B", "Benchmark<b>bold</b>", "Benchmark`tick`", "Benchmark_a_b_", "Benchmark*x*", "Benchmark[x](y)", "Benchmark\\|"} {
		r := mixedResult()
		r.Comparisons[0].Name = name
		out := reporttest.RenderGFM(t, Markdown(outcome.Report{Result: r}, Options{}))
		if want := html.EscapeString(strings.TrimPrefix(name, "Benchmark")); !strings.Contains(out, `<td style="text-align:left">`+want+"</td>") {
			t.Errorf("name %q: no cell reads %q", name, want)
		}
	}
}

func TestShortName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"BenchmarkSerialize/codec=protobuf/dataset=small", "Serialize protobuf/small"},
		{"BenchmarkDeserialize/codec=flatbuffers-reuse/dataset=floats-1m", "Deserialize flatbuffers-reuse/floats-1m"},
		{"BenchmarkSerialize/codec=a/dataset=b/extra=c", "Serialize/codec=a/dataset=b/extra=c"},
		{"BenchmarkEncode/size=10", "Encode/size=10"},
		{"Benchmark", "Benchmark"},
		{"TestLike", "TestLike"},
	} {
		if got := ShortName(tc.in); got != tc.want {
			t.Errorf("ShortName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatting(t *testing.T) {
	noisy := compare.Comparison{Kind: compare.Noisy, Ratio: 1.123, Lo: 1.098, Hi: 1.149, PAdjusted: 0.0003}
	for _, tc := range []struct{ got, want string }{
		{change(noisy), "+12.3% [+9.8%, +14.9%]"},
		{pValue(noisy), "p=0.0003"},
		{pValue(compare.Comparison{Kind: compare.Noisy, PAdjusted: 0.00001}), "p<0.0001"},
		{pValue(compare.Comparison{Kind: compare.Noisy, PAdjusted: 0.42}), "p=0.42"},
		{pValue(compare.Comparison{Kind: compare.Noisy, PAdjusted: math.NaN()}), "–"},
		{pValue(compare.Comparison{Kind: compare.Exact}), "exact"},
		{change(compare.Comparison{Kind: compare.Exact, Ratio: math.Inf(1)}), "from 0"},
		{change(compare.Comparison{Kind: compare.Noisy, Ratio: 0.9, Lo: math.NaN(), Hi: math.NaN()}), "-10.0%"},
		{mdeText(math.Inf(1)), "cannot reach the significance level with this many samples"},
		{mdeText(0.081), "±8.1%"},
		{human.Count(1234567), "1,234,567"},
		{human.Count(999), "999"},
		{human.Plural(1, "regression", "regressions"), "1 regression"},
		{human.Plural(1200, "regression", "regressions"), "1,200 regressions"},
		{EscapeCell("a|b<c>`d`\ne"), "a\\|b&lt;c&gt;\\`d\\` e"},
		{Elide("abcdefghijklmnopqrstuvwxyz", 10), "abc…wxyz"},
		{chartLabel(`Ser "quoted" <x>`, 40), "Ser _quoted_ _x_"},
		{link("full", "https://x/y (1)"), "[full](<https://x/y%20(1)>)"},
		{vsBase(noisy, 0.01), "+12.30% (p=0.000 n=0+0)"},
		{vsBase(compare.Comparison{Kind: compare.Noisy, Ratio: 1.01, PAdjusted: 0.42, Baseline: compare.Summary{N: 15}, Candidate: compare.Summary{N: 15}}, 0.01), "~ (p=0.42 n=15+15)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestMarkdownFromCompare renders a real comparison (compare.Compare on
// synthetic samples): the headline counts agree with the result.
func TestMarkdownFromCompare(t *testing.T) {
	base, cand := fixtureEnvs(true)
	b, c := results.New("default", base), results.New("default", cand)
	for i, name := range []string{"BenchmarkSerialize/codec=protobuf/dataset=small", "BenchmarkDeserialize/codec=protobuf/dataset=small", "BenchmarkX"} {
		bb, cb := results.Benchmark{Name: name}, results.Benchmark{Name: name}
		slow := 1.0
		if i == 0 {
			slow = 1.3
		}
		for k := range 12 {
			bb.Add(results.UnitNsPerOp, 100+float64(k%5))
			cb.Add(results.UnitNsPerOp, (100+float64(k%5))*slow)
			bb.Add(results.UnitAllocsPerOp, 3)
			cb.Add(results.UnitAllocsPerOp, 3)
		}
		b.Benchmarks = append(b.Benchmarks, bb)
		c.Benchmarks = append(c.Benchmarks, cb)
	}
	// Without a history the regression is reported, not enforced.
	res, err := compare.Compare(b, c, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	md := Markdown(outcome.Report{Result: res, Candidate: c}, Options{})
	if want := "### ⚠️ 1 regression (not failing: timings are reported only (the baseline's history has 1 run, 4 more needed))"; !strings.HasPrefix(md, want) {
		t.Errorf("without history the report starts %q, want %q", md[:min(len(md), 160)], want)
	}
	if !strings.Contains(md, "| Serialize protobuf/small | ns/op |") || !strings.Contains(md, "regression (not enforced)") {
		t.Errorf("the regression's row is missing or does not say it is not enforced:\n%s", md)
	}

	// Six runs of history, the benchmarks moving a fraction of a percent
	// between them: the regression fails the run.
	o := compare.Defaults()
	o.History = &compare.History{Runs: []compare.Run{{Reference: true, Medians: medians(b)}}}
	for i := range 5 {
		m := medians(b)
		for j, name := range []string{"BenchmarkSerialize/codec=protobuf/dataset=small", "BenchmarkDeserialize/codec=protobuf/dataset=small", "BenchmarkX"} {
			m[name][results.UnitNsPerOp] *= 1 + 0.002*reporttest.Jitter(7*i+3*j)
		}
		o.History.Runs = append(o.History.Runs, compare.Run{Commit: fmt.Sprint(i), Medians: m})
	}
	if res, err = compare.Compare(b, c, o); err != nil {
		t.Fatal(err)
	}
	md = Markdown(outcome.Report{Result: res, Candidate: c}, Options{})
	want := fmt.Sprintf("### ❌ %s", human.Plural(res.Count(compare.Regression), "regression", "regressions"))
	if res.Count(compare.Regression) != 1 || !strings.HasPrefix(md, want) {
		t.Errorf("%d regressions; report starts %q", res.Count(compare.Regression), md[:min(len(md), 120)])
	}
	if !strings.Contains(md, "| Serialize protobuf/small | ns/op |") || !strings.Contains(md, "Timings are judged against the baseline's history: 6 runs") {
		t.Errorf("the regression's row or the history's sentence is missing:\n%s", md)
	}
}

// TestBrokenMarkdown: what the pull request's code printed is shown, but
// inert.
func TestBrokenMarkdown(t *testing.T) {
	cause := errors.New("the head worker did not start: the worker exited (exit status 3):\n::error::pwned <img src=x onerror=alert(1)> @octocat <!-- hidden")
	md := BrokenMarkdown("wirebench: default suite", "The pull request's build could not be measured", cause, []string{"a note"})
	for _, raw := range []string{"<img", "<!--", "@octocat"} {
		if strings.Contains(md, raw) {
			t.Errorf("%q is not escaped:\n%s", raw, md)
		}
	}
	for _, want := range []string{"### ❌ The pull request", "octocat", "exit status 3", "a note"} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
}

// TestPackages: benchmarks of packages are named with their package, in
// the Markdown cells and, once per group, in the text.
func TestPackages(t *testing.T) {
	mk := func(pkg string, ns float64) results.Benchmark {
		b := results.Benchmark{Pkg: pkg, Name: "BenchmarkMarshal"}
		for i := range 10 {
			b.Add(results.UnitNsPerOp, ns+float64(i%3))
		}
		return b
	}
	base, cand := results.New("go test", results.Env{}), results.New("go test", results.Env{})
	base.Benchmarks = []results.Benchmark{mk("example.com/a", 100), mk("example.com/b", 200)}
	cand.Benchmarks = []results.Benchmark{mk("example.com/a", 100), mk("example.com/b", 260)}
	res, err := compare.Compare(base, cand, compare.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	md := Markdown(outcome.Report{Result: res, Candidate: cand}, Options{})
	if !strings.Contains(md, "Marshal <sub>example.com/b</sub>") {
		t.Errorf("the regression's row does not name its package:\n%s", md)
	}
	var txt strings.Builder
	if err := Text(&txt, res); err != nil {
		t.Fatal(err)
	}
	if strings.Count(txt.String(), "pkg: example.com/a\n") != 1 || !strings.Contains(txt.String(), "pkg: example.com/b\nMarshal") {
		t.Errorf("the text does not group by package:\n%s", txt.String())
	}
	if got := ShortName("BenchmarkWire/codec=protobuf/dataset=order/op=serialize"); got != "Wire protobuf/order serialize" {
		t.Errorf("ShortName of a matrix name: %q", got)
	}
}

// medians is the median of every metric of every benchmark of r.
func medians(r *results.Results) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, b := range r.Benchmarks {
		out[b.Name] = map[string]float64{}
		for _, m := range b.Metrics {
			s := slices.Sorted(slices.Values(m.Values))
			out[b.Name][m.Unit] = (s[(len(s)-1)/2] + s[len(s)/2]) / 2
		}
	}
	return out
}

// TestGateSentenceDispersion: when the run's timings were widened for
// their dispersion against the history, the history's sentence says by
// how much and from how many timings; when not applied it says nothing of
// it.
func TestGateSentenceDispersion(t *testing.T) {
	tests := []struct {
		name string
		d    *compare.Dispersion
		want string // "" : no dispersion sentence
	}{
		{"applied", &compare.Dispersion{Lambda: 4, Timings: 84, Applied: true}, "lie ×2.00 farther from the history than its runs lie from each other (the median over 84 timings)"},
		{"lambda 1", &compare.Dispersion{Lambda: 1, Timings: 84}, ""},
		{"not applied (too few timings)", &compare.Dispersion{Lambda: 9, Timings: 4}, ""},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &compare.Result{
				Comparisons: []compare.Comparison{{Name: "BenchmarkX", Unit: results.UnitNsPerOp, Kind: compare.Noisy, Verdict: compare.Unchanged, Test: compare.TestNewRun}},
				Gate:        &compare.TimingGate{Runs: 6, Needed: compare.MinHistoryRuns, Dispersion: tt.d},
			}
			got := gateSentence(r, textStyle)
			if !strings.HasPrefix(got, "Timings are judged against the baseline's history: 6 runs") {
				t.Fatalf("sentence %q", got)
			}
			if has := strings.Contains(got, "farther from the history"); has != (tt.want != "") || !strings.Contains(got, tt.want) {
				t.Errorf("sentence %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

// TestGateSentenceBusy: when other processes kept the machine busy while
// a run with benchmarks on every CPU was timed, the history's sentence
// and the headline's reason say so; below the limit, or without such
// benchmarks, they say nothing of it.
func TestGateSentenceBusy(t *testing.T) {
	par := []string{"example.com/p BenchmarkParallel"}
	tests := []struct {
		name string
		b    *compare.BusyCheck
		want string // "" : no busy sentence
	}{
		{"busy candidate", &compare.BusyCheck{Candidate: 0.99, Parallel: par}, "Other processes kept 0.99 of the machine's CPUs busy while this run was timed (0.00 while the baseline was): the wall time of each benchmark that runs on every CPU (b.RunParallel: 1 benchmark) is reported, not enforced"},
		{"busy baseline", &compare.BusyCheck{Reference: 0.6, Parallel: par}, "(0.60 while the baseline was)"},
		{"quiet", &compare.BusyCheck{Candidate: 0.1, Parallel: par}, ""},
		{"busy, no parallel benchmark", &compare.BusyCheck{Candidate: 0.99}, ""},
		{"not recorded", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &compare.Result{
				Comparisons: []compare.Comparison{{Name: par[0], Unit: results.UnitNsPerOp, Kind: compare.Noisy, Verdict: compare.Unchanged, Test: compare.TestNewRun}},
				Gate:        &compare.TimingGate{Runs: 6, Needed: compare.MinHistoryRuns, Busy: tt.b},
			}
			got := gateSentence(r, textStyle)
			if has := strings.Contains(got, "Other processes kept"); has != (tt.want != "") || !strings.Contains(got, tt.want) {
				t.Errorf("sentence %q, want it to contain %q", got, tt.want)
			}
			if has := strings.Contains(notEnforcedShort(r), "other processes kept"); has != (tt.want != "") {
				t.Errorf("short reason %q: says the other work %v, want %v", notEnforcedShort(r), has, tt.want != "")
			}
		})
	}
}
