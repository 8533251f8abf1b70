package cli

// The same-runner A/B mode end to end in the container: a pull request's
// workflow checks its base commit out next to the workspace, and the
// action, running as the runner runs it, builds both trees with the Go
// toolchain in its image, counts them under the Valgrind in its image
// (metric auto) and reports.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/fakegithub"
)

// TestContainerActionAB runs the action on a pull request whose head makes
// the small dataset's string longer than the base's. The encoded size
// (exact, from both builds) can only differ if both trees were really
// built and measured, so the size regression it must report is the proof
// that the A/B mode ran, not the fallback to the stored baseline (there
// is none).
//
// The image holds this machine's Go toolchain (copied in, as the
// Dockerfile copies golang's). The container starts with an empty Go
// build cache, as a runner does; modules come from this machine's module
// cache, served as a file:// GOPROXY (no network is reachable here; a
// runner downloads them).
func TestContainerActionAB(t *testing.T) {
	if testing.Short() {
		t.Skip("container end-to-end test: skipped with -short")
	}
	t.Parallel() // beside TestContainerAction
	h := newE2EHarness(t, 20*time.Minute)
	fake, img := h.fake, h.image
	root, err := e2eRepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tree := e2eSourceTree(t, root)
	modcache := e2eGoEnv(t, "GOMODCACHE")
	token := "ghs_WbE2eAbTok" + e2eRandHex(12)
	fake.AddToken(token, fakegithub.ActionsBot)

	const (
		dataset   = "internal/bench/small.go"
		baseSmall = `StrVal: "hello world"`
		headSmall = `StrVal: "hello, wide world"` // 6 bytes longer
	)
	// The head's worker also writes its environment into a directory
	// anyone may write (the workspace is not the sandbox's to write), so
	// the test can see what code from a pull request gets to read.
	const (
		workerGo   = "internal/cli/worker.go"
		workerFunc = "func cmdWorker(ctx context.Context, e *env, args []string) error {\n"
		workerEnv  = "worker-env.txt"
		imports    = "import (\n\t\"context\"\n"
	)
	leak := filepath.Join(t.TempDir(), "leak")
	if err := os.MkdirAll(leak, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(leak, 0o1777); err != nil {
		t.Fatal(err)
	}
	head := map[string]string{
		dataset:  strings.Replace(string(tree[dataset]), baseSmall, headSmall, 1),
		workerGo: strings.Replace(strings.Replace(string(tree[workerGo]), workerFunc, workerFunc+"\tos.WriteFile(\"/github/leak/"+workerEnv+"\", []byte(strings.Join(os.Environ(), \"\\n\")), 0o644)\n", 1), imports, imports+"\t\"os\"\n\t\"strings\"\n", 1),
	}
	for name := range head {
		if _, ok := tree[name]; !ok {
			t.Fatalf("%s is not in the tree any more: update the change the test makes to the head", name)
		}
	}
	ws := map[string][]byte{}
	for name, data := range tree {
		ws["base/"+name] = data // the second actions/checkout, path: base
		ws[name] = data
		if changed, ok := head[name]; ok {
			if changed == string(data) {
				t.Fatalf("%s: the change the test makes to the head no longer applies: update the test", name)
			}
			ws[name] = []byte(changed)
		}
	}

	r := h.run(t, e2eSpec{
		event: "pull_request.json", token: token, workspace: ws,
		inputs:  map[string]string{"base-path": "base", "budget": "4s"},
		env:     []string{"GOPROXY=file:///goproxy", "GOSUMDB=off"},
		volumes: []string{filepath.Join(modcache, "cache", "download") + ":/goproxy:ro", leak + ":/github/leak", h.goCache + ":" + e2eGoCache},
		timeout: 8 * time.Minute, // two builds with a cold build cache
	})
	r.wantExit(t, 1)
	r.wantCheckOutputs(t, "fail")
	for _, want := range []string{"wirebench: ab: built the base (base)", "wirebench: ab: built the head (.)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q\n%s", want, r.dump())
		}
	}
	report := r.wantWorkspaceFile(t, r.outputs["report-path"])
	r.wantSummaryHasReport(t, report)
	for _, want := range []string{
		"Comparison: same-runner A/B",
		"pull request with a checkout of its base commit at base (input base-path)",
		// The image ships Valgrind: under metric auto the builds are
		// counted, and timed beside the count (the wall-time check).
		"Comparison: same-runner A/B, counted and timed",
		"Counted: instructions/op under Valgrind's callgrind",
		"a wall time beyond ±15% fails the run even when the count did not move",
		"| Seen by |",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	// The head's protobuf message for small is 26+6 bytes: a size
	// regression, found by comparing the two builds' sizes exactly.
	size := regexp.MustCompile(`(?m)^\|[^\n]*protobuf/small[^\n]*B/msg[^\n]*\b26\b[^\n]*\b32\b[^\n]*regression`)
	if !size.MatchString(report) {
		t.Errorf("the report has no row with protobuf/small's size going from 26 to 32 B/msg:\n%s", report)
	}
	if strings.Contains(report, "No baseline yet") && !strings.Contains(report, "same-runner") {
		t.Errorf("the action fell back to the stored baseline:\n%s", report)
	}
	// The head's worker ran the pull request's code: it must have seen
	// neither the token nor any input.
	workerEnviron, err := os.ReadFile(filepath.Join(leak, workerEnv))
	if err != nil {
		t.Fatalf("the head's worker left no %s: %v", workerEnv, err)
	}
	if !strings.Contains(string(workerEnviron), "GITHUB_SHA=") {
		t.Errorf("%s does not look like the worker's environment:\n%s", workerEnv, workerEnviron)
	}
	for _, secret := range []string{token, "INPUT_", "GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "ACTIONS_"} {
		if strings.Contains(string(workerEnviron), secret) {
			t.Errorf("the head's worker (the pull request's code) saw %s:\n%s", secret, workerEnviron)
		}
	}
	cs := fake.Comments(e2eOwner, e2eRepo, 42)
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, e2eMarker+"\n") {
		t.Fatalf("%d comments on PR #42 (want 1 with the marker)\n%s", len(cs), r.requestLog())
	}
	wantCommentIsReport(t, cs[0].Body, report)
	// "::add-mask::<token>" is the one line that must carry the token.
	for _, place := range []struct{ name, text string }{
		{"stdout", strings.ReplaceAll(r.stdout, "::add-mask::"+token+"\n", "")},
		{"stderr", r.stderr}, {"the report", report}, {"the job summary", r.summary},
	} {
		if strings.Contains(place.text, token) {
			t.Errorf("the token appears in %s", place.name)
		}
	}
	t.Logf("A/B in the container: %v in all (image %s)", r.elapsed.Round(time.Second), e2eMB(img.size))

	// A malicious head: its worker reads its parent's environment,
	// appends to every file-command file it can find, prints markup and
	// a workflow command, and crashes. It gets nothing, writes nothing,
	// and the check fails with its text escaped.
	evil := strings.Replace(string(tree[workerGo]), workerFunc, workerFunc+maliciousWorker, 1)
	evil = strings.Replace(evil, imports, imports+"\t\"fmt\"\n\t\"os\"\n\t\"path/filepath\"\n\t\"strings\"\n", 1)
	for name, data := range tree {
		ws[name] = data
	}
	ws[workerGo] = []byte(evil)
	r = h.run(t, e2eSpec{
		event: "pull_request.json", token: token, workspace: ws,
		inputs:  map[string]string{"base-path": "base", "budget": "4s"},
		env:     []string{"GOPROXY=file:///goproxy", "GOSUMDB=off"},
		volumes: []string{filepath.Join(modcache, "cache", "download") + ":/goproxy:ro", leak + ":/github/leak", h.goCache + ":" + e2eGoCache},
		timeout: 8 * time.Minute,
	})
	if r.code == 0 {
		t.Fatalf("a head whose worker crashes passed\n%s", r.dump())
	}
	seen, err := os.ReadFile(filepath.Join(leak, "evil.txt"))
	if err != nil {
		t.Fatalf("the malicious head left no record (it did not run?): %v\n%s", err, r.dump())
	}
	t.Logf("what the malicious head got:\n%s", seen)
	if strings.Contains(string(seen), token) || !strings.Contains(string(seen), "read parent environ: open") {
		t.Errorf("the malicious head read its parent's environment:\n%s", seen)
	}
	if strings.Contains(string(seen), "appended to") {
		t.Errorf("the malicious head wrote a file-command file:\n%s", seen)
	}
	entries, _ := os.ReadDir(r.fileCommands)
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(r.fileCommands, e.Name()))
		if strings.Contains(string(data), "LD_PRELOAD") || strings.Contains(string(data), "verdict=pass") {
			t.Errorf("%s holds what the malicious head wrote:\n%s", e.Name(), data)
		}
	}
	report = r.wantWorkspaceFile(t, "wirebench-results/report.md")
	for _, raw := range []string{"<img", "<!--", "@octocat"} {
		if strings.Contains(report, raw) {
			t.Errorf("the report shows %q unescaped:\n%s", raw, report)
		}
	}
	if !strings.Contains(report, "could not be measured") || !strings.Contains(report, "octocat") {
		t.Errorf("the report does not say the head could not be measured, with its output:\n%s", report)
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "::error::pwned") {
			t.Errorf("the head's output started a workflow command in the log: %q", line)
		}
	}
	if got := r.outputs["verdict"]; got != "fail" {
		t.Errorf("verdict %q, want fail\n%s", got, r.dump())
	}

	// The same image on a user's repository and its own benchmarks.
	t.Run("user benchmarks", func(t *testing.T) { containerUserBenchmarks(t, h) })
}

