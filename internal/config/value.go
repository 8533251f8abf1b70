package config

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The flag values of the settings. Each parses and checks its own range in
// Set, so a bad value is refused where it is read, with what would be
// valid, and the same way for a flag and an action input.

// stringValue is a free-form string.
type stringValue struct{ p *string }

func (v stringValue) String() string     { return deref(v.p) }
func (v stringValue) Set(s string) error { *v.p = s; return nil }

// pattern is a regular expression, checked when set.
type pattern struct{ p *string }

func (v pattern) String() string { return deref(v.p) }
func (v pattern) Set(s string) error {
	if _, err := regexp.Compile(s); err != nil {
		return fmt.Errorf("not a valid regular expression: %v", err)
	}
	*v.p = s
	return nil
}

// enum is one of a fixed set of words.
type enum struct {
	p       *string
	allowed []string
}

func (v enum) String() string { return deref(v.p) }
func (v enum) Set(s string) error {
	for _, a := range v.allowed {
		if s == a {
			*v.p = s
			return nil
		}
	}
	return fmt.Errorf("want %s", orList(v.allowed))
}

// boolValue is true or false.
type boolValue struct{ p *bool }

func (v boolValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatBool(*v.p)
}
func (v boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	*v.p = b
	return nil
}
func (v boolValue) IsBoolFlag() bool { return true }

// count is a whole number of at least min.
type count struct {
	p   *int
	min int
}

// String is "" for a count below its minimum: not set, the default of
// what is measured or compared (the baseline's samples, say).
func (v count) String() string {
	if v.p == nil || *v.p < v.min {
		return ""
	}
	return strconv.Itoa(*v.p)
}
func (v count) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < v.min {
		return fmt.Errorf("want a whole number of at least %d", v.min)
	}
	*v.p = n
	return nil
}

// seed is an unsigned 64-bit number.
type seed struct{ p *uint64 }

func (v seed) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatUint(*v.p, 10)
}
func (v seed) Set(s string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return fmt.Errorf("want a whole number from 0 to %d", uint64(math.MaxUint64))
	}
	*v.p = n
	return nil
}

// duration is a positive Go duration; 0 stands for "the mode's default"
// and prints as "", which is how action.yml writes it. With signed, any
// duration is allowed (a negative one disables what it bounds).
type duration struct {
	p      *time.Duration
	signed bool
}

func (v duration) String() string {
	if v.p == nil || *v.p == 0 {
		return ""
	}
	return v.p.String()
}
func (v duration) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || (d <= 0 && !v.signed) {
		return fmt.Errorf("want a positive duration such as 60s or 2m")
	}
	*v.p = d
	return nil
}

// percent is a relative threshold written "5%" or "0.05". A negative value
// stands for "the mode's default" and prints as "".
type percent struct{ p *float64 }

func (v percent) String() string {
	if v.p == nil || *v.p < 0 {
		return ""
	}
	return strconv.FormatFloat(*v.p*100, 'g', -1, 64) + "%"
}
func (v percent) Set(s string) error {
	x, err := ParsePercent(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// creepSince is a whole number of runs of at least 1, or "release".
type creepSince struct{ p *string }

func (v creepSince) String() string { return deref(v.p) }
func (v creepSince) Set(s string) error {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); (err != nil || n < 1) && s != CreepRelease {
		return fmt.Errorf("want a number of runs back (1 or more) or %s", CreepRelease)
	}
	*v.p = s
	return nil
}

// probability is a number strictly between 0 and 1.
type probability struct{ p *float64 }

func (v probability) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}
func (v probability) Set(s string) error {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(x > 0 && x < 1) {
		return fmt.Errorf("want a probability between 0 and 1, such as 0.01")
	}
	*v.p = x
	return nil
}

// ParsePercent reads "5%" as 0.05 and "0.05" as 0.05. A bare number of 1
// or more is refused rather than guessed at.
func ParsePercent(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if t, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || !(v >= 0 && v < 100) {
			return 0, fmt.Errorf("%q is not a percentage between 0%% and 100%%", s)
		}
		return v / 100, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a threshold: write it as a percentage (5%%) or a fraction (0.05)", s)
	}
	if v >= 1 {
		return 0, fmt.Errorf("%q is ambiguous: write %s%% for a percentage or a fraction below 1", s, s)
	}
	return v, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
