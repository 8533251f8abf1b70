package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/compare"
)

// compareConfig is how to compare and when to fail.
type compareConfig struct {
	Options compare.Options
	FailOn  compare.FailOn
}

// percent is a flag value for a relative threshold: "5%" or "0.05".
type percent struct{ v *float64 }

func (p percent) String() string {
	if p.v == nil {
		return ""
	}
	return strconv.FormatFloat(*p.v*100, 'g', -1, 64) + "%"
}

func (p percent) Set(s string) error {
	v, err := parsePercent(s)
	if err != nil {
		return err
	}
	*p.v = v
	return nil
}

// parsePercent reads "5%" as 0.05 and "0.05" as 0.05. A bare number of 1
// or more is refused rather than guessed at.
func parsePercent(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if t, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || v < 0 || v >= 100 {
			return 0, fmt.Errorf("%q is not a percentage between 0%% and 100%%", s)
		}
		return v / 100, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a threshold: write it as a percentage (5%%) or a fraction (0.05)", s)
	}
	if v >= 1 {
		return 0, fmt.Errorf("%q is ambiguous: write %s%% for a percentage or a fraction below 1", s, s)
	}
	return v, nil
}

type enumFlag struct {
	v       *string
	allowed []string
}

func (e enumFlag) String() string {
	if e.v == nil {
		return ""
	}
	return *e.v
}

func (e enumFlag) Set(s string) error {
	for _, a := range e.allowed {
		if s == a {
			*e.v = s
			return nil
		}
	}
	return fmt.Errorf("%q: want %s", s, strings.Join(e.allowed, ", "))
}

func (c *compareConfig) register(fs *flag.FlagSet) {
	c.Options = compare.Defaults()
	c.FailOn = compare.FailOnRegression
	fs.Var(percent{&c.Options.Threshold}, "threshold", "relative change of a timing that matters (5% or 0.05)")
	fs.Var(percent{&c.Options.SizeThreshold}, "size-threshold", "growth of the encoded size (B/msg) that fails (0%: any byte)")
	fs.Var(percent{&c.Options.AllocThreshold}, "alloc-threshold", "growth of a deterministic allocation count that fails (0%: any allocation)")
	fs.Float64Var(&c.Options.Alpha, "alpha", c.Options.Alpha, "significance level after adjustment: the chance of any false alarm in the run (Holm)")
	fs.Var(enumFlag{(*string)(&c.Options.Correction), []string{"holm", "bh", "none"}}, "correction", "multiple-comparison adjustment: holm (family-wise), bh (false discovery rate, exploratory) or none")
	fs.Var(enumFlag{(*string)(&c.Options.Normalize), []string{"auto", "always", "never"}}, "normalize", "judge timings against the machine's speed shift: auto (when the machines differ), always or never")
	fs.Var(enumFlag{(*string)(&c.FailOn), []string{"regression", "never"}}, "fail-on", "exit 1 on: regression or never")
}

func (c *compareConfig) validate() error {
	if err := c.Options.Validate(); err != nil {
		return badInputf("%v", err)
	}
	return nil
}