// maliciousWorker is the body the malicious head puts at the start of
// its worker command.
const maliciousWorker = `	{
		var b strings.Builder
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", os.Getppid()))
		if err != nil {
			fmt.Fprintf(&b, "read parent environ: %v\n", err)
		} else {
			fmt.Fprintf(&b, "parent environ: %s\n", data)
		}
		for _, dir := range []string{"/github/file_commands"} {
			entries, err := os.ReadDir(dir)
			fmt.Fprintf(&b, "list %s: %d entries, %v\n", dir, len(entries), err)
			for _, en := range entries {
				f, err := os.OpenFile(filepath.Join(dir, en.Name()), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					fmt.Fprintf(&b, "open %s: %v\n", en.Name(), err)
					continue
				}
				f.WriteString("LD_PRELOAD=/tmp/evil.so\nverdict=pass\n")
				f.Close()
				fmt.Fprintf(&b, "appended to %s\n", en.Name())
			}
		}
		os.WriteFile("/github/leak/evil.txt", []byte(b.String()), 0o644)
		fmt.Fprintln(os.Stdout, "::error::pwned <img src=x onerror=alert(1)> @octocat <!-- the rest is hidden")
		fmt.Fprintln(os.Stderr, "::error::pwned <img src=x onerror=alert(1)> @octocat <!-- the rest is hidden")
		os.Exit(3)
	}
`

