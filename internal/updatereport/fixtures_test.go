package updatereport

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/history"
	"github.com/wirebench/wirebench/internal/report/reporttest"
	"github.com/wirebench/wirebench/internal/results"
)

// run is the run an update stored as the entry e: e's medians, one
// sample a metric, with the default suite's codec, dataset and op filled
// in for the run's table.
func run(e baseline.Entry) *results.Results {
	r := results.New("default", results.Env{GoVersion: e.Go, GOOS: "linux", GOARCH: "amd64", CPU: e.CPU, Machine: e.Machine,
		Commit: e.Commit, Ref: e.Ref, Time: e.Time})
	r.Settings = results.Settings{Samples: 15, Rounds: 15, Source: "wirebench"}
	for _, name := range slices.Sorted(maps.Keys(e.Medians)) {
		b := results.Benchmark{Name: name}
		if op, rest, ok := strings.Cut(strings.TrimPrefix(name, "Benchmark"), "/codec="); ok {
			b.Codec, b.Dataset, _ = strings.Cut(rest, "/dataset=")
			b.Op = strings.ToLower(op)
		}
		for _, unit := range slices.Sorted(maps.Keys(e.Medians[name])) {
			b.Add(unit, e.Medians[name][unit])
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	return r
}

// quietInput is the report of a push to a history without a step: the
// default suite's eight runs, drifting slowly.
func quietInput() Update {
	h := reporttest.History()
	return Update{Line: "Baseline updated.", Candidate: run(h[len(h)-1]), History: h, Analysis: history.Analyze(h, h[:7], history.Options{}),
		Notes: []string{"Recorded with `wirebench update`."}}
}

// samples are the update reports of the fixtures, by file name.
func samples() map[string]string {
	return map[string]string{
		"update.md":         Markdown(updateInput()),
		"update-counted.md": Markdown(countedUpdateInput()),
		"update-quiet.md":   Markdown(quietInput()),
	}
}

var rewrite = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestMarkdownGolden compares each sample with testdata/NAME.golden, or
// rewrites the files with -update.
func TestMarkdownGolden(t *testing.T) {
	for name, md := range samples() {
		t.Run(name, func(t *testing.T) { reporttest.Golden(t, filepath.Join("testdata", name+".golden"), md, *rewrite) })
	}
}

// TestMarkdownValid checks that every sample renders as GitHub would
// render it: tables, collapsed blocks and charts intact.
func TestMarkdownValid(t *testing.T) {
	for name, md := range samples() {
		t.Run(name, func(t *testing.T) { reporttest.CheckMarkdown(t, md) })
	}
}

// TestWriteRenderSamples writes the samples for tools/render (the real
// Mermaid and Chromium check, which is not part of CI) when
// WIREBENCH_RENDER_DIR names a directory:
//
//	WIREBENCH_RENDER_DIR=/tmp/reports go test ./internal/updatereport -run WriteRenderSamples
func TestWriteRenderSamples(t *testing.T) {
	dir := os.Getenv("WIREBENCH_RENDER_DIR")
	if dir == "" {
		t.Skip("WIREBENCH_RENDER_DIR not set")
	}
	for name, md := range samples() {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
