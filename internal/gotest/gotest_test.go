package gotest

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestManualWorker builds /tmp/usermod (scratch) and talks to a worker.
func TestManualWorker(t *testing.T) {
	dir := os.Getenv("WIREBENCH_SCRATCH_MODULE")
	if dir == "" {
		t.Skip("set WIREBENCH_SCRATCH_MODULE")
	}
	ctx := context.Background()
	tree := Tree{Dir: dir}
	pkgs, err := Discover(ctx, tree, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", pkgs)
	bins, err := Build(ctx, tree, pkgs[:1], t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	cmd := exec.Command(bins[0].Path, "-test.run=^"+WorkerTest+"$", "-test.bench=^$", "-test.timeout=0")
	cmd.ExtraFiles = []*os.File{inR, outW}
	cmd.Env = append(os.Environ(), "WIREBENCH_WORKER_FDS=3,4", "GOMAXPROCS=1")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Dir = pkgs[0].Dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	r := bufio.NewReader(outR)
	read := func() string { l, _ := r.ReadString('\n'); return strings.TrimSpace(l) }
	t.Log(read())
	for i, req := range []map[string]any{
		{"op": "list", "bench": "."},
		{"op": "run", "name": "BenchmarkMarshal", "n": 1000},
		{"op": "run", "name": "BenchmarkSizes/n=10", "n": 5000},
		{"op": "warmup", "name": "BenchmarkMarshalExternal", "warmup_ns": 20e6},
		{"op": "run", "name": "BenchmarkNope", "n": 10},
		{"op": "quit"},
	} {
		req["id"] = i + 1
		data, _ := json.Marshal(req)
		inW.Write(append(data, '\n'))
		t.Log(read())
	}
	inW.Close()
	t.Log(cmd.Wait())
}