// e2eSourceTree reads the files git tracks in the repository (a checkout
// as actions/checkout leaves it, without .git).
func e2eSourceTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v (the A/B container test copies the tracked source)", root, err)
	}
	tree := map[string][]byte{}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		tree[name] = data
	}
	if _, ok := tree["go.mod"]; !ok {
		t.Fatalf("git ls-files in %s lists no go.mod", root)
	}
	return tree
}

// e2eGoEnv returns `go env NAME`.
func e2eGoEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go env %s: %q, %v", name, out, err)
	}
	return strings.TrimSpace(string(out))
}

// e2eCopyToolchain puts this machine's Go toolchain (GOROOT) into the
// image build context as "go", hard-linked when the file system allows
// (it is 270 MB), and the system's CA certificates as
// "ca-certificates.crt".
func e2eCopyToolchain(ctx context.Context, t *testing.T, dir string) {
	t.Helper()
	goroot := e2eGoEnv(t, "GOROOT")
	dst := filepath.Join(dir, "go")
	if out, err := exec.CommandContext(ctx, "cp", "-al", goroot, dst).CombinedOutput(); err != nil {
		os.RemoveAll(dst)
		if out2, err2 := exec.CommandContext(ctx, "cp", "-a", goroot, dst).CombinedOutput(); err2 != nil {
			t.Fatalf("copy the Go toolchain %s: %v %s; %v %s", goroot, err, out, err2, out2)
		}
	}
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Logf("no CA certificates (%v): the image gets an empty bundle", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ca-certificates.crt"), certs, 0o644); err != nil {
		t.Fatal(err)
	}
}
