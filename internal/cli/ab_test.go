package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"

	"github.com/wirebench/wirebench/internal/config"
	"github.com/wirebench/wirebench/internal/event"
	"github.com/wirebench/wirebench/internal/worker"
)

// TestWorkerCommand drives `action worker` in-process over pipes: the
// handshake, a block, a bad request, quit.
func TestWorkerCommand(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := Run(context.Background(), []string{"worker", "--filter", "codec=raw/dataset=small"}, inR, outW, &stderr, func(string) string { return "" })
		outW.Close()
		done <- code
	}()
	r := bufio.NewReader(outR)
	read := func() map[string]any {
		t.Helper()
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v (stderr %s)", err, stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		return m
	}
	h := read()
	if h["protocol"] != worker.Protocol || h["suite"] != "default" {
		t.Fatalf("handshake %v", h)
	}
	names, _ := h["benchmarks"].([]any)
	if len(names) != 2 {
		t.Fatalf("benchmarks %v, want the two of raw/small", names)
	}
	io.WriteString(inW, `{"id":1,"op":"run","name":"BenchmarkSerialize/codec=raw/dataset=small","n":100}`+"\n")
	if m := read(); m["ok"] != true || m["iterations"].(float64) != 100 {
		t.Errorf("run reply %v", m)
	}
	io.WriteString(inW, "{oops\n")
	if m := read(); m["ok"] != false || !strings.Contains(m["error"].(string), "malformed") {
		t.Errorf("bad request reply %v", m)
	}
	io.WriteString(inW, `{"id":2,"op":"quit"}`+"\n")
	if m := read(); m["ok"] != true {
		t.Errorf("quit reply %v", m)
	}
	if code := <-done; code != exitOK {
		t.Errorf("worker exited %d: %s", code, stderr.String())
	}
}

func TestWorkerBadInput(t *testing.T) {
	code, _, stderr := wb(t, t.TempDir(), "worker", "--filter", "(")
	if code != exitBadInput || !strings.Contains(stderr, "not a valid regular expression") {
		t.Errorf("bad filter: exit %d, %s", code, stderr)
	}
	code, _, stderr = wb(t, t.TempDir(), "worker", "--filter", "codec=nope")
	if code != exitBadInput || !strings.Contains(stderr, "matches no benchmark") {
		t.Errorf("empty selection: exit %d, %s", code, stderr)
	}
}

func TestABFlags(t *testing.T) {
	root, _ := filepath.Abs("../..")
	empty := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ab"}, "ab needs --base DIR"},
		{[]string{"ab", "--base", empty, "--head", root}, "is not a Go module"},
		{[]string{"ab", "--base", root, "--head", empty}, "--head " + empty},
		{[]string{"ab", "--base", root, "--head", root, "--threshold", "2"}, "ambiguous"},
		{[]string{"ab", "--base", root, "--head", root, "--budget", "-1s"}, "--budget"},
		{[]string{"ab", "--base", root, "--head", root, "--filter", "("}, "not a valid regular expression"},
		{[]string{"ab", "--base", root, "--head", root, "--format", "xml"}, "xml"},
		{[]string{"ab", "--base", root, "extra"}, "takes no arguments"},
	} {
		code, _, stderr := wb(t, empty, tc.args...)
		if code != exitBadInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestABCommand runs a short A/B of this tree against itself: it builds
// both, measures for a few seconds (--measure-all: the builds are
// identical, which alone measures nothing) and reports as JSON.
func TestABCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tree twice and measures for seconds")
	}
	root, _ := filepath.Abs("../..")
	out := filepath.Join(t.TempDir(), "head.json")
	code, stdout, stderr := wb(t, root, "ab", "--base", ".", "--head", ".", "--filter", "codec=raw/dataset=small",
		"--metric", "time", "--budget", "3s", "--format", "json", "--out", out, "--measure-all")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Method  string `json:"method"`
		AACheck *struct {
			Benchmarks int `json:"benchmarks"`
		} `json:"aa_check"`
		Comparisons []struct {
			Unit   string `json:"unit"`
			Paired bool   `json:"paired"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if doc.Method != "same-runner-ab" || doc.AACheck == nil || doc.AACheck.Benchmarks != 2 {
		t.Errorf("method %q, A/A %+v", doc.Method, doc.AACheck)
	}
	paired := 0
	for _, c := range doc.Comparisons {
		if c.Unit == "ns/op" && c.Paired {
			paired++
		}
	}
	if paired != 2 {
		t.Errorf("%d paired timing comparisons, want 2", paired)
	}
	for _, want := range []string{"built the base", "built the head", "A/A check", "in all (builds"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress does not say %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("--out: %v", err)
	}
}

// TestSameRunnerABFallback: the action only runs the A/B mode on a pull
// request with a usable base checkout, and otherwise says why not.
func TestSameRunnerABFallback(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "notmod"), 0o755)
	pr := &event.Event{Name: "pull_request", PR: &event.PullRequest{Number: 1, BaseSHA: "b"}}
	push := &event.Event{Name: "push"}
	for _, tc := range []struct {
		name     string
		ev       *event.Event
		basePath string
		file     string
		want     string
	}{
		{"push", push, "base", "", ""},
		{"no base-path", pr, "", "", "input base-path is empty"},
		{"benchmark-file", pr, "base", "bench.txt", "benchmark-file"},
		{"missing checkout", pr, "base", "", "input base-path base"},
		{"not a module", pr, "notmod", "", "not a Go module"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{"INPUT_BASE-PATH": tc.basePath, "INPUT_BENCHMARK-FILE": tc.file}
			getenv := func(k string) string { return vars[k] }
			cfg, err := config.FromInputs(getenv)
			if err != nil {
				t.Fatal(err)
			}
			var stdout bytes.Buffer
			a := &actionRun{
				e:   &env{stdout: &stdout, stderr: io.Discard, getenv: getenv},
				gha: githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(&stdout)),
				ev:  tc.ev, cfg: cfg, src: actionSource(cfg, tc.ev, getenv),
			}
			old, _ := os.Getwd()
			os.Chdir(dir)
			defer os.Chdir(old)
			o, why, failed := a.sameRunnerAB(context.Background())
			if o != nil || failed != nil {
				t.Fatalf("ran the A/B comparison: %v", failed)
			}
			if (tc.want == "") != (why == "") || !strings.Contains(why, tc.want) {
				t.Errorf("reason %q, want %q", why, tc.want)
			}
		})
	}
}
