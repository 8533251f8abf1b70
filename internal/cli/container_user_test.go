package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// containerUserBenchmarks runs the action's image the way the runner runs
// it on a user's repository (testdata/userrepo: its own protobuf message
// and its own BenchmarkMarshal and BenchmarkUnmarshal, not wirebench),
// with the pull request's base checked out at base/, against the fake
// API. A pull request that grows the message fails with the size change
// named; one that changes nothing passes; one whose benchmark panics
// fails with the panic in the report. It shares the image of
// TestContainerActionAB.
func containerUserBenchmarks(t *testing.T, h *e2eHarness) {
	fake := h.fake
	token := "ghs_WbE2eUserTok" + e2eRandHex(12)
	fake.AddToken(token, fakegithub.ActionsBot)
	repo := map[string][]byte{}
	for _, name := range []string{"go.mod", "go.sum", "order.proto", "order.pb.go", "order.go", "order_test.go"} {
		data, err := os.ReadFile(filepath.Join(e2eDir, "testdata", "userrepo", name))
		if err != nil {
			t.Fatal(err)
		}
		repo[name] = data
	}
	modcache := e2eGoEnv(t, "GOMODCACHE")
	pr := func(t *testing.T, change func(name string, data []byte) []byte) *e2eRun {
		ws := map[string][]byte{}
		for name, data := range repo {
			ws["base/"+name] = data
			head := data
			if change != nil {
				head = change(name, data)
			}
			ws[name] = head
		}
		return h.run(t, e2eSpec{
			event: "pull_request.json", token: token, workspace: ws,
			inputs:  map[string]string{"bench": ".", "base-path": "base", "budget": "6s"},
			env:     []string{"GOPROXY=file:///goproxy", "GOSUMDB=off", "GOFLAGS=-mod=mod"},
			volumes: []string{filepath.Join(modcache, "cache", "download") + ":/goproxy:ro", h.goCache + ":" + e2eGoCache},
			timeout: 8 * time.Minute,
		})
	}
	replace := func(file, old, new string) func(string, []byte) []byte {
		return func(name string, data []byte) []byte {
			if name != file {
				return data
			}
			out := strings.Replace(string(data), old, new, 1)
			if out == string(data) {
				t.Fatalf("%s: %q is not in it any more: update the test", file, old)
			}
			return []byte(out)
		}
	}

	t.Run("a pull request that grows the message fails naming the size", func(t *testing.T) {
		r := pr(t, replace("order.go", `Customer: "ACME Corporation",`, `Customer: "ACME Corporation of Delaware",`))
		r.wantExit(t, 1)
		r.wantOutputs(t, "fail", 2)
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		size := regexp.MustCompile(`(?m)^\|[^\n]*Marshal[^\n]*B/msg[^\n]*\b83\b[^\n]*\b95\b[^\n]*regression`)
		if !size.MatchString(report) {
			t.Errorf("the report has no row with BenchmarkMarshal's B/msg going from 83 to 95:\n%s", report)
		}
		if !strings.Contains(report, "same-runner A/B") {
			t.Errorf("not compared same-runner:\n%s", report)
		}
	})
	t.Run("a pull request that changes nothing passes", func(t *testing.T) {
		// Identical test binaries and files: nothing is measured, each
		// benchmark is listed as identical.
		r := pr(t, nil)
		r.wantExit(t, 0)
		r.wantOutputs(t, "pass", 0)
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		for _, want := range []string{"example.com/orders", "Unmarshal", "identical (not measured)", "identical test binary and files: not measured"} {
			if !strings.Contains(report, want) {
				t.Errorf("the report lacks %q:\n%s", want, report)
			}
		}
	})
	t.Run("a pull request whose benchmark panics fails with the panic", func(t *testing.T) {
		r := pr(t, replace("order_test.go", "\tfor b.Loop() {\n\t\tif _, err := Decode(data)", "\tpanic(\"decoder exploded\")\n\tfor b.Loop() {\n\t\tif _, err := Decode(data)"))
		if r.code == 0 {
			t.Fatalf("a panicking benchmark passed\n%s", r.dump())
		}
		report := r.wantWorkspaceFile(t, "wirebench-results/report.md")
		if !strings.Contains(report, "decoder exploded") || !strings.Contains(report, "could not be measured") {
			t.Errorf("the report does not show the panic:\n%s", report)
		}
		if got := r.outputs["verdict"]; got != "fail" {
			t.Errorf("verdict %q, want fail", got)
		}
	})
}
