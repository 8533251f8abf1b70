package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirebench/wirebench/internal/baseline"
	"github.com/wirebench/wirebench/internal/fakegithub"
	"github.com/wirebench/wirebench/internal/source"
)

// TestContainerCgo runs the action's image as the runner runs it, on a
// push to the default branch of a module whose benchmark calls C
// (testdata/cgomod), counted (metric instructions: metric auto would also
// build and time them natively, a minute more here for what TestCgoModule
// checks outside the container). The image has a C compiler, so the two
// packages whose test binaries need cgo are built with it, and only they
// (the log names them, not plain); the C code is counted, and the
// baseline is stored. It shares the image of the other container tests.
func TestContainerCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("container end-to-end test: skipped with -short")
	}
	t.Parallel() // beside the other container tests
	h := newE2EHarness(t, 10*time.Minute)
	token := "ghs_WbE2eCgoTok" + e2eRandHex(12)
	h.fake.AddToken(token, fakegithub.ActionsBot)
	r := h.run(t, e2eSpec{
		event: "push.json", token: token, workspace: e2eTestdata(t, "cgomod"),
		inputs:  map[string]string{"bench": ".", "metric": "instructions", "processes": "3"},
		volumes: []string{h.goCache + ":" + e2eGoCache},
		timeout: 6 * time.Minute,
	})
	r.wantExit(t, 0)
	if got := r.outputs["verdict"]; got != "updated" {
		t.Errorf("output verdict = %q, want updated\n%s", got, r.dump())
	}
	wantCgoNote(t, r.stderr)
	content, _, found := h.fake.File(e2eOwner, e2eRepo, "main", baseline.DefaultPath)
	if !found {
		t.Fatalf("no %s on branch main after the push\n%s", baseline.DefaultPath, r.dump())
	}
	b, err := baseline.Decode("fake:"+baseline.DefaultPath, content, source.GoTestSuite)
	if err != nil {
		t.Fatalf("the stored baseline does not decode: %v\n%s", err, content)
	}
	checkCgoResults(t, b.Reference, "instructions/op")
}

// e2eTestdata reads the files of testdata/name, by slash-separated path
// relative to it: a checkout of that module.
func e2eTestdata(t *testing.T, name string) map[string][]byte {
	t.Helper()
	root := filepath.Join(e2eDir, "testdata", name)
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
