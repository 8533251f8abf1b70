package config

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// actionInputs reads the inputs of action.yml and their defaults.
func actionInputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	out := map[string]string{}
	for name, in := range doc.Inputs {
		out[name] = in.Default
	}
	if len(out) < 10 {
		t.Fatalf("action.yml has %d inputs: parsed wrong?", len(out))
	}
	return out
}

// TestInputsAreFlags: every action.yml input is a flag of the action, with
// the same default, and every flag of the action is an input.
func TestInputsAreFlags(t *testing.T) {
	inputs := actionInputs(t)
	var c Config
	fs := c.FlagSet(Action)
	for name, def := range inputs {
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("input %s has no flag -%s in the action's settings", name, name)
			continue
		}
		if name == "github-token" {
			// action.yml defaults it to the workflow's token expression,
			// which the runner evaluates; the flag has no default.
			if def != "${{ github.token }}" || f.DefValue != "" {
				t.Errorf("github-token: default %q, flag default %q", def, f.DefValue)
			}
			continue
		}
		if f.DefValue != def {
			t.Errorf("input %s: action.yml default %q, flag default %q", name, def, f.DefValue)
		}
	}
	for _, s := range settings {
		if s.takes(Action) {
			if _, ok := inputs[s.name]; !ok {
				t.Errorf("the action's setting %s is not an input of action.yml", s.name)
			}
		}
	}
}

