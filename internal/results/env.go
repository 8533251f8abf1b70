package results

import (
	"fmt"
	"sort"
	"time"
)

// Env is the environment a run was measured in. Timings from different
// environments are not directly comparable: the comparison uses Env to
// decide whether to separate the machine's global speed shift from each
// benchmark's own change.
type Env struct {
	GoVersion  string `json:"go_version,omitempty"`
	GOOS       string `json:"goos,omitempty"`
	GOARCH     string `json:"goarch,omitempty"`
	CPU        string `json:"cpu,omitempty"`
	GOMAXPROCS int    `json:"gomaxprocs,omitempty"`
	NumCPU     int    `json:"num_cpu,omitempty"`
	// Machine identifies the host without naming it: a short hash of the
	// host name, so two runs on one machine can be recognised without
	// publishing runner host names in reports.
	Machine string `json:"machine,omitempty"`
	// Runner describes the CI runner when known (e.g. "GitHub Actions,
	// ubuntu24, X64").
	Runner string `json:"runner,omitempty"`
	// Commit is the source revision measured, when known.
	Commit string `json:"commit,omitempty"`
	// Ref is the branch or tag measured, when known.
	Ref string `json:"ref,omitempty"`
	// Modules maps each codec library's module path to its version.
	Modules map[string]string `json:"modules,omitempty"`
	// Wirebench is the version of wirebench that measured.
	Wirebench string    `json:"wirebench,omitempty"`
	Time      time.Time `json:"time,omitzero"`
}

// FillMachine fills what e does not know of the machine (CPU, machine,
// CPU count, runner, time) from here: a test binary's worker knows its Go
// and platform, and the machine it ran on is the one wirebench runs on.
func (e *Env) FillMachine(here Env) {
	if e.CPU == "" {
		e.CPU = here.CPU
	}
	if e.Machine == "" {
		e.Machine = here.Machine
	}
	if e.NumCPU == 0 {
		e.NumCPU = here.NumCPU
	}
	if e.Runner == "" {
		e.Runner = here.Runner
	}
	if e.Time.IsZero() {
		e.Time = here.Time
	}
}

// Difference is one field in which two environments differ.
type Difference struct {
	Field, Old, New string
}

func (d Difference) String() string { return fmt.Sprintf("%s: %s → %s", d.Field, d.Old, d.New) }

// Diff lists the fields that make timings from e and o incomparable as
// they stand: the machine, CPU, platform, parallelism, Go version and codec
// library versions. Commit and time are expected to differ and are not
// listed.
func (e Env) Diff(o Env) []Difference {
	var d []Difference
	add := func(field, a, b string) {
		if a != b {
			d = append(d, Difference{field, orUnknown(a), orUnknown(b)})
		}
	}
	add("machine", e.Machine, o.Machine)
	add("cpu", e.CPU, o.CPU)
	add("goos/goarch", e.GOOS+"/"+e.GOARCH, o.GOOS+"/"+o.GOARCH)
	add("GOMAXPROCS", fmt.Sprint(e.GOMAXPROCS), fmt.Sprint(o.GOMAXPROCS))
	add("go", e.GoVersion, o.GoVersion)
	mods := make(map[string]bool)
	for m := range e.Modules {
		mods[m] = true
	}
	for m := range o.Modules {
		mods[m] = true
	}
	names := make([]string, 0, len(mods))
	for m := range mods {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		add(m, e.Modules[m], o.Modules[m])
	}
	return d
}

func orUnknown(s string) string {
	if s == "" || s == "0" || s == "/" {
		return "unknown"
	}
	return s
}
