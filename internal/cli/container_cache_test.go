package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// e2eCacheModule is the third-party module whose own benchmarks the
// build-cache experiment measures, and e2eCacheBench the twelve of them
// (docs/experiments/costs.sh's).
const (
	e2eCacheModule = "github.com/vmihailenco/msgpack/v5@v5.4.1"
	e2eCacheBench  = `^Benchmark(StructMarshal|StructUnmarshal|StructManual|MapStringString|MapIntInt|StringSlice|ByteSlice|Int32|Float64|Bool|Time|Duration)$`
)

// TestContainerBuildCache is an experiment, not part of the test
// command: docs/experiments/cache.sh runs it (WIREBENCH_E2E_CACHE=1).
// It runs the action's image as the runner runs it, in A/B mode, on
// msgpack/v5's own benchmarks (a pull request and its base checked out
// beside it), three times with one go build cache directory mounted
// where the action keeps its caches, as the README's actions/cache step
// restores it: cold (empty), warm (what the first run left), and warm
// with measure-all. Each must pass, say both builds, and (but the last)
// report every benchmark identical; the log says each run's wall time
// and its builds' times, which the script records.
func TestContainerBuildCache(t *testing.T) {
	if os.Getenv("WIREBENCH_E2E_CACHE") != "1" {
		t.Skip("an experiment (docs/experiments/cache.sh): set WIREBENCH_E2E_CACHE=1 to run it")
	}
	h := newE2EHarness(t, 30*time.Minute)
	token := "ghs_WbE2eCacheTok" + e2eRandHex(12)
	h.fake.AddToken(token, fakegithub.ActionsBot)
	out, err := exec.Command("go", "mod", "download", "-json", e2eCacheModule).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", e2eCacheModule, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download %s: no directory in %s (%v)", e2eCacheModule, out, err)
	}
	// Its tests' dependencies, for the file:// proxy.
	dl := exec.Command("go", "mod", "download")
	dl.Dir = mod.Dir
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", mod.Dir, err, out)
	}
	ws := map[string][]byte{}
	err = filepath.WalkDir(mod.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(mod.Dir, path)
		ws[rel], ws["base/"+rel] = data, data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	modcache := e2eGoEnv(t, "GOMODCACHE")
	built := regexp.MustCompile(`built the (base|head) \([^)]*\) in ([0-9hmsµn.]+)`)
	for _, step := range []struct {
		name       string
		measureAll string
		identical  bool
	}{
		{"cold", "false", true},
		{"warm", "false", true},
		{"warm, measure-all", "true", false},
	} {
		r := h.run(t, e2eSpec{
			event: "pull_request.json", token: token, workspace: ws,
			inputs:  map[string]string{"bench": e2eCacheBench, "packages": ".", "base-path": "base", "measure-all": step.measureAll},
			env:     []string{"GOPROXY=file:///goproxy", "GOSUMDB=off", "GOFLAGS=-mod=mod"},
			volumes: []string{filepath.Join(modcache, "cache", "download") + ":/goproxy:ro", h.goCache + ":" + e2eGoCache},
			timeout: 10 * time.Minute,
		})
		r.wantExit(t, 0)
		// The head's results hold what was measured: nothing when every
		// benchmark is identical.
		measured := 12
		if step.identical {
			measured = 0
		}
		r.wantOutputs(t, "pass", measured)
		builds := built.FindAllStringSubmatch(r.stderr, -1)
		if len(builds) != 2 {
			t.Fatalf("%s: %d build lines on stderr, want the base's and the head's\n%s", step.name, len(builds), r.dump())
		}
		report := r.wantWorkspaceFile(t, r.outputs["report-path"])
		if got := strings.Contains(report, "12 benchmarks in 1 package not measured"); got != step.identical {
			t.Errorf("%s: the report says the 12 benchmarks were identical: %v, want %v\n%s", step.name, got, step.identical, report)
		}
		t.Logf("%s build cache: the run took %v; built the %s in %s and the %s in %s",
			step.name, r.elapsed.Round(100*time.Millisecond), builds[0][1], builds[0][2], builds[1][1], builds[1][2])
	}
}
