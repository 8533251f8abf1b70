package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/config"
)

// TestREADMEWorkflows extracts the complete workflows from the README and
// the docs into a scratch repository and runs actionlint on them, so the
// documented workflows stay valid.
func TestREADMEWorkflows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds actionlint")
	}
	tests := []struct {
		file, doc, section, want string
	}{
		{"quickstart.yml", "README.md", "### In your workflow", "bench: ."},
		{"user.yml", "README.md", "## Use it in a workflow", "bench: ."},
		{"matrix.yml", "docs/shards.md", "## Workflow", "mode: merge"},
		{"ab-matrix.yml", "docs/shards.md", "## Same-runner A/B over a job matrix", "merge-path: shards"},
		{"ab.yml", "docs/action.md", "## The embedded suite, same-runner A/B", "path: base"},
	}
	dir := t.TempDir()
	var files []string
	for _, tt := range tests {
		doc, err := os.ReadFile(filepath.Join("..", "..", tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(doc), tt.section+"\n")
		if !ok {
			t.Fatalf("%s has no section %q", tt.doc, tt.section)
		}
		_, block, ok := strings.Cut(section, "```yaml\n")
		if !ok {
			t.Fatalf("%s section %q has no yaml block", tt.doc, tt.section)
		}
		workflow, _, ok := strings.Cut(block, "```")
		if !ok || !strings.Contains(workflow, tt.want) {
			t.Fatalf("%s section %q: the first yaml block lacks %q:\n%s", tt.doc, tt.section, tt.want, workflow)
		}
		wf := filepath.Join(dir, ".github", "workflows", tt.file)
		if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(wf, []byte(workflow), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, wf)
	}
	cmd := exec.Command("go", append([]string{"run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", "-no-color"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok && os.Getenv("WIREBENCH_REQUIRE_TOOLS") != "1" {
			t.Skipf("cannot run actionlint: %v", err)
		}
		t.Fatalf("actionlint on the README's workflows: %v\n%s", err, out)
	}
}

// TestREADMECommands: the README's synopsis of the commands (## Commands)
// and its prose name every command people run, and every flag and format
// they give a command is one the command takes: the README and the help
// cannot drift apart (check taking compare's --format, update run's
// --plots).
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Commands\n")
	if !ok {
		t.Fatal("README has no ## Commands")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	// A synopsis is an indented line "wirebench CMD ..." and the lines
	// indented under it; prose names `wirebench CMD --flag ...` too.
	uses := map[config.Command][]string{}
	var cur config.Command
	for _, line := range strings.Split(section, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == config.Program && strings.HasPrefix(line, "    ") {
			cur = config.Command(f[1])
			uses[cur] = append(uses[cur], strings.Join(f[2:], " "))
		} else if cur != "" && strings.HasPrefix(line, "                      ") {
			uses[cur] = append(uses[cur], line)
		} else {
			cur = ""
		}
	}
	inline := regexp.MustCompile("`" + config.Program + ` ([a-z]+)([^` + "`" + `]*)` + "`")
	for _, m := range inline.FindAllStringSubmatch(string(readme), -1) {
		uses[config.Command(m[1])] = append(uses[config.Command(m[1])], m[2])
	}
	for _, c := range config.Commands {
		if len(uses[c]) == 0 {
			t.Errorf("the README's ## Commands has no synopsis of %s", c)
		}
	}
	flagRe := regexp.MustCompile(`(?:^|[\s\[])--?([a-z][a-z-]*)(?:[ =]([a-z|]+))?`)
	for cmd, texts := range uses {
		if cmd == "help" {
			continue
		}
		if commands[cmd] == nil {
			t.Errorf("the README names a command %q that does not exist", cmd)
			continue
		}
		var c config.Config
		fs := c.FlagSet(cmd)
		for _, text := range texts {
			for _, m := range flagRe.FindAllStringSubmatch(text, -1) {
				name, values := m[1], m[2]
				f := fs.Lookup(name)
				if f == nil {
					t.Errorf("the README gives %s --%s, which it does not take", cmd, name)
					continue
				}
				if name != "format" || values == "" {
					continue
				}
				for _, v := range strings.Split(values, "|") {
					args := []string{"--format", v}
					switch cmd {
					case config.Compare:
						args = append(args, "a", "b")
					case config.AB:
						args = append(args, "--base", "b")
					case config.Merge:
						args = append(args, "shards")
					}
					pc, err := config.Parse(cmd, args)
					if err == nil {
						err = pc.Validate(cmd)
					}
					if err != nil {
						t.Errorf("the README offers %s --format %s: %v", cmd, v, err)
					}
				}
			}
		}
	}
}