func TestFromInputs(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want func(*Config) bool
		err  string
	}{
		{"defaults", nil, func(c *Config) bool {
			return c.Mode == "auto" && c.Budget == 0 && c.Threshold < 0 && c.Samples == 0 && c.Comment == "always" &&
				c.MeasureBudget(false) == StoredBudget && c.MeasureBudget(true) == ABBudget
		}, ""},
		{"values", map[string]string{"INPUT_BUDGET": " 2m ", "INPUT_THRESHOLD": "3%", "INPUT_MERGE-PARTIAL": "true", "INPUT_BASE-PATH": "base"},
			func(c *Config) bool {
				return c.Budget == 2*time.Minute && c.Threshold == 0.03 && c.MergePartial && c.BasePath == "base" &&
					c.CompareOptions(true).Threshold == 0.03
			}, ""},
		{"bad mode", map[string]string{"INPUT_MODE": "bogus"}, nil, `input mode: "bogus" is not valid: want auto, check`},
		{"bad budget", map[string]string{"INPUT_BUDGET": "soon"}, nil, `input budget: "soon" is not valid`},
		{"NaN alpha", map[string]string{"INPUT_ALPHA": "NaN"}, nil, `input alpha: "NaN" is not valid: want a probability`},
		{"two bad", map[string]string{"INPUT_SAMPLES": "1", "INPUT_SHARD": "5/4"}, nil, "input samples"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := FromInputs(func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want(c) {
				t.Errorf("config %+v", c)
			}
		})
	}
	_, err := FromInputs(func(k string) string {
		return map[string]string{"INPUT_SAMPLES": "1", "INPUT_SHARD": "5/4"}[k]
	})
	if err == nil || !strings.Contains(err.Error(), "input shard") || !strings.Contains(err.Error(), "input samples") {
		t.Errorf("both bad inputs are named: %v", err)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		cmd  Command
		args []string
		want func(*Config) bool
		err  string // in Parse or Validate
	}{
		{Run, nil, func(c *Config) bool { return c.Budget == StoredBudget && c.Format == "text" && c.Out == "" }, ""},
		{Check, nil, func(c *Config) bool {
			return c.Out == ResultFile && c.Report == ReportFile && c.CompareOptions(false).Threshold == StoredThreshold
		}, ""},
		{AB, []string{"--base", "b"}, func(c *Config) bool {
			return c.Budget == ABBudget && c.CompareOptions(true).Threshold == ABThreshold && c.AA && c.HeadPath == "." && c.Block == time.Millisecond
		}, ""},
		{Merge, []string{"--partial", "shards"}, func(c *Config) bool { return c.MergePartial && slices.Equal(c.Args, []string{"shards"}) }, ""},
		{Check, []string{"--baseline", "x.json"}, func(c *Config) bool { return c.BaselinePath == "x.json" }, ""},
		{AB, []string{"--base", "b", "--confirm-budget", "-1s"}, func(c *Config) bool { return c.ConfirmBudget < 0 }, ""},
		{Compare, []string{"--threshold", "5", "a", "b"}, nil, "ambiguous"},
		{Compare, []string{"--alpha", "2", "a", "b"}, nil, "alpha"},
		{Compare, []string{"a"}, nil, "needs two files, BASELINE and CANDIDATE, got 1 argument"},
		{Compare, []string{"a", "b", "--threshold", "3%"}, func(c *Config) bool {
			return slices.Equal(c.Args, []string{"a", "b"}) && c.CompareOptions(false).Threshold == 0.03
		}, ""},
		{Compare, []string{"a", "--threshold", "3%", "b", "--alpha", "0.05"}, func(c *Config) bool {
			return slices.Equal(c.Args, []string{"a", "b"}) && c.CompareOptions(false).Alpha == 0.05
		}, ""},
		{Compare, []string{"--threshold", "3%", "--", "a", "--alpha"}, func(c *Config) bool { return slices.Equal(c.Args, []string{"a", "--alpha"}) }, ""},
		{Compare, []string{"a", "b", "c"}, nil, "got 3 arguments"},
		{Compare, []string{"a", "--", "--b"}, func(c *Config) bool { return slices.Equal(c.Args, []string{"a", "--b"}) }, ""},
		{Run, []string{"extra", "--budget", "-1s"}, nil, "-budget"},
		{Run, []string{"--format", "markdown"}, nil, `--format "markdown" is not valid: want text, table, bench or json`},
		{Compare, []string{"--format", "bench", "a", "b"}, nil, `--format "bench" is not valid: want text, markdown or json`},
		{AB, []string{"--base", "b", "--format", "xml"}, nil, "xml"},
		{AB, nil, nil, "ab needs --base DIR"},
		{Run, []string{"extra"}, nil, "takes no arguments"},
		{Run, []string{"--budget", "-1s"}, nil, "-budget"},
		{Run, []string{"--filter", "("}, nil, "not a valid regular expression"},
		{Run, []string{"--threshold", "5%"}, nil, "flag provided but not defined: -threshold"},
		{Update, nil, func(c *Config) bool {
			runs, release := c.CreepRuns()
			return c.CreepLimit == 0.02 && runs == 20 && !release && !c.FailOnCreep && c.HistoryFloor() == CountedThreshold
		}, ""},
		{Update, []string{"--creep-since", "release", "--creep-limit", "3%", "--fail-on-creep", "--threshold", "2%"}, func(c *Config) bool {
			runs, release := c.CreepRuns()
			return c.CreepLimit == 0.03 && runs == 0 && release && c.FailOnCreep && c.HistoryFloor() == 0.02
		}, ""},
		{Update, []string{"--threshold", "0%"}, func(c *Config) bool { return c.HistoryFloor() > 0 && c.HistoryFloor() < 1e-300 }, ""},
		{Update, []string{"--creep-since", "0"}, nil, `--creep-since "0" is not valid: want a number of runs back (1 or more) or release`},
		{Update, []string{"--creep-since", "v1.2.0"}, nil, "want a number of runs back"},
	}
	for _, tt := range tests {
		t.Run(string(tt.cmd)+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			c, err := Parse(tt.cmd, tt.args)
			if err == nil {
				err = c.Validate(tt.cmd)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want(c) {
				t.Errorf("config %+v", c)
			}
		})
	}
	if c, err := Parse(Run, []string{"extra", "--budget", "20s"}); err != nil || !c.Given("budget") || c.Given("samples") {
		t.Errorf("--budget after an argument: given %v (%v), want budget given and samples not", c.given, err)
	}
	if c, err := Parse(Run, nil); err != nil || c.Given("budget") {
		t.Errorf("no flags: given %v (%v), want nothing given", c.given, err)
	}
	if _, err := Parse(Run, []string{"-h"}); !errors.Is(err, ErrHelp) {
		t.Errorf("-h: %v, want ErrHelp", err)
	}
}

// TestUsage: help lists every command, each command's usage lists its
// flags with their defaults and no placeholder words.
func TestUsage(t *testing.T) {
	var b bytes.Buffer
	Help(&b)
	for _, c := range Commands {
		if !strings.Contains(b.String(), "  "+Program+" "+string(c)) {
			t.Errorf("help does not list %s:\n%s", c, b.String())
		}
	}
	for _, cmd := range append(slices.Clone(Commands), Worker, Action) {
		var u bytes.Buffer
		Usage(&u, cmd)
		var c Config
		fs := c.FlagSet(cmd)
		n := 0
		fs.VisitAll(func(f *flag.Flag) {
			if !isAlias(f.Name) {
				n++
				if !strings.Contains(u.String(), "  -"+f.Name) {
					t.Errorf("usage of %s lacks -%s", cmd, f.Name)
				}
			}
		})
		if n == 0 && cmd != Compare {
			t.Errorf("%s has no flags", cmd)
		}
		if strings.Contains(u.String(), "-shard merge") || strings.Contains(u.String(), "`") || !strings.HasPrefix(u.String(), "usage: "+Program+" "+string(cmd)) {
			t.Errorf("usage of %s has a stray placeholder or another name:\n%s", cmd, u.String())
		}
		widthOK(t, "usage of "+string(cmd), u.String())
	}
	widthOK(t, "help", b.String())
}

// widthOK fails t for every line of text wider than HelpWidth columns (a
// tab counts to the next multiple of 8, as a terminal shows it).
func widthOK(t *testing.T, what, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		cols := 0
		for _, r := range line {
			if r == '\t' {
				cols += 8 - cols%8
				continue
			}
			cols++
		}
		if cols > HelpWidth {
			t.Errorf("%s: a line of %d columns, wider than %d: %q", what, cols, HelpWidth, line)
		}
	}
}

// TestUsageTrue: what a command's usage offers, the command accepts.
// Every --flag its text names is one of its flags; every format its
// -format help offers passes Parse and Validate, and every format it
// accepts is offered; its usage says nothing of settings it does not take
// (A/B budgets in run, the embedded suite's datasets as its only source).
func TestUsageTrue(t *testing.T) {
	dashed := regexp.MustCompile(`--([a-z][a-z-]*)`)
	allFormats := append(slices.Clone(resultFormats), comparisonFormats...)
	for _, cmd := range append(slices.Clone(Commands), Action) {
		var u bytes.Buffer
		Usage(&u, cmd)
		text := u.String()
		var c Config
		fs := c.FlagSet(cmd)
		for _, m := range dashed.FindAllStringSubmatch(text, -1) {
			if fs.Lookup(m[1]) == nil {
				t.Errorf("usage of %s names --%s, which %s does not take", cmd, m[1], cmd)
			}
		}
		if fs.Lookup("format") == nil {
			continue
		}
		_, formatHelp, _ := strings.Cut(text, "  -format\n")
		formatHelp, _, _ = strings.Cut(formatHelp, "\n  -")
		formatHelp = strings.Join(strings.Fields(formatHelp), " ")
		for _, f := range allFormats {
			offered := strings.Contains(formatHelp, " "+f+" (")
			args := []string{"--format", f}
			if cmd == Compare {
				args = append(args, "a", "b")
			}
			if cmd == AB {
				args = append(args, "--base", "b")
			}
			if cmd == Merge {
				args = append(args, "shards")
			}
			pc, err := Parse(cmd, args)
			if err == nil {
				err = pc.Validate(cmd)
			}
			if accepted := err == nil; offered != accepted {
				t.Errorf("%s -format %s: offered %v, accepted %v (%v)\n%s", cmd, f, offered, accepted, err, formatHelp)
			}
		}
	}
	var run bytes.Buffer
	Usage(&run, Run)
	for _, wrong := range []string{"A/B", "4m", "only the embedded"} {
		if strings.Contains(run.String(), wrong) {
			t.Errorf("usage of run says %q:\n%s", wrong, run.String())
		}
	}
}
